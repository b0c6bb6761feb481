// paddle-mini: kernel of the cinn_launch op.
#pragma once
#include <memory>
#include <string>

#include "paddle/common/flags.h"
#include "paddle/fluid/framework/op_registry.h"
#include "paddle/fluid/framework/paddle2cinn/cinn_compiler.h"
#include "paddle/fluid/operators/cinn/cinn_launch_context.h"

COMMON_DECLARE_bool(enable_pe_launch_cinn);
COMMON_DECLARE_bool(enable_interpretercore_launch_cinn);

namespace paddle {
namespace operators {

using CinnCompiler = framework::paddle2cinn::CinnCompiler;

template <typename DeviceContext, typename T>
class CinnLaunchOpKernel : public framework::OpKernel<T> {
 public:
  void Compute(const framework::ExecutionContext& ctx) const override {
    const auto& scope = ctx.scope();
    const auto& place = ctx.GetPlace();
    auto compilation_key = ctx.Attr<int64_t>("compilation_key");
    const auto& cinn_compiled_object =
        CinnCompiler::GetInstance()->Compile(compilation_key, place);
    auto* launch_context = cinn_compiled_object.launch_context.get();
    framework::Scope& exec_scope = scope.NewScope();

    if (FLAGS_enable_interpretercore_launch_cinn) {
      auto* core = launch_context->InitializeInterpreterCore(place, &exec_scope);
      core->Run({}, false);
    } else if (FLAGS_enable_pe_launch_cinn) {
      VLOG(4) << "running the CINN runtime graph with PE";
      auto* pe = launch_context->InitializePE(place, &exec_scope);
      pe->RunWithoutFetch(launch_context->GetSkipEagerVars());
    } else {
      launch_context->CheckTensorEquivalent(exec_scope);
    }
    scope.DeleteScope(&exec_scope);
  }
};

}  // namespace operators
}  // namespace paddle

// paddle-mini: fluid run_program op kernel (forward half).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "paddle/fluid/framework/executor_cache.h"
#include "paddle/fluid/framework/op_registry.h"
#include "paddle/fluid/framework/operator.h"

namespace paddle {
namespace operators {

namespace details {

// Shares input variables into the execution scope by name.
static void ShareVarsIntoScope(const std::vector<phi::DenseTensor *> &vars,
                               const std::vector<std::string> &var_names,
                               framework::Scope *scope) {
  for (size_t i = 0; i < vars.size(); ++i) {
    auto *var = scope->Var(var_names[i]);
    var->GetMutable<phi::DenseTensor>()->ShareDataWith(*vars[i]);
  }
}

}  // namespace details

template <typename DeviceContext, typename T>
class RunProgramOpKernel : public framework::OpKernel<T> {
 public:
  void Compute(const framework::ExecutionContext &ctx) const override {
    auto input_vars = ctx.MultiInput<phi::DenseTensor>("X");
    auto input_var_names = ctx.InputNames("X");
    auto *program = ctx.Attr<BlockDesc *>("global_block")->Program();
    auto &scope = *ctx.Output<StepScopeVar>("OutScope")->front();
    details::ShareVarsIntoScope(input_vars, input_var_names, &scope);

    auto cache_info = framework::GetExecutorInfoFromCache(
        *program, ctx.GetPlace(), 0, program->Block(0).OpSize(),
        /*is_grad=*/false, ctx.Attr<int64_t>("program_id"), &scope);
    auto &parallel_executor = cache_info.first;
    if (cache_info.second /*is_new_created*/) {
      parallel_executor->SkipMemoryReuse(/*scope_idx=*/0, input_var_names);
    }
    framework::PEAndGraphPair pe_and_graph;
    std::vector<std::string> skip_eager_delete_vars;
    parallel_executor->RunWithoutFetch(skip_eager_delete_vars);
  }
};

}  // namespace operators
}  // namespace paddle

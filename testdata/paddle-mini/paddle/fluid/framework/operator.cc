// paddle-mini: OperatorBase / OperatorWithKernel (a few members only).
#include "paddle/fluid/framework/operator.h"

#include <string>

#include "paddle/fluid/framework/details/nan_inf_utils.h"
#include "paddle/fluid/framework/op_call_stack.h"
#include "paddle/fluid/platform/profiler/event_tracing.h"

COMMON_DECLARE_bool(check_nan_inf);

namespace paddle {
namespace framework {

OperatorBase::OperatorBase(const std::string& type,
                           const VariableNameMap& inputs,
                           const VariableNameMap& outputs,
                           const AttributeMap& attrs)
    : type_(type), inputs_(inputs), outputs_(outputs), attrs_(attrs) {}

void OperatorBase::Run(const Scope& scope, const platform::Place& place) {
  platform::RecordEvent op_type_record_event(
      Type(), platform::TracerEventType::Operator, 1);
  RunImpl(scope, place);
  if (FLAGS_check_nan_inf) {
    framework::details::CheckOpHasNanOrInf(*this, scope, place);
  }
}

void OperatorWithKernel::TransferInplaceVarsBack(
    const Scope& scope,
    const std::vector<std::string>& inplace_vars,
    const Scope& transfer_scope) const {
  for (auto& var_name : inplace_vars) {
    auto* origin_var = scope.FindVar(var_name);
    auto* transfer_var = transfer_scope.FindVar(var_name);
    if (origin_var == nullptr || transfer_var == nullptr) continue;
    origin_var->GetMutable<phi::DenseTensor>()->ShareDataWith(
        transfer_var->Get<phi::DenseTensor>());
  }
}

Scope* OperatorWithKernel::PrepareData(
    const Scope& scope,
    const phi::KernelKey& expected_kernel_key,
    std::vector<std::string>* transfered_inplace_vars,
    RuntimeContext* ctx,
    const phi::Place& place) const {
  // A temporary scope is only needed when the op is run outside of an
  // Executor or a ParallelExecutor, which otherwise own the cache.
  Scope* new_scope = nullptr;
  if (!run_by_executor_) {
    new_scope = &scope.NewScope();
  }
  return new_scope;
}

}  // namespace framework
}  // namespace paddle

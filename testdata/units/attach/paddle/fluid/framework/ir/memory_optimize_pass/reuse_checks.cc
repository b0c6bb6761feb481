// Checks of the memory reuse pass, written for sunset's tests: each cast to an
// OpHandle type is checked by the statement below it, or by none.

#include "paddle/fluid/framework/ir/memory_optimize_pass/reuse_checks.h"

namespace paddle {
namespace framework {
namespace ir {

bool ReuseChecks::Producer(const Variable &out_var) const {
  auto *op =
      dynamic_cast<const details::ComputationOpHandle *>(out_var.Producer());
  PADDLE_ENFORCE_NOT_NULL(
      op,
      platform::errors::InvalidArgument(
          "Var(%s) is not produced by a ComputationOpHandle.",
          out_var.Name()));
  return op->IsReusable();
}

bool ReuseChecks::Consumer(const Variable &in_var) const {
  const details::ComputationOpHandle *op = in_var.Consumer();
  // the consumer is known once the graph is built
  PADDLE_ENFORCE_EQ(op != nullptr,
                    true,
                    platform::errors::NotFound(
                        "Var(%s) feeds no ComputationOpHandle.", in_var.Name()));
  return op->IsReusable();
}

bool ReuseChecks::Holder(const Variable &in_var) const {
  auto *op =
      dynamic_cast<const details::ComputationOpHandle *>(in_var.Consumer());
  PADDLE_ENFORCE_NOT_NULL(
      in_var.Holder(),
      platform::errors::InvalidArgument(
          "Var(%s) of a ComputationOpHandle has no holder.", in_var.Name()));
  return op != nullptr;
}

bool ReuseChecks::Shared(const Variable &var) const {
  auto *op =
      dynamic_cast<const details::ComputationOpHandle *>(var.Producer());
  size_t scope_idx = var.ScopeIdx();
  PADDLE_ENFORCE_NOT_NULL(
      op,
      platform::errors::InvalidArgument(
          "Var(%s) in scope %d is not produced by a ComputationOpHandle.",
          var.Name(),
          scope_idx));
  return true;
}

void ReuseChecks::Fail(const Variable &var) const {
  auto *op = dynamic_cast<const details::ComputationOpHandle *>(var.Producer());
  PADDLE_THROW(platform::errors::Unimplemented(
      "op %s of a ComputationOpHandle cannot be reused", var.Name()));
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

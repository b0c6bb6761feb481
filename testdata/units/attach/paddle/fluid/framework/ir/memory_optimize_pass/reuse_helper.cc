// Helpers of the memory reuse pass, written for sunset's tests. The pass ran
// under the ParallelExecutor once; this header comment is far from the code.

#include "paddle/fluid/framework/ir/memory_optimize_pass/reuse_helper.h"

namespace paddle {
namespace framework {
namespace ir {

bool ReuseHelper::Reusable(const Variable &out_var) const {
  PADDLE_ENFORCE_NOT_NULL(
      dynamic_cast<const details::ComputationOpHandle *>(out_var.Producer()),
      platform::errors::InvalidArgument(
          "Var(%s) is not produced by a ComputationOpHandle.",
          out_var.Name()));
  return true;
}

void ReuseHelper::Collect() {
  // Collect the existing ShareTensorBufferOpHandles first,
  // so that a variable is reused by one other variable
  // only.
  auto all = FilterByNodeWrapper<details::ShareTensorBufferOpHandle>(*graph_);
  // The OpHandle graph is what this pass walked before.

  CollectReusedVars(all);
  // Remember whether the ParallelExecutor ran the graph.
  MarkVisited();
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

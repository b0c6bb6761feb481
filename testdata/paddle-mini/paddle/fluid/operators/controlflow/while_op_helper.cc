// paddle-mini: garbage-collection helpers of the while op (kept).
#include "paddle/fluid/operators/controlflow/while_op_helper.h"

#include <string>
#include <unordered_set>

#include "paddle/fluid/framework/program_desc.h"

namespace paddle {
namespace operators {

static bool IsMatchedWhileOpAndWhileGradOp(const OpVariant &fwd_op,
                                           const OpVariant &grad_op) {
  return fwd_op.Outputs().at("StepScopes") ==
         grad_op.Inputs().at("StepScopes");
}

void PrepareSafeEagerDeletionOnWhileOpAndWhileGradOp(
    const framework::ProgramDesc &program,
    std::vector<OpVariant> *while_ops,
    std::vector<OpVariant> *while_grad_ops) {
  // Both ops are collected from the whole program here, so this works no
  // matter whether the block ops are held by Executor or by the graph that
  // ParallelExecutor constructs.
  for (auto &grad_op : *while_grad_ops) {
    for (auto &fwd_op : *while_ops) {
      if (IsMatchedWhileOpAndWhileGradOp(fwd_op, grad_op)) {
        std::unordered_set<std::string> skip_vars;
        for (auto &name : grad_op.Outputs().at("X@GRAD")) {
          skip_vars.insert(name);
        }
        VLOG(3) << "while_grad skips " << skip_vars.size() << " vars";
      }
    }
  }
}

}  // namespace operators
}  // namespace paddle

#include "paddle/fluid/framework/ir/graph_helper.h"

namespace paddle {
namespace framework {
namespace ir {

void AddCond(OpDesc *desc, const Node &op) {
  if (op.Name() == "c_allreduce_sum") {
    desc->SetInput("Cond", {});
  } else if (dynamic_cast<const details::GradMergeAllReduceOpHandle *>(&op)) {
    VLOG(4) << "GradMergeAllReduceOpHandle: add cond to c_allreduce_sum";
    desc->SetInput("Cond", {CondName(op)});
  }
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

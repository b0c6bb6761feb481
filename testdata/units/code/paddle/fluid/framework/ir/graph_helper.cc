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

void AddGradMergeCond(OpDesc *desc, const Node &op) {
  desc->SetType("c_allreduce_sum");
  if (dynamic_cast<const details::FusedGradMergeAllReduceOpHandle *>(&op)) {
    VLOG(4) << "FusedGradMergeAllReduceOpHandle: add cond to c_allreduce_sum";
    desc->SetInput("Cond", {CondName(op)});
  } else if (dynamic_cast<const details::GradMergeAllReduceOpHandle *>(&op)) {
    VLOG(4) << "GradMergeAllReduceOpHandle: add cond to c_allreduce_sum";
    desc->SetInput("Cond", {CondName(op)});
  }
  desc->Flush();
}

void SetLossCoeff(OpDesc *desc, const Node &node) {
  if (node.IsWrappedBy<details::OpHandleBase>()) {
    details::OpHandleBase &handle =
        const_cast<Node *>(&node)->Wrapper<details::OpHandleBase>();
    desc->SetAttr(
        "dtype",
        dynamic_cast<details::ScaleLossGradOpHandle *>(&handle)->DType());
    desc->SetAttr(
        "value",
        dynamic_cast<details::ScaleLossGradOpHandle *>(&handle)->Coeff());
  }
  desc->Flush();
}

void SetRole(OpDesc *desc, const Node &node) {
  if (node.IsWrappedBy<details::OpHandleBase>()) {
    desc->SetAttr("op_role", 1);
  } else {
    desc->SetAttr("op_role", 0);
  }
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

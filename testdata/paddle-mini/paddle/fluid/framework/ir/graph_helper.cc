// paddle-mini: graph <-> program conversion helpers (excerpt).
#include "paddle/fluid/framework/ir/graph_helper.h"

#include <string>
#include <vector>

#include "paddle/fluid/framework/details/multi_devices_helper.h"
#include "paddle/fluid/framework/details/scale_loss_grad_op_handle.h"
#include "paddle/fluid/framework/op_proto_maker.h"

namespace paddle {
namespace framework {
namespace ir {

static void ReplaceScaleLossGradOp(const Node &node, OpDesc *desc) {
  desc->SetType("fill_constant");
  desc->SetAttr(OpProtoAndCheckerMaker::OpRoleAttrName(),
                static_cast<int>(OpRole::kBackward | OpRole::kLoss));
  if (node.IsWrappedBy<details::OpHandleBase>()) {
    details::OpHandleBase &op_handle =
        const_cast<Node *>(&node)->Wrapper<details::OpHandleBase>();
    auto *scale_op = dynamic_cast<details::ScaleLossGradOpHandle *>(&op_handle);
    desc->SetAttr("dtype", scale_op->DType());
    desc->SetAttr("value", scale_op->Coeff());
  }
}

static void GetGraphOpDesc(const std::vector<Node *> &nodes,
                           std::vector<OpDesc> *ops) {
  for (Node *n : nodes) {
    if (n->Name() == "scale_loss_grad") {
      ops->emplace_back();
      ReplaceScaleLossGradOp(*n, &ops->back());
    } else if (n->IsOp() && n->Op()) {
      ops->emplace_back(*n->Op());
    }
  }
}

std::vector<Node *> TopologySortGraphByDescOrder(const Graph &graph) {
  std::vector<Node *> sorted;
  for (auto *node : graph.Nodes()) {
    if (node->IsOp()) sorted.push_back(node);
  }
  return sorted;
}

void GraphToProgram(const Graph &graph, ProgramDesc *program) {
  std::vector<OpDesc> ops;
  GetGraphOpDesc(TopologySortGraphByDescOrder(graph), &ops);
  auto *block = program->MutableBlock(0);
  for (auto &op : ops) *block->AppendOp() = op;
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

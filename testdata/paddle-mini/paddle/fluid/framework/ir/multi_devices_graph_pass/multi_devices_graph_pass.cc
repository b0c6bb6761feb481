// paddle-mini: builds the multi-device SSA graph out of a plain graph.
#include "paddle/fluid/framework/ir/multi_devices_graph_pass/multi_devices_graph_pass.h"

#include "paddle/fluid/framework/details/all_reduce_op_handle.h"
#include "paddle/fluid/framework/details/computation_op_handle.h"
#include "paddle/fluid/framework/details/multi_devices_helper.h"
#include "paddle/fluid/framework/details/scale_loss_grad_op_handle.h"
#include "paddle/fluid/framework/ir/graph_helper.h"

namespace paddle {
namespace framework {
namespace ir {

void MultiDevSSAGraphBuilderBase::CreateComputationalOp(ir::Graph *result,
                                                        ir::Node *node,
                                                        size_t dev_id) const {
  result->Get<GraphOps>(kGraphOps).emplace_back(
      new details::ComputationOpHandle(result->CreateOpNode(node->Op()),
                                       local_scopes_[dev_id],
                                       places_[dev_id],
                                       dev_id));
  CreateOpHandleIOs(result, node, dev_id);
}

void MultiDevSSAGraphBuilderBase::CreateScaleLossGradOp(
    ir::Graph *result,
    const std::string &loss_grad_name,
    ir::Node *out_var_node,
    size_t loss_scale,
    proto::VarType::Type dtype) const {
  for (size_t i = 0; i < places_.size(); ++i) {
    auto *dev_ctx = platform::DeviceContextPool::Instance().Get(places_[i]);
    auto *op_handle = new details::ScaleLossGradOpHandle(
        result->CreateEmptyNode("scale_loss_grad", ir::Node::Type::kOperation),
        loss_scale, local_scopes_[i], places_[i], dev_ctx, dtype);
    result->Get<GraphOps>(kGraphOps).emplace_back(op_handle);
    CreateOpOutput(result, op_handle, out_var_node, places_[i], i);
  }
}

void MultiDevSSAGraphBuilderBase::CreateAllReduceOp(
    ir::Graph *result, ir::Node *node, const std::string &og) const {
  auto &graph_vars = result->Get<details::GraphVars>(details::kGraphVars);
  auto *op_handle = new details::AllReduceOpHandle(
      result->CreateEmptyNode("allreduce", ir::Node::Type::kOperation),
      local_scopes_, places_);
  result->Get<GraphOps>(kGraphOps).emplace_back(op_handle);
  for (size_t i = 0; i < places_.size(); ++i) {
    auto &vars = graph_vars[i][og];
    op_handle->AddInput(vars.back());
  }
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

REGISTER_PASS(all_reduce_mode_multi_devices_pass,
              paddle::framework::ir::AllReduceSSAGraphBuilder)
    .RequireGraphAttr(paddle::framework::details::kPlaces)
    .RequireGraphAttr(paddle::framework::details::kLocalScopes);

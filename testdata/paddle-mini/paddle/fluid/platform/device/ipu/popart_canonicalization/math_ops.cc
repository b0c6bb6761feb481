// paddle-mini: IPU canonicalization handlers, registered with REGISTER_HANDLER.
#include <string>
#include <unordered_map>

#include "paddle/fluid/framework/ir/graph.h"
#include "paddle/fluid/platform/device/ipu/popart_canonicalization/canonicalization_utils.h"

namespace paddle {
namespace platform {
namespace ipu {
namespace {

Node *mean_handler(Graph *graph, Node *node) {
  return CreateBaseOp(graph, node, "popart_reducemean",
                      {GetInputVarNode("X", node)},
                      {GetOutputVarNode("Out", node)},
                      {{"keepdims", int64_t{0}}});
}

Node *scale_handler(Graph *graph, Node *node) {
  auto *op = node->Op();
  auto scale = PADDLE_GET_CONST(float, op->GetAttr("scale"));
  return CreateBaseOp(graph, node, "popart_scale",
                      {GetInputVarNode("X", node)}, node->outputs,
                      {{"scale", scale}});
}

}  // namespace

SymbolHandler GetOpHandler(const std::string &kind) {
  auto &op_handlers = SymbolHandlers();
  auto it = op_handlers.find(kind);
  return it == op_handlers.end() ? nullptr : it->second;
}

}  // namespace ipu
}  // namespace platform
}  // namespace paddle

REGISTER_HANDLER(mean, mean_handler);
REGISTER_HANDLER(scale, scale_handler);

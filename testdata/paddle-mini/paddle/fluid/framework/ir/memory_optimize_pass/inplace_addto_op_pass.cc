// paddle-mini: turn `grad = grad + x` into an in-place add_to.
#include "paddle/fluid/framework/ir/memory_optimize_pass/memory_reuse_pass.h"

namespace paddle {
namespace framework {
namespace ir {

class InplaceAddToOpPass : public MemoryReusePass {
 protected:
  void Run(Graph *graph) const override {
    for (auto *node : graph->Nodes()) {
      if (node->IsOp() && node->Op()->Type() == "sum" && node->outputs.size() == 1)
        TryReuseVar(node->inputs[0]->Name(), node->outputs[0]->Name());
    }
  }
};

}  // namespace ir
}  // namespace framework
}  // namespace paddle

REGISTER_PASS(inplace_addto_op_pass, paddle::framework::ir::InplaceAddToOpPass)
    .RequirePassAttr("use_cuda");

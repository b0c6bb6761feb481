// paddle-mini: reuse an input's buffer for an output of the same op.
#include "paddle/fluid/framework/ir/memory_optimize_pass/memory_reuse_pass.h"

namespace paddle {
namespace framework {
namespace ir {

class BufferSharedInplaceOpPass : public MemoryReusePass {
 protected:
  void Run(Graph *graph) const override {
    for (auto *node : graph->Nodes()) {
      if (node->IsOp() && node->inputs.size() == 1 && node->outputs.size() == 1)
        TryReuseVar(node->inputs[0]->Name(), node->outputs[0]->Name());
    }
  }
};

}  // namespace ir
}  // namespace framework
}  // namespace paddle

REGISTER_PASS(buffer_shared_inplace_pass, paddle::framework::ir::BufferSharedInplaceOpPass)
    .RequirePassAttr("mem_opt_var_infos")
    .RequirePassAttr("use_cuda");

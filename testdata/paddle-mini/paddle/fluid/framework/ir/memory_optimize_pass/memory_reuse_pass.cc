// paddle-mini: the base of the passes that reuse variable memory.
#include "paddle/fluid/framework/ir/memory_optimize_pass/memory_reuse_pass.h"

namespace paddle {
namespace framework {
namespace ir {

void MemoryReusePass::ApplyImpl(Graph *graph) const {
  reused_.clear();
  Run(graph);
}

bool MemoryReusePass::TryReuseVar(const std::string &in, const std::string &out) const {
  if (in == out || reused_.count(out)) return false;
  reused_[out] = in;
  return true;
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

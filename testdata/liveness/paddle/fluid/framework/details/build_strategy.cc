#include "paddle/fluid/framework/ir/multi_devices_graph_pass/multi_devices_graph_pass.h"

namespace paddle {
namespace framework {
namespace details {

// Still the builder BuildStrategy::Apply runs: the cleanup keeps it.
class ParallelExecutorPassBuilder : public ir::PassBuilder {
 public:
  ParallelExecutorPassBuilder() { AppendPass("fuse_bn_act_pass"); }
  void AppendPrintGraphPass() {}
};

ir::Graph *BuildStrategy::Apply(ir::Graph *graph) const {
  ParallelExecutorPassBuilder builder;
  return builder.Build(graph);
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

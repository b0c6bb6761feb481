// paddle-mini: two analysis passes over a graph.
#include "paddle/fluid/framework/ir/pass.h"

namespace paddle {
namespace framework {
namespace ir {

class GraphStatsPass : public Pass {
 protected:
  void ApplyImpl(Graph *graph) const override {}
};

class GraphVizCheckPass : public Pass {
 protected:
  void ApplyImpl(Graph *graph) const override {}
};

}  // namespace ir
}  // namespace framework
}  // namespace paddle

REGISTER_PASS(graph_stats_pass, paddle::framework::ir::GraphStatsPass);
REGISTER_PASS(graph_viz_check_pass, paddle::framework::ir::GraphVizCheckPass);

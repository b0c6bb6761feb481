#include "paddle/fluid/framework/details/build_strategy.h"

#include "paddle/fluid/framework/ir/multi_devices_graph_pass/multi_devices_graph_pass.h"
#include "paddle/fluid/framework/ir/multi_devices_graph_pass/set_reader_device_info_utils.h"

namespace paddle {
namespace framework {
namespace details {

class StrategyPassBuilder : public ir::PassBuilder {
 public:
  explicit StrategyPassBuilder(const BuildStrategy &strategy) {
    AppendMultiDevPass();
  }

  void AppendMultiDevPass() {
    ir::Pass *pass = AppendPass("all_reduce_mode_multi_devices_pass").get();
    pass->Set<int>("nranks", new int(1));
  }
};

bool BuildStrategy::IsMultiDevPass(const std::string &name) const {
  return framework::ir::MultiDevSSAGraphBuilder().count(name) > 0;
}

ir::Graph *BuildStrategy::Apply(ir::Graph *graph,
#if defined(PADDLE_WITH_NCCL)
                                int nranks,
                                void *nccl_ctxs) const {
#else
                                int nranks) const {
#endif
  StrategyPassBuilder builder(*this);
  ir::SetReaderDeviceCount(graph, nranks);
  for (auto &pass : builder.AllPasses()) {
    if (IsMultiDevPass(pass->Type())) {
      pass->Erase(ir::kLossVarName);
      pass->Set<int>(ir::kLossVarName, new int(nranks));
    }
    graph = pass->Apply(graph);
  }
  return graph;
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

USE_PASS(all_reduce_mode_multi_devices_pass);

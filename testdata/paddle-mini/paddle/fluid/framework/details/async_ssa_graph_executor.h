// paddle-mini: an SSA graph executor that runs without waiting for fetches.
#pragma once
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/graph_run_stats.h"
#include "paddle/fluid/framework/details/op_run_timer.h"
#include "paddle/fluid/framework/details/ssa_graph_executor.h"

namespace paddle {
namespace framework {
namespace details {

class AsyncSSAGraphExecutor : public SSAGraphExecutor {
 public:
  const ir::Graph &Graph() const override { return *graph_; }
  FetchResultType Run(const std::vector<std::string> &fetch_tensors,
                      bool return_merged) override;

 private:
  ir::Graph *graph_{nullptr};
  GraphRunStats stats_;
  OpRunTimer timer_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle

// paddle-mini: AsyncSSAGraphExecutor::Run.
#include "paddle/fluid/framework/details/async_ssa_graph_executor.h"

#include "paddle/common/flags.h"
#include "paddle/fluid/framework/ir/pass.h"

COMMON_DECLARE_bool(op_run_timer_enabled);

USE_PASS(graph_stats_pass);
USE_PASS(graph_viz_check_pass);

namespace paddle {
namespace framework {
namespace details {

FetchResultType AsyncSSAGraphExecutor::Run(
    const std::vector<std::string> &fetch_tensors, bool return_merged) {
  if (FLAGS_op_run_timer_enabled) timer_.Start();
  stats_.Record(fetch_tensors.size());
  return FetchResultType();
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

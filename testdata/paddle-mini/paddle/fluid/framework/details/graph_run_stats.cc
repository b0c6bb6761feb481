// paddle-mini: GraphRunStats.
#include "paddle/fluid/framework/details/graph_run_stats.h"

#include "glog/logging.h"
#include "paddle/common/flags.h"

COMMON_DECLARE_int32(graph_run_stats_interval);

namespace paddle {
namespace framework {
namespace details {

void GraphRunStats::Record(size_t n_fetched) {
  ++runs;
  fetched += n_fetched;
  if (FLAGS_graph_run_stats_interval > 0 &&
      runs % FLAGS_graph_run_stats_interval == 0) {
    VLOG(1) << "graph runs: " << runs << ", fetched: " << fetched;
  }
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

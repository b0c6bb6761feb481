// paddle-mini: per-operator timing report of the new executor.
#include "paddle/fluid/framework/details/op_run_timer.h"

#include "paddle/fluid/framework/ir/pass.h"

USE_PASS(graph_viz_check_pass);

namespace paddle {
namespace framework {

double ReportOpTime(details::OpRunTimer *timer) { return timer->ElapsedMs(); }

}  // namespace framework
}  // namespace paddle

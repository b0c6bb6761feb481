// paddle-mini: OpRunTimer.
#include "paddle/fluid/framework/details/op_run_timer.h"

#include "paddle/common/flags.h"

COMMON_DECLARE_bool(op_run_timer_enabled);

namespace paddle {
namespace framework {
namespace details {

void OpRunTimer::Start() {
  if (FLAGS_op_run_timer_enabled) start_ = std::chrono::steady_clock::now();
}

double OpRunTimer::ElapsedMs() const {
  auto d = std::chrono::steady_clock::now() - start_;
  return std::chrono::duration<double, std::milli>(d).count();
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

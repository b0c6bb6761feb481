// paddle-mini: wall-clock timer around operator runs (used by both executors).
#pragma once
#include <chrono>

namespace paddle {
namespace framework {
namespace details {

class OpRunTimer {
 public:
  void Start();
  double ElapsedMs() const;

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle

#pragma once

namespace paddle {
namespace framework {

class ParallelExecutor {
 public:
  void RunWithoutFetch(int n);
  int DeviceCount() const { return 1; }
};

}  // namespace framework
}  // namespace paddle

#pragma once
namespace paddle {
namespace framework {
class ParallelExecutor {
 public:
  void Run();
};
}  // namespace framework
}  // namespace paddle

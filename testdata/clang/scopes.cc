#include "paddle/fluid/framework/parallel_executor.h"

namespace paddle {
namespace framework {

class ParallelExecutorPrivate {
 public:
  explicit ParallelExecutorPrivate(int n)
      : places_(n), use_device_(false) {
    Init(n);
  }
  ~ParallelExecutorPrivate() { places_ = 0; }
  bool IsUseCUDA() const { return use_device_; }

  class Guard {
   public:
    void Release() {}
  };

 private:
  int places_;
  bool use_device_;
};

void ParallelExecutor::Run(const std::vector<std::string> &fetch_tensors) {
  member_->RunWithoutFetch(fetch_tensors);
}

template <typename T>
std::unique_ptr<T>
MakeExecutor(int n) {
  return std::make_unique<T>(n);
}

namespace {
int Helper() { return 0; }
}  // namespace

#ifdef PADDLE_WITH_CUDA
void Sync(int device) {
#else
void Sync(int device, bool blocking) {
#endif
  Barrier(device);
}

int After() { return 1; }

}  // namespace framework
}  // namespace paddle

TEST(ParallelExecutor, Run) {
  EXPECT_TRUE(true);
}

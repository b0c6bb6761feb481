// sunset test data: a header's namespace-level functions and constants, and a block the
// preprocessor keeps only in its first branch.
#pragma once

#include "paddle/fluid/framework/details/build_strategy.h"

namespace paddle {
namespace framework {

constexpr int kDefaultNumThreads = 4;

bool UseParallelGraph(const details::BuildStrategy &strategy);

inline size_t NumTrainerThreads(size_t places) { return places * 2; }

#ifdef PADDLE_WITH_CUDA
class NCCLContextMap {
#else
class NCCLContextMap : public DeviceContextMap {
#endif
 public:
  explicit NCCLContextMap(const std::vector<int> &ids);
};

}  // namespace framework
}  // namespace paddle

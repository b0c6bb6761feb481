// paddle-mini: counters an executor keeps while it runs a graph.
#pragma once
#include <cstddef>

namespace paddle {
namespace framework {
namespace details {

struct GraphRunStats {
  void Record(size_t n_fetched);
  size_t runs{0};
  size_t fetched{0};
};

}  // namespace details
}  // namespace framework
}  // namespace paddle

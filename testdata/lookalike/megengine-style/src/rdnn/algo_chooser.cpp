#include "rdnn/algo_chooser.h"

namespace toymge {
namespace rdnn {

using ExecutionStrategy = AlgoPolicy::Strategy;

// Profiling is tried only when the strategy asks for it.
bool should_profile(ExecutionStrategy strategy) {
    return static_cast<int>(strategy) & static_cast<int>(ExecutionStrategy::PROFILE);
}

}  // namespace rdnn
}  // namespace toymge

// paddle-mini: knobs of the multi-device SSA graph executors.
#pragma once
#include <cstddef>

#include "paddle/fluid/platform/device_context.h"

namespace paddle {
namespace framework {
namespace details {

using DeviceType = paddle::platform::DeviceType;
namespace p = paddle::platform;

struct ExecutionStrategy {
  enum ExecutorType { kDefault = 0, kExperimental = 1 };

  // Worker pool size; 0 means "let CompiledProgram choose".
  size_t num_threads_{0};
  DeviceType use_device_ = p::kCUDA;
  // Kept only for API compatibility, it has no effect.
  bool allow_op_delay_{false};
  // Local execution scopes are recycled every N iterations.
  size_t num_iteration_per_drop_scope_{100};
  ExecutorType type_{kExperimental};
  bool dry_run_{false};
  bool thread_barrier_{false};
  // Read by the asynchronous executor only.
  size_t num_iteration_per_run_{1};
};

}  // namespace details
}  // namespace framework
}  // namespace paddle

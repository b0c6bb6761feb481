// paddle-mini: broadcast of a fused (coalesced) gradient buffer.
#include "paddle/fluid/framework/details/fused_broadcast_op_handle.h"

namespace paddle {
namespace framework {
namespace details {

void FusedBroadcastOpHandle::RunImpl() {
  for (size_t i = 0; i < offsets_.size(); ++i) WaitInputVarGenerated(i);
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

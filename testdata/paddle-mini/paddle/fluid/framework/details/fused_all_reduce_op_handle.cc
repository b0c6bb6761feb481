// paddle-mini: all-reduce of a fused (coalesced) gradient buffer.
#include "paddle/fluid/framework/details/fused_broadcast_op_handle.h"

namespace paddle {
namespace framework {
namespace details {

struct FusedAllReduceOpHandle : public OpHandleBase {
  explicit FusedAllReduceOpHandle(ir::Node *node) : OpHandleBase(node) {}
  std::string Name() const override { return "fused_all_reduce"; }

 protected:
  void RunImpl() override { WaitInputVarGenerated(); }
};

}  // namespace details
}  // namespace framework
}  // namespace paddle

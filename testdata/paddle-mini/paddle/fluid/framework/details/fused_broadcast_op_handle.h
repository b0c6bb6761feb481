// paddle-mini: broadcast of a fused (coalesced) gradient buffer.
#pragma once

#include <vector>

#include "paddle/fluid/framework/details/op_handle_base.h"

namespace paddle {
namespace framework {
namespace details {

struct FusedBroadcastOpHandle : public OpHandleBase {
  explicit FusedBroadcastOpHandle(ir::Node *node) : OpHandleBase(node) {}
  std::string Name() const override { return "fused_broadcast"; }

 protected:
  void RunImpl() override;
  std::vector<size_t> offsets_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle

// paddle-mini: fixture shared by the broadcast op handle tests.
#pragma once
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "paddle/fluid/framework/details/broadcast_op_handle.h"
#include "paddle/fluid/platform/device_context.h"

namespace paddle {
namespace framework {
namespace details {

struct DummyVarHandle;
struct VarHandle;

struct TestBroadcastOpHandle {
  std::vector<std::unique_ptr<platform::DeviceContext>> ctxs_;
  std::vector<Scope*> local_scopes_;
  std::vector<Scope*> param_scopes_;
  Scope g_scope_;
  OpHandleBase* op_handle_;
  std::vector<VarHandleBase*> vars_;
  std::vector<std::unique_ptr<ir::Node>> nodes_;
  std::vector<platform::Place> place_list_;

  void InitCtxOnDevice(bool use_gpu) {
    for (int i = 0; i < 2; ++i) {
      place_list_.push_back(platform::CPUPlace());
      ctxs_.emplace_back(new phi::CPUContext(platform::CPUPlace()));
    }
  }

  void InitBroadcastOp(size_t input_scope_idx) {
    nodes_.emplace_back(ir::CreateNodeForTest("node0", ir::Node::Type::kOperation));
    op_handle_ = new BroadcastOpHandle(nodes_.back().get(), local_scopes_,
                                       place_list_);
    nodes_.emplace_back(ir::CreateNodeForTest("in", ir::Node::Type::kVariable));
    auto* in_var_handle = new VarHandle(nodes_.back().get(), 1,
                                        input_scope_idx, "input",
                                        place_list_[input_scope_idx]);
    vars_.emplace_back(in_var_handle);
    op_handle_->AddInput(in_var_handle);
  }
};

}  // namespace details
}  // namespace framework
}  // namespace paddle

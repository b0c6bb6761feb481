// paddle-mini: ReduceOpHandle test; no CMake target builds it.
#include "paddle/fluid/framework/details/reduce_op_handle.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "paddle/fluid/platform/device_context.h"

namespace paddle {
namespace framework {
namespace details {

struct TestReduceOpHandle {
  Scope g_scope_;
  std::vector<Scope *> local_scopes_;
  std::unique_ptr<OpHandleBase> op_handle_;
  std::vector<std::unique_ptr<VarHandleBase>> vars_;
  std::vector<std::unique_ptr<ir::Node>> nodes_;
  std::vector<platform::Place> gpu_list_;

  void InitReduceOp(size_t out_scope_idx) {
    for (int i = 0; i < 2; ++i) {
      local_scopes_.push_back(&g_scope_.NewScope());
      gpu_list_.push_back(platform::CPUPlace());
    }
    nodes_.emplace_back(
        ir::CreateNodeForTest("node", ir::Node::Type::kOperation).release());
    op_handle_ = std::make_unique<ReduceOpHandle>(nodes_.back().get(),
                                                  local_scopes_, gpu_list_);
    nodes_.emplace_back(
        ir::CreateNodeForTest("out", ir::Node::Type::kVariable).release());
    auto *out = new VarHandle(nodes_.back().get(), 2, out_scope_idx, "out",
                              gpu_list_[out_scope_idx]);
    vars_.emplace_back(out);
    op_handle_->AddOutput(out);
  }
};

TEST(ReduceTester, TestCPUReduceTestSelectedRows) {
  TestReduceOpHandle test_op;
  test_op.InitReduceOp(0);
  EXPECT_EQ(test_op.op_handle_->Outputs().size(), 1UL);
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

// paddle-mini: BroadcastOpHandle tests.
#include "test/cpp/fluid/framework/details/broadcast_op_handle_test.h"

namespace paddle {
namespace framework {
namespace details {

TEST(BroadcastTester, TestCPUBroadcastTestLodTensor) {
  TestBroadcastOpHandle test_op;
  size_t input_scope_idx = 0;
  test_op.InitCtxOnDevice(false);
  test_op.InitBroadcastOp(input_scope_idx);
  EXPECT_EQ(test_op.op_handle_->Inputs().size(), 1UL);
}

TEST(BroadcastTester, TestCPUBroadcastTestSelectedRows) {
  TestBroadcastOpHandle test_op;
  test_op.InitCtxOnDevice(false);
  test_op.InitBroadcastOp(1);
  EXPECT_EQ(test_op.op_handle_->Name(), "broadcast");
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

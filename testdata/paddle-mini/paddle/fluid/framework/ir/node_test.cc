// paddle-mini: unit test of ir::Node wrappers (generic Wrapper<T> use).
#include "paddle/fluid/framework/ir/node.h"

#include "gtest/gtest.h"
#include "paddle/fluid/framework/var_desc.h"

namespace paddle {
namespace framework {
namespace ir {

class RunnableOp {
 public:
  explicit RunnableOp(Node *node) : node_(node) { node_->WrappedBy(this); }
  Node *node_;
};

TEST(NodeTest, Wrapper) {
  VarDesc var_desc("x");
  auto node = CreateNodeForTest(&var_desc);
  RunnableOp op(node.get());
  ASSERT_TRUE(node->IsWrappedBy<RunnableOp>());
  ASSERT_FALSE(node->IsWrappedBy<int>());
  EXPECT_EQ(&node->Wrapper<RunnableOp>(), &op);
}

TEST(NodeTest, WrapperOfInt) {
  VarDesc var_desc("y");
  auto node = CreateNodeForTest(&var_desc);
  int counter = 7;
  node->WrappedBy(&counter);
  EXPECT_EQ(node->Wrapper<int>(), 7);
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

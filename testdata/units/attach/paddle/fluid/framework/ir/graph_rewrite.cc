// A live graph rewrite, written for sunset's tests.
#include "paddle/fluid/framework/details/rpc_op_handle.h"

namespace paddle {
namespace framework {
namespace ir {
void RewriteGraph() {
  details::RPCOpHandle op;
  op.Run();
}
}  // namespace ir
}  // namespace framework
}  // namespace paddle

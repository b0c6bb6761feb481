// Written for sunset's tests.
#include "paddle/fluid/framework/details/rpc_op_handle.h"

namespace paddle {
namespace framework {
namespace details {
void RPCOpHandle::Run() {}
}  // namespace details
}  // namespace framework
}  // namespace paddle

#include "paddle/fluid/framework/parallel_executor.h"
#include <vector>
// ParallelExecutor in a comment
DEFINE_bool(enable_parallel_graph, false, "use ParallelSSAGraphExecutor");
PHI_DEFINE_EXPORTED_int32(pe_threads, 4, "threads");
namespace paddle {
namespace framework {
class ParallelExecutorPrivate : public details::OpHandleBase, private Base<int> {
 public:
  void Run() { auto s = "ThreadedSSAGraphExecutor"; }
};
}  // namespace framework
}  // namespace paddle
REGISTER_PASS(fuse_all_reduce_op_pass, paddle::framework::ir::FuseAllReduceOpPass);

// sunset test data: gflag definitions and pass registrations as Paddle writes them.
#include "paddle/common/flags.h"
#include "paddle/fluid/framework/ir/pass.h"

PHI_DEFINE_EXPORTED_bool(enable_parallel_graph, false,
                         "Run the graph on multiple threads (ParallelExecutor only).");
PD_DEFINE_int32(num_iteration_per_drop_scope, 100, "Iterations between scope drops.");
DEFINE_string(pe_profile_fname, "", "Profiler output of the legacy executor.");

namespace paddle {
namespace framework {
namespace ir {

class FuseAllReduceOpPass : public Pass {
 protected:
  void ApplyImpl(Graph *graph) const override;
};

}  // namespace ir
}  // namespace framework
}  // namespace paddle

REGISTER_PASS(fuse_all_reduce_op_pass, paddle::framework::ir::FuseAllReduceOpPass)
    .RequireGraphAttr(paddle::framework::details::kPlaces);
USE_PASS(multi_devices_pass);

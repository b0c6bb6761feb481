// paddle-mini: passes memory-optimization var infos into CINN subgraphs.
#include <algorithm>
#include <string>

#include "paddle/fluid/framework/details/computation_op_handle.h"
#include "paddle/fluid/framework/details/eager_deletion_op_handle.h"
#include "paddle/fluid/framework/ir/graph_helper.h"
#include "paddle/fluid/framework/ir/memory_optimize_pass/memory_optimization_var_info.h"
#include "paddle/fluid/framework/paddle2cinn/cinn_compiler.h"
#include "paddle/fluid/operators/cinn/cinn_launch_op.h"

namespace paddle {
namespace framework {
namespace ir {

static std::vector<details::ComputationOpHandle *> FindCinnLaunchOps(
    const std::vector<details::OpHandleBase *> &all_ops) {
  std::vector<details::ComputationOpHandle *> result;
  for (auto *op : all_ops) {
    auto *compute_op = dynamic_cast<details::ComputationOpHandle *>(op);
    if (compute_op && compute_op->GetOp()->Type() == "cinn_launch") {
      result.push_back(compute_op);
    }
  }
  return result;
}

class ShareMemOptInfoToSubGraphPass : public ir::Pass {
 protected:
  void ApplyImpl(ir::Graph *graph) const override {
    auto all_ops = ir::FilterByNodeWrapper<details::OpHandleBase>(*graph);
    const auto &infos = Get<MemOptVarInfoMapList>(kMemOptVarInfoMapList);
    for (auto *op : FindCinnLaunchOps(all_ops)) {
      VLOG(4) << "share " << infos.size() << " var infos into "
              << op->GetOp()->Type();
    }
  }
};

}  // namespace ir
}  // namespace framework
}  // namespace paddle

REGISTER_PASS(share_varinfo_into_cinn_pass,
              paddle::framework::ir::ShareMemOptInfoToSubGraphPass)
    .RequirePassAttr(paddle::framework::ir::kMemOptVarInfoMapList);

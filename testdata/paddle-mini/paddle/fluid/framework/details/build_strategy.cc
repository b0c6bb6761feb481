// paddle-mini: turns a BuildStrategy into an ordered pass list.
#include "paddle/fluid/framework/details/build_strategy.h"

#include "glog/logging.h"
#include "paddle/common/flags.h"
#include "paddle/fluid/framework/ir/graph_printer.h"

COMMON_DECLARE_bool(use_cinn);

namespace paddle {
namespace framework {
namespace details {

class ParallelExecutorPassBuilder : public ir::PassBuilder {
 public:
  explicit ParallelExecutorPassBuilder(const BuildStrategy &strategy)
      : ir::PassBuilder(), strategy_(strategy) {
#ifdef PADDLE_WITH_CINN
    if (FLAGS_use_cinn || strategy_.build_cinn_pass_) {
      AppendPass("build_cinn_pass");
    }
#endif
    AppendPassWithCheck(strategy_.enable_sequential_execution_,
                        "sequential_execution_pass");
    AppendPassWithCheck(strategy_.sync_batch_norm_, "sync_batch_norm_pass");
    AppendPassWithCheck(strategy_.fuse_elewise_add_act_ops_,
                        "fuse_elewise_add_act_pass");
    AppendPassWithCheck(strategy_.remove_unnecessary_lock_,
                        "modify_op_lock_and_record_event_pass");
    AppendMultiDevPass();
  }

  void AppendMultiDevPass() {
    ir::Pass *multi_devices_pass = nullptr;
    if (strategy_.async_mode_) {
      multi_devices_pass = AppendPass("async_multi_devices_pass").get();
    } else if (strategy_.is_distribution_) {
      multi_devices_pass = AppendPass("dist_multi_devices_pass").get();
    } else {
      multi_devices_pass =
          AppendPass("all_reduce_mode_multi_devices_pass").get();
    }
    multi_devices_pass->SetNotOwned<const BuildStrategy>("strategy",
                                                         &strategy_);
  }

 private:
  void AppendPassWithCheck(bool append, const std::string &name) {
    if (append) AppendPass(name);
  }

  BuildStrategy strategy_;
};

std::shared_ptr<ir::PassBuilder> BuildStrategy::CreatePassesFromStrategy(
    bool finalize_strategy) const {
  if (is_finalized_) return pass_builder_;
  pass_builder_.reset(new ParallelExecutorPassBuilder(*this));
  if (finalize_strategy) is_finalized_ = true;
  return pass_builder_;
}

ir::Graph *BuildStrategy::Apply(ir::Graph *graph,
                                const std::vector<platform::Place> &places,
                                const std::string &loss_var_name,
                                const std::vector<Scope *> &local_scopes,
                                const size_t &nranks,
                                platform::DeviceType use_device) const {
  CreatePassesFromStrategy(false);
  for (auto &pass : pass_builder_->AllPasses()) {
    VLOG(3) << "BuildStrategy::Apply pass " << pass->Type();
    if (pass->Type() == "fuse_elewise_add_act_pass" && enable_inplace_) {
      pass->Set<bool>("enable_inplace", new bool(true));
    }
    graph = pass->Apply(graph);
  }
  return graph;
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

USE_PASS(sync_batch_norm_pass);
USE_PASS(fuse_elewise_add_act_pass);
USE_PASS(sequential_execution_pass);
USE_PASS(modify_op_lock_and_record_event_pass);
USE_PASS(all_reduce_mode_multi_devices_pass);
USE_PASS(dist_multi_devices_pass);
#ifdef PADDLE_WITH_CINN
USE_PASS(build_cinn_pass);
#endif

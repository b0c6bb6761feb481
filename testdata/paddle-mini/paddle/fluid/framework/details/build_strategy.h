// paddle-mini: options that choose the graph passes of a CompiledProgram.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "paddle/fluid/framework/ir/pass_builder.h"
#include "paddle/fluid/platform/device_context.h"
#include "paddle/utils/optional.h"

namespace paddle {
namespace framework {
class Scope;
namespace details {

// BuildStrategy was written for ParallelExecutor; the passes it selects are
// now also applied by paddle.framework.ir.apply_build_strategy.
struct BuildStrategy {
  enum class ReduceStrategy { kAllReduce = 0, kReduce = 1, kNoReduce = 2 };
  enum class GradientScaleStrategy {
    kCoeffNumDevice = 0,
    kOne = 1,
    kCustomized = 2,
  };

  ReduceStrategy reduce_{ReduceStrategy::kAllReduce};
  GradientScaleStrategy gradient_scale_{GradientScaleStrategy::kCoeffNumDevice};
  std::string debug_graphviz_path_{""};

  bool enable_sequential_execution_{false};
  bool remove_unnecessary_lock_{true};
  bool fix_op_run_order_{false};
  bool is_distribution_{false};

  bool enable_inplace_{false};
  bool enable_addto_{false};
  paddle::optional<bool> memory_optimize_{paddle::none};
  bool fuse_elewise_add_act_ops_{false};
  bool fuse_bn_act_ops_{false};
  bool sync_batch_norm_{false};
  bool build_cinn_pass_{false};
  paddle::optional<bool> fuse_all_optimizer_ops_{false};
  paddle::optional<bool> fuse_all_reduce_ops_{paddle::none};

  int num_trainers_{1};
  int trainer_id_{0};
  std::vector<std::string> trainers_endpoints_;
  size_t nccl_comm_num_{1};
  bool async_mode_{false};

  bool IsFinalized() const { return is_finalized_; }

  std::shared_ptr<ir::PassBuilder> CreatePassesFromStrategy(
      bool finalize_strategy) const;

  ir::Graph *Apply(ir::Graph *graph,
                   const std::vector<platform::Place> &places,
                   const std::string &loss_var_name,
                   const std::vector<Scope *> &local_scopes,
                   const size_t &nranks,
                   platform::DeviceType use_device) const;

 private:
  mutable bool is_finalized_ = false;
  mutable std::shared_ptr<ir::PassBuilder> pass_builder_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle

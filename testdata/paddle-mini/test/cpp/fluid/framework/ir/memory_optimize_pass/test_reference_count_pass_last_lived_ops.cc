// paddle-mini: checks the last-lived ops found by reference_count_pass.
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "paddle/fluid/framework/details/multi_devices_helper.h"
#include "paddle/fluid/framework/ir/graph_helper.h"
#include "paddle/fluid/framework/ir/memory_optimize_pass/reference_count_pass_helper.h"
#include "paddle/fluid/framework/parallel_executor.h"
#include "paddle/fluid/framework/program_desc.h"

namespace paddle {
namespace framework {
namespace ir {

class ReferenceCountPassTestHelper {
 public:
  ReferenceCountPassTestHelper(const ProgramDesc &program, bool use_cuda)
      : graph_(program) {
    details::BuildStrategy build_strategy;
    build_strategy.enable_inplace_ = false;
    details::ExecutionStrategy exec_strategy;
    exec_strategy.use_device_ = use_cuda ? p::kCUDA : p::kCPU;
    executor_ = std::make_unique<ParallelExecutor>(
        CreatePlaces(1, use_cuda), std::vector<std::string>(), "", &scope_,
        std::vector<Scope *>(), exec_strategy, build_strategy, &graph_);
  }

  bool IsLastLivedOps(const std::string &name,
                      std::vector<std::string> ops) const {
    std::sort(ops.begin(), ops.end());
    return ops == LastLivedOps(name);
  }

 private:
  std::vector<std::string> LastLivedOps(const std::string &name) const;

  ir::Graph graph_;
  Scope scope_;
  std::unique_ptr<ParallelExecutor> executor_;
};

static ProgramDesc BuildProgram() {
  ProgramDesc program;
  auto *block = program.MutableBlock(0);
  block->Var("x0");
  block->Var("x1");
  auto *op = block->AppendOp();
  op->SetType("scale");
  op->SetInput("X", {"x0"});
  op->SetOutput("Out", {"x1"});
  return program;
}

TEST(test_reference_count_pass, test_no_need_buffer_var_shrink) {
  ReferenceCountPassTestHelper helper(BuildProgram(), false);
  ASSERT_TRUE(helper.IsLastLivedOps("x0", {"scale"}));
}

TEST(test_reference_count_pass_helper, test_skip_vars_parsing) {
  std::vector<std::string> skip_vars;
  details::AppendSkipDeletionVars({"x0"}, &skip_vars);
  EXPECT_EQ(skip_vars.size(), 1UL);
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

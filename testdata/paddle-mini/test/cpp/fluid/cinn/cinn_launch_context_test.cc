// paddle-mini: CinnLaunchContext tests.
#include "paddle/fluid/operators/cinn/cinn_launch_context.h"

#include <memory>
#include <set>

#include "gtest/gtest.h"
#include "paddle/fluid/framework/ir/graph.h"
#include "paddle/fluid/framework/parallel_executor.h"
#include "paddle/fluid/framework/program_desc.h"

PD_DECLARE_bool(enable_pe_launch_cinn);

namespace paddle {
namespace operators {
namespace details {

std::unique_ptr<CinnLaunchContext> CreateDefaultLaunchContext() {
  framework::ProgramDesc program;
  program.MutableBlock(0)->Var("var1");
  framework::ir::Graph graph(program);
  return std::make_unique<CinnLaunchContext>(graph);
}

class CinnLaunchContextTest : public ::testing::Test {
 public:
  std::unique_ptr<CinnLaunchContext> launch_context;
  void SetUp() override { launch_context = CreateDefaultLaunchContext(); }
};

TEST_F(CinnLaunchContextTest, TestBuildCompiledProgram) {
  platform::CPUPlace place;
  framework::Scope scope;
  FLAGS_enable_pe_launch_cinn = true;
  framework::ParallelExecutor* pe = nullptr;
  ASSERT_NO_THROW((pe = launch_context->InitializePE(place, &scope)));
  ASSERT_NE(pe, nullptr);
  EXPECT_TRUE(launch_context->GetSkipEagerVars().empty());
}

TEST_F(CinnLaunchContextTest, TestInterpreterCore) {
  platform::CPUPlace place;
  framework::Scope scope;
  auto* core = launch_context->InitializeInterpreterCore(place, &scope);
  ASSERT_NE(core, nullptr);
}

}  // namespace details
}  // namespace operators
}  // namespace paddle

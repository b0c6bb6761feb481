// The ParallelExecutor is still in this tree (as on 2024-05-09): rules whose subject is its
// executor path, such as run_program's executor_cache dependency, still apply.
#pragma once

namespace paddle {
namespace framework {

class ParallelExecutor;

}  // namespace framework
}  // namespace paddle

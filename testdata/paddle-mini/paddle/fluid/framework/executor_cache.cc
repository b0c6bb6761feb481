// paddle-mini: executor_cache implementation (trimmed).
#include "paddle/fluid/framework/executor_cache.h"

#include "paddle/fluid/framework/new_executor/interpretercore.h"
#include "paddle/fluid/framework/op_info.h"

namespace paddle {
namespace framework {

namespace details {

static ExecutionStrategy GetExecutionStrategy(const platform::Place &place) {
  framework::ExecutionStrategy execution_strategy;
  execution_strategy.num_threads_ = 2;
  execution_strategy.use_device_ = platform::is_gpu_place(place)
                                       ? platform::DeviceType::CUDA
                                       : platform::DeviceType::CPU;
  return execution_strategy;
}

}  // namespace details

ExecutorInfoCache &ExecutorInfoCache::Instance() {
  static ExecutorInfoCache g_exe_cache_info_map;
  return g_exe_cache_info_map;
}

static PEAndGraphPair CreateExecutorInfo(const ProgramDesc &program_desc,
                                         const platform::Place &place,
                                         framework::Scope *scope,
                                         const BuildStrategy &build_strategy) {
  auto execution_strategy = details::GetExecutionStrategy(place);
  auto graph = std::make_shared<ir::Graph>(program_desc);
  auto pe = std::make_shared<ParallelExecutor>(
      place, scope, execution_strategy, build_strategy, graph.get());
  return std::make_pair(pe, graph);
}

PEAndGraphPair CreateFixOrderExecutorInfo(const ProgramDesc &program_desc,
                                          const platform::Place &place,
                                          framework::Scope *scope) {
  details::BuildStrategy build_strategy;
  build_strategy.fix_op_run_order_ = true;
  return CreateExecutorInfo(program_desc, place, scope, build_strategy);
}

InterpreterCoreInfoCache &InterpreterCoreInfoCache::Instance() {
  static InterpreterCoreInfoCache g_info_cache;
  return g_info_cache;
}

std::shared_ptr<InterpreterCore> CreateProgramInterpreterCoreInfoToCache(
    const ProgramDesc &program_desc,
    const platform::Place &place,
    bool is_grad,
    int64_t program_id,
    framework::Scope *scope) {
  auto &cache = framework::InterpreterCoreInfoCache::Instance();
  interpreter::ExecutionConfig execution_config;
  execution_config.create_local_scope = false;
  auto core = std::make_shared<InterpreterCore>(
      place, program_desc.Block(0), scope, execution_config);
  cache.GetMutable(program_id, is_grad).core_ = core;
  return core;
}

}  // namespace framework
}  // namespace paddle

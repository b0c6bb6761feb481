// paddle-mini: eager run_program node; runs sub-programs with InterpreterCore.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "paddle/fluid/eager/tensor_wrapper.h"
#include "paddle/fluid/framework/executor_cache.h"
#include "paddle/fluid/framework/new_executor/interpretercore.h"

namespace details {
using Tensor = paddle::Tensor;

static void ShareTensorsIntoScope(const std::vector<Tensor> &tensors,
                                  paddle::framework::Scope *scope) {
  for (const auto &t : tensors) {
    auto *var = scope->Var(t.name());
    *var->GetMutable<phi::DenseTensor>() =
        *std::dynamic_pointer_cast<phi::DenseTensor>(t.impl());
  }
}

}  // namespace details

inline void RunProgramAPI(const std::vector<paddle::Tensor> &x,
                          paddle::framework::Scope *scope,
                          const paddle::framework::ProgramDesc &program,
                          int64_t program_id,
                          const paddle::platform::Place &place) {
  details::ShareTensorsIntoScope(x, scope);
  auto &cache = paddle::framework::InterpreterCoreInfoCache::Instance();
  std::shared_ptr<paddle::framework::InterpreterCore> interpreter_core;
  if (!cache.Has(program_id, /*is_grad=*/false)) {
    interpreter_core =
        paddle::framework::CreateProgramInterpreterCoreInfoToCache(
            program, place, /*is_grad=*/false, program_id, scope);
  } else {
    interpreter_core = cache.GetMutable(program_id, false).core_;
  }
  interpreter_core->Run({});
}

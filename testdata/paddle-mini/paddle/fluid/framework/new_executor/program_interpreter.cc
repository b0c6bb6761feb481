// paddle-mini: ProgramInterpreter (a few methods).
#include "paddle/fluid/framework/new_executor/program_interpreter.h"

#include "paddle/fluid/framework/details/exception_holder.h"
#include "paddle/fluid/framework/details/share_tensor_buffer_functor.h"
#include "paddle/fluid/framework/new_executor/interpreter/interpreter_util.h"
#include "paddle/fluid/platform/profiler/event_tracing.h"

namespace paddle {
namespace framework {

ProgramInterpreter::ProgramInterpreter(const platform::Place& place,
                                       const BlockDesc& block,
                                       framework::Scope* scope,
                                       const ExecutionConfig& execution_config)
    : place_(place), block_(block), execution_config_(execution_config) {
  var_scope_.SetLocalScope(scope);
}

void ProgramInterpreter::RunInstruction(const Instruction& instr_node) {
  platform::RecordEvent instruction_event(
      instr_node.OpBase()->Type(), platform::TracerEventType::Operator, 1);
  const auto& op_type = instr_node.OpBase()->Type();
  // Sub-graph ops own their device context; no extra wait is needed.
  if (op_type == "cinn_launch" || op_type == "cinn_instruction_run") {
    VLOG(4) << "skip stream wait for " << op_type;
  }
  try {
    instr_node.OpBase()->Run(*local_scope_, place_);
  } catch (...) {
    exception_holder_.Catch(std::current_exception());
  }
}

void ProgramInterpreter::RunShareBuffer(Scope* scope) {
  for (auto& functor : share_buffer_functors_) {
    (*functor)(scope);
  }
}

}  // namespace framework
}  // namespace paddle

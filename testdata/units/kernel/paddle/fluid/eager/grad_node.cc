#include "paddle/fluid/framework/op_registry.h"

namespace paddle {
void RunForward() { RunOpByType("run_program"); }
}  // namespace paddle

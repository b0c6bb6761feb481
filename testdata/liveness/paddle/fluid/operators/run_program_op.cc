#include "paddle/fluid/framework/executor_cache.h"

namespace ops = paddle::operators;
REGISTER_OPERATOR(run_program, ops::RunProgramOp, ops::RunProgramOpMaker);

#include "paddle/fluid/operators/run_program_op.h"

namespace ops = paddle::operators;
PD_REGISTER_STRUCT_KERNEL(
    run_program, GPU, ALL_LAYOUT, ops::RunProgramOpKernel, float) {}
PD_REGISTER_STRUCT_KERNEL(
    run_program_grad, GPU, ALL_LAYOUT, ops::RunProgramGradOpKernel, float) {}

// paddle-mini: binding entry for CompiledProgram's executor classes.
#pragma once

#include <pybind11/pybind11.h>

namespace paddle {
namespace pybind {

void BindParallelExecutor(pybind11::module &m);  // NOLINT

}  // namespace pybind
}  // namespace paddle

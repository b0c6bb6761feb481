// The module's entry point, written for sunset's tests.
#include "paddle/fluid/pybind/parallel_executor.h"

namespace paddle {
namespace pybind {
PYBIND11_MODULE(libpaddle, m) { BindExecutor(m); }
}  // namespace pybind
}  // namespace paddle

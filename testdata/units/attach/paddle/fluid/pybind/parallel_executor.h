// Bindings written for sunset's tests.
#pragma once

#include "pybind11/pybind11.h"

namespace paddle {
namespace pybind {
void BindExecutor(pybind11::module &m);  // NOLINT
}  // namespace pybind
}  // namespace paddle

// Bindings written for sunset's tests.
#include "paddle/fluid/pybind/parallel_executor.h"

namespace paddle {
namespace pybind {

void BindExecutor(pybind11::module &m) {  // NOLINT
  py::class_<framework::ParallelExecutor> pe(m, "ParallelExecutor");

  pe.def(py::init<const std::vector<platform::Place> &,
                  const std::vector<std::string> &,
                  Scope *,
                  ir::Graph *>())
      // NOTE: the local scopes are handed to Python one by one,
      // each marked as a reference.
      .def(
          "local_scopes",
          [](framework::ParallelExecutor &self) -> std::vector<Scope *> * {
            return &self.GetLocalScopes();
          },
          py::return_value_policy::reference)
      .def("drop_local_exe_scopes",
           &framework::ParallelExecutor::DropLocalExeScopes)
      .def("device_count", &framework::ParallelExecutor::DeviceCount);
}

}  // namespace pybind
}  // namespace paddle

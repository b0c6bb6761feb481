// paddle-mini: Python bindings of Place types.
#include "paddle/fluid/pybind/place.h"

#include "paddle/fluid/framework/parallel_executor.h"
#include "paddle/fluid/platform/place.h"

namespace py = pybind11;

namespace paddle {
namespace pybind {

void BindPlace(pybind11::module &m) {  // NOLINT
  py::class_<phi::CPUPlace>(m, "CPUPlace")
      .def(py::init<>())
      .def("__str__", string::to_string<const phi::CPUPlace &>);

  py::class_<phi::GPUPlace>(m, "CUDAPlace")
      .def(py::init<int>())
      .def("get_device_id", &phi::GPUPlace::GetDeviceId)
      .def("__str__", string::to_string<const phi::GPUPlace &>);

  py::class_<platform::Place>(m, "Place")
      .def(py::init<>())
      .def("set_place",
           [](platform::Place &self, const platform::Place &other) {
             self = other;
           });
}

}  // namespace pybind
}  // namespace paddle

// paddle-mini: the libpaddle module (a few bindings only).
#include <string>
#include <vector>

#include "paddle/fluid/distributed/fleet_executor/fleet_executor.h"
#include "paddle/fluid/framework/executor.h"
#include "paddle/fluid/framework/executor_cache.h"
#include "paddle/fluid/framework/naive_executor.h"
#include "paddle/fluid/framework/new_executor/standalone_executor.h"
#include "paddle/fluid/framework/parallel_executor.h"
#include "paddle/fluid/pybind/parallel_executor.h"
#include "paddle/fluid/pybind/place.h"
#include "pybind11/pybind11.h"

DECLARE_FILE_SYMBOLS(gather_op_handle);

namespace paddle {
namespace pybind {

namespace py = pybind11;

PYBIND11_MODULE(libpaddle, m) {
  BindPlace(m);

  py::class_<framework::Executor>(m, "Executor")
      .def(py::init<const platform::Place &>())
      .def("close", &framework::Executor::Close);

  py::class_<framework::NaiveExecutor>(m, "NaiveExecutor")
      .def(py::init<const platform::Place &>())
      .def("run", &framework::NaiveExecutor::Run);

  py::class_<framework::StandaloneExecutor>(m, "StandaloneExecutor")
      .def(py::init<const platform::Place &,
                    const framework::interpreter::Plan &,
                    framework::Scope *>())
      .def("run", &framework::StandaloneExecutor::Run);

  py::class_<distributed::FleetExecutor>(m, "FleetExecutor")
      .def(py::init<const std::string &>())
      .def("run", &distributed::FleetExecutor::Run);

  m.def("clear_executor_cache", []() {
    pybind11::gil_scoped_release release;
    framework::ExecutorInfoCache::Instance().Finalize();
    framework::InterpreterCoreInfoCache::Instance().Finalize();
  });

  BindParallelExecutor(m);
}

}  // namespace pybind
}  // namespace paddle

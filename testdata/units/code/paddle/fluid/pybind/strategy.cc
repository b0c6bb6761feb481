#include "paddle/fluid/framework/details/build_strategy.h"
#include "paddle/fluid/framework/details/execution_strategy.h"
#include "pybind11/pybind11.h"

namespace py = pybind11;

namespace paddle {
namespace pybind {

using paddle::framework::details::BuildStrategy;
using paddle::framework::details::ExecutionStrategy;

void BindStrategies(py::module &m) {
  py::class_<BuildStrategy> build_strategy(m, "BuildStrategy");
  build_strategy.def(py::init())
      .def_property(
          "debug_graphviz_path",
          [](const BuildStrategy &self) { return self.debug_graphviz_path_; },
          [](BuildStrategy &self, const std::string &path) {
            self.debug_graphviz_path_ = path;
          })
      .def_property(
          "enable_sequential_execution",
          [](const BuildStrategy &self) {
            return self.enable_sequential_execution_;
          },
          [](BuildStrategy &self, bool b) {
            PADDLE_ENFORCE_NE(self.IsFinalized(),
                              true,
                              platform::errors::PreconditionNotMet(
                                  "BuildStrategy has been finalized."));
            self.enable_sequential_execution_ = b;
          },
          R"DOC((bool, optional): If set True, ParallelExecutor runs ops in order.
                Default is False.)DOC");
}

}  // namespace pybind
}  // namespace paddle

#include "paddle/fluid/framework/details/build_strategy.h"
#include "pybind11/pybind11.h"

namespace paddle {
namespace pybind {

void BindBuildStrategy(py::module *m) {
  py::class_<BuildStrategy> build_strategy(*m, "BuildStrategy");
  build_strategy.def(py::init())
      .def_property(
          "remove_unnecessary_lock",
          [](const BuildStrategy &self) {
            return self.remove_unnecessary_lock_;
          },
          [](BuildStrategy &self, bool b) { self.remove_unnecessary_lock_ = b; },
          R"DOC((bool, optional): If set True, some locks are dropped.
                Default is True.

                Examples:
                    .. code-block:: python

                        >>> import paddle.static as static
                        >>> build_strategy = static.BuildStrategy()
                        >>> build_strategy.remove_unnecessary_lock = True
                        >>> # the ParallelExecutor then runs without them
          )DOC")
      .def_property(
          "debug_graphviz_path",
          [](const BuildStrategy &self) { return self.debug_graphviz_path_; },
          [](BuildStrategy &self, const std::string &path) {
            self.debug_graphviz_path_ = path;
          },
          R"DOC((str, optional): where the graph is written.)DOC");
}

}  // namespace pybind
}  // namespace paddle

#include "paddle/fluid/pybind/pybind.h"

namespace paddle {
namespace pybind {
void BindStrategy(py::module *m, py::class_<BuildStrategy> bs) {
  py::enum_<BuildStrategy::GradientScaleStrategy>(bs,
                                                  "GradientScaleStrategy")
      .value("One", BuildStrategy::GradientScaleStrategy::kOne);
  bs.def_property("gradient_scale_strategy", &Get, &Set,
                  R"DOC(How the loss gradient is scaled.)DOC");
  if (name == "ParallelExecutor") VLOG(3) << "legacy " "executor";
  attrs["use_" "cuda"] = true;
}
}  // namespace pybind
}  // namespace paddle

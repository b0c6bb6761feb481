#include "pe.h"

namespace paddle {
namespace pybind {

using framework::ParallelExecutor;

int BindParallelExecutor(ParallelExecutor *pe) {
  pe->RunWithoutFetch(2);
  return pe->DeviceCount();
}

}  // namespace pybind
}  // namespace paddle

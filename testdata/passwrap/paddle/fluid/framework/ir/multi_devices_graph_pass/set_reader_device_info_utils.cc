#include "paddle/fluid/framework/ir/multi_devices_graph_pass/set_reader_device_info_utils.h"

namespace paddle {
namespace framework {
namespace ir {

void SetReaderDeviceCount(Graph *graph, int device_count) {
  (void)graph;
  (void)device_count;
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

#pragma once

#include <vector>

namespace paddle {
namespace framework {
namespace ir {

class Graph;

struct ReaderDeviceSlot {
  int device_id;
};

void SetReaderDeviceCount(Graph *graph, int device_count);

}  // namespace ir
}  // namespace framework
}  // namespace paddle

// paddle-mini: interface of the executors that run a multi-device SSA graph.
#pragma once
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/fetch_op_handle.h"
#include "paddle/fluid/framework/feed_fetch_type.h"
#include "paddle/fluid/framework/ir/graph.h"

namespace paddle {
namespace framework {
namespace details {

class SSAGraphExecutor {
  DISABLE_COPY_AND_ASSIGN(SSAGraphExecutor);

 public:
  SSAGraphExecutor() = default;
  virtual ~SSAGraphExecutor();

  virtual const ir::Graph &Graph() const = 0;

  virtual FetchResultType Run(const std::vector<std::string> &fetch_tensors,
                              bool return_merged = true) = 0;
};

// Removes the FetchOpHandles that Run() appended to the graph.
void ClearFetchOp(ir::Graph *graph, std::vector<OpHandleBase *> *fetch_ops);

}  // namespace details
}  // namespace framework
}  // namespace paddle

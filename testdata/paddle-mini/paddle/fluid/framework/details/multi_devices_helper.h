// paddle-mini: graph attribute names shared by the graph passes.
#pragma once
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "paddle/fluid/framework/details/op_handle_base.h"
#include "paddle/fluid/framework/details/scope_buffered_ssa_graph_executor.h"
#include "paddle/fluid/framework/details/var_handle.h"
#include "paddle/fluid/framework/ir/graph.h"
#include "paddle/fluid/framework/op_proto_maker.h"

namespace paddle {
namespace framework {
namespace details {

// Per device: variable name -> every SSA version of that variable.
typedef std::vector<std::unordered_map<std::string, std::vector<VarHandle *>>>
    GraphVars;
constexpr char kGraphVars[] = "vars";

// Dummy variables that only carry a dependency.
typedef std::unordered_set<VarHandleBase *> GraphDepVars;
constexpr char kGraphDepVars[] = "dep_vars";

constexpr char kPlaces[] = "places";
constexpr char kLocalScopes[] = "local_scopes";

typedef std::unordered_map<std::string, details::VariableInfo> FusedVars;
constexpr char kFusedVars[] = "fused_vars";

typedef std::vector<std::string> FusedGrads;
constexpr char kFusedGrads[] = "fused_gradients";

typedef std::vector<std::pair<std::string, std::string>> ParamsAndGrads;
constexpr char kParamsAndDenseGrads[] = "params_and_dense_grads";

inline bool IsOpRole(const OpDesc &op, OpRole role) {
  const auto &attrs = op.GetAttrMap();
  auto iter = attrs.find(OpProtoAndCheckerMaker::OpRoleAttrName());
  if (iter == attrs.end()) return false;
  return static_cast<bool>(PADDLE_GET_CONST(int, iter->second) &
                           static_cast<int>(role));
}

bool IsDataParallelInferenceGraph(const ir::Graph &graph);

std::vector<std::unique_ptr<ir::Graph>> TrySeparateToMultipleSingleDeviceGraphs(
    ir::Graph *graph);

}  // namespace details
}  // namespace framework
}  // namespace paddle

// paddle-mini: drops local execution sub-scopes that grow too large.
#include "paddle/fluid/framework/details/scope_buffered_monitor.h"

#include "paddle/common/flags.h"

COMMON_DECLARE_double(local_exe_sub_scope_limit);

namespace paddle {
namespace framework {
namespace details {

static constexpr double kMB = 1.0 / (1024.0 * 1024.0);

static size_t KidsMemoryBytes(const Scope *scope) {
  size_t total = 0;
  for (auto *kid : scope->kids()) {
    total += KidsMemoryBytes(kid) + kid->LocalVarNames().size();
  }
  return total;
}

void ScopeBufferedMonitor::Apply(const std::function<void()> &callback,
                                 bool has_fetch) {
  callback();
  if (FLAGS_local_exe_sub_scope_limit <= 0.0) return;

  size_t bytes = 0;
  for (auto *scope : local_exec_scopes_) bytes += KidsMemoryBytes(scope);
  if (bytes * kMB > FLAGS_local_exe_sub_scope_limit) {
    VLOG(1) << "sub-scopes hold " << bytes * kMB << " MB, more than "
            << FLAGS_local_exe_sub_scope_limit << " MB; dropping them";
    ClearHistoryLocalExecScopes();
  }
}

void ScopeBufferedMonitor::ClearHistoryLocalExecScopes() {
  history_local_exec_scopes_.clear();
}

}  // namespace details
}  // namespace framework
}  // namespace paddle

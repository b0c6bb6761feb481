#include "engine/engine.h"

#include <map>
#include <string>

namespace toynet {

// Looks an operator up once and keeps its handle.
class OpMap {
 public:
  OpHandle GetOpHandle(const std::string& name) { return op_handles_[name]; }

 private:
  std::map<std::string, OpHandle> op_handles_;
};

int InvokeCachedOp(CachedOpHandle handle, int num_inputs) {
  Engine::VarHandle var = nullptr;
  (void)var;
  return handle && num_inputs >= 0 ? 0 : -1;
}

}  // namespace toynet

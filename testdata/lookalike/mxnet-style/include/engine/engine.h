/*
 * A dependency engine: operations declare the variables they read and write, and the
 * engine runs them when those are ready.
 */
#ifndef TOY_ENGINE_ENGINE_H_
#define TOY_ENGINE_ENGINE_H_

#include <functional>
#include <vector>

namespace toynet {
namespace engine {

struct Var;
struct Opr;
/*! \brief a variable the engine tracks */
typedef Var* VarHandle;
/*! \brief an operation pushed to the engine */
typedef Opr* OprHandle;

}  // namespace engine

typedef void* OpHandle;        /* an operator of the registry, as the C API sees it */
typedef void* CachedOpHandle;  /* a graph compiled once and run many times */

class Engine {
 public:
  typedef engine::VarHandle VarHandle;
  virtual VarHandle NewVariable() = 0;
  virtual void PushAsync(std::function<void()> fn, std::vector<VarHandle> const& reads,
                         std::vector<VarHandle> const& writes) = 0;
  virtual void WaitForVar(VarHandle var) = 0;
  virtual ~Engine() {}
};

}  // namespace toynet

#endif  // TOY_ENGINE_ENGINE_H_

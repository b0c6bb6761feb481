// One frame of the game: the paddle moves, the executor runs the physics jobs.
#include "engine/parallel_executor.h"

struct Paddle {
  int y;
};

void Step(Paddle &paddle, ParallelExecutor *exec) {
  paddle.y += 1;
  exec->Run();
}

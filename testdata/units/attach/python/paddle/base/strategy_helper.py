# A helper written for sunset's tests: it builds the ExecutionStrategy the
# old compiler used (this file header is not attached to any code).

from paddle.base import core


def configure(places):
    exec_strategy = core.ExecutionStrategy()
    # The default ExecutionStrategy runs one thread per place;
    # change it in set_customed_config.
    exec_strategy.num_threads = len(places)
    return exec_strategy


def threads(places, use_cuda):
    exec_strategy = core.ExecutionStrategy()
    count = 0
    if exec_strategy.num_threads == 0:
        if use_cuda:
            # too many threads hurt performance
            exec_strategy.num_threads = len(places) * 4
        else:
            exec_strategy.num_threads = len(places) * 2
    if use_cuda:
        count = len(places)
    else:
        exec_strategy.num_threads = 1
    return count

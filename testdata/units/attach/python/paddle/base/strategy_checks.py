# Checks of the strategy helpers, written for sunset's tests: a legacy value is
# checked by the statement below it, or its message checks something else.

from paddle.base import core


def checked(places):
    exec_strategy = core.ExecutionStrategy()
    if exec_strategy is None:
        raise ValueError("no ExecutionStrategy was built")
    return exec_strategy


def graph_of(program):
    graph = program._graph_for_parallel_executor()

    # the graph is built once per program
    assert graph is not None, "the ParallelExecutor built no graph"
    return graph


def counted(program):
    graph = program._graph_for_parallel_executor()
    assert program.blocks, "a ParallelExecutor program has blocks"
    return graph


def later(program):
    graph = program._graph_for_parallel_executor()
    count = len(program.blocks)
    if graph is None:
        raise ValueError("the ParallelExecutor built no graph")
    return graph, count

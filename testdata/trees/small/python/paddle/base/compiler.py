# Compiles a program for the executor.
from . import core

ExecutionStrategy = core.ParallelExecutor.ExecutionStrategy


class CompiledProgram:
    """Wraps a program. The StandaloneExecutor runs it."""

    def __init__(self, program, build_strategy=None):
        self._program = program
        self._exec_strategy = None
        self._build_strategy = build_strategy

    def _compile_data_parallel(self, places):
        # ParallelExecutor still compiles the graph here
        self._exec_strategy.num_threads = 1
        return core.ParallelExecutor(places, self._exec_strategy)

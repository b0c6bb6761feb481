# paddle-mini: CompiledProgram (trimmed).
import sys
import warnings

from . import core, framework

__all__ = []

ExecutionStrategy = core.ParallelExecutor.ExecutionStrategy
BuildStrategy = core.ParallelExecutor.BuildStrategy
DeviceType = core.DeviceType


def _place_obj(place):
    p = core.Place()
    p.set_place(place)
    return p


def _is_pserver_mode(main_program):
    main = main_program if main_program else framework.default_main_program()
    return any(op.type in ("send", "recv") for op in main.global_block().ops)


class CompiledProgram:
    """
    Turns a Program into a graph and applies the passes chosen by a
    BuildStrategy, e.g. operator fusion or in-place memory reuse.
    """

    def __init__(self, program_or_graph, build_strategy=None):
        if isinstance(program_or_graph, core.Graph):
            self._graph = program_or_graph
            self._program = None
        else:
            self._graph = core.Graph(program_or_graph.desc)
            self._program = program_or_graph
        self._scope = None
        self._place = None
        self._executor = None
        self._compiled = False
        self._share_vars_from = None
        self._build_strategy = build_strategy
        self._exec_strategy = None

    def _compile_data_parallel(self, places, use_device, scope=None):
        if self._share_vars_from:
            if scope:
                sys.stderr.write("scope ignored: variables come from _share_vars_from\n")
            self._local_scopes = self._share_vars_from._executor.local_scopes()
        else:
            self._local_scopes = []

        if self._build_strategy is None:
            self._build_strategy = BuildStrategy()
        if _is_pserver_mode(self._program):
            self._build_strategy.is_distribution = True

        if self._exec_strategy is None:
            self._exec_strategy = ExecutionStrategy()
        self._exec_strategy._use_device = use_device
        if self._exec_strategy.num_threads == 0:
            self._exec_strategy.num_threads = len(places) * 2

        if core.globals().get("FLAGS_use_cinn", False):
            warnings.warn("With CINN enabled each process runs one thread.")
            self._exec_strategy.num_threads = 1

        if self._build_strategy.sync_batch_norm:
            self._build_strategy.enable_sequential_execution = True
        if self._program is not None:
            self._build_strategy.nccl_comm_num = self._program._nccl_comm_num

        self._persistable_vars = sorted(
            n.name() for n in self._graph.nodes() if n.is_var() and n.var()
        )
        places = list(map(_place_obj, places))
        return core.ParallelExecutor(
            places,
            self._persistable_vars,
            '',
            self._scope,
            self._local_scopes,
            self._exec_strategy,
            self._build_strategy,
            self._graph,
        )

    def _compile(self, scope, place):
        if self._compiled:
            return self
        self._scope = scope
        self._place = place
        use_device = DeviceType.CUDA if core.is_compiled_with_cuda() else DeviceType.CPU
        self._executor = self._compile_data_parallel(
            use_device=use_device, scope=self._scope, places=[self._place]
        )
        self._compiled = True
        return self

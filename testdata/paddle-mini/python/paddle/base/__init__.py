# paddle-mini: paddle.base package init (trimmed).
import os
import sys

from . import core, framework, executor, compiler  # noqa: F401
from .compiler import (  # noqa: F401
    CompiledProgram,
    ExecutionStrategy,
    BuildStrategy,
)
from .data_feed_desc import DataFeedDesc  # noqa: F401
from .executor import Executor, global_scope, scope_guard  # noqa: F401
from .framework import Program, program_guard  # noqa: F401

__all__ = [
    'Program',
    'Executor',
    'CompiledProgram',
    'ExecutionStrategy',
    'BuildStrategy',
    'DataFeedDesc',
]


def __bootstrap__():
    if os.name == 'nt':
        num_threads = 1
    else:
        num_threads = int(os.getenv('OMP_NUM_THREADS', '1'))
    if num_threads > 1:
        sys.stderr.write(f"WARNING: OMP_NUM_THREADS set to {num_threads}\n")
    core.set_num_threads(num_threads)
    core.init_gflags(["--tryfromenv=check_nan_inf,sync_nccl_allreduce"])


__bootstrap__()

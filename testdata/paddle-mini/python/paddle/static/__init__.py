# paddle-mini: paddle.static namespace (trimmed).
from ..base.compiler import (  # noqa: F401
    BuildStrategy,
    CompiledProgram,
    ExecutionStrategy,
)
from ..base.executor import Executor, global_scope, scope_guard  # noqa: F401
from ..base.framework import (  # noqa: F401
    Program,
    default_main_program,
    default_startup_program,
    program_guard,
)
from .io import load_inference_model, save_inference_model  # noqa: F401

__all__ = [
    'Program',
    'program_guard',
    'Executor',
    'global_scope',
    'scope_guard',
    'BuildStrategy',
    'CompiledProgram',
    'ExecutionStrategy',
    'default_main_program',
    'default_startup_program',
    'save_inference_model',
    'load_inference_model',
]

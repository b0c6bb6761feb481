from ..base.compiler import (
    BuildStrategy,
    CompiledProgram,
    ExecutionStrategy,
    IpuStrategy,
)
from ..base.executor import Executor

__all__ = [
    'BuildStrategy',
    'CompiledProgram',
    'Executor',
]

"""Global switches of the algorithm chooser."""
from enum import Enum

from ..core import _config


class ExecutionStrategy(Enum):
    """How the chooser picks a convolution algorithm: by heuristic, or by profiling them."""
    HEURISTIC = 1
    PROFILE = 2
    REPRODUCIBLE = 4


def get_execution_strategy() -> ExecutionStrategy:
    """Returns the strategy of the algorithm chooser."""
    return ExecutionStrategy(_config.get_option("execution_strategy"))


def set_execution_strategy(option):
    """Sets it: an ExecutionStrategy or its name, e.g. "PROFILE"."""
    if isinstance(option, str):
        option = ExecutionStrategy[option]
    _config.set_option("execution_strategy", option.value)

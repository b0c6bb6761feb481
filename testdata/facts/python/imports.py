# sunset test data: the import forms the index records, and which bound names are used
# (a name under three characters, os, np or a star import's *, is not recorded and
# counts as used).
import os
import numpy as np
import paddle.base.core as core
from paddle.base import compiler
from paddle.base.executor import (
    Executor,
    global_scope as gscope,
)
from .parallel_executor_test_base import *
from ..legacy import ParallelExecutor, ExecutionStrategy  # only one is used


def build(places):
    strategy = compiler.BuildStrategy()
    exe = ParallelExecutor(use_cuda=True, loss_name="loss", build_strategy=strategy)
    return exe, np.zeros(len(places))

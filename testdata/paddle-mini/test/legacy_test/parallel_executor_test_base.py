# paddle-mini: shared base of the CompiledProgram convergence tests.
import unittest

import numpy as np

import paddle
from paddle import base
from paddle.base import compiler, core

__all__ = ['TestParallelExecutorBase']
DeviceType = core.DeviceType


class TestParallelExecutorBase(unittest.TestCase):
    @classmethod
    def check_network_convergence(
        cls,
        method,
        use_device=DeviceType.CUDA,
        iter=5,
        batch_size=None,
        feed_dict=None,
        use_parallel_executor=True,
        use_reduce=False,
        enable_inplace=True,
        fuse_elewise_add_act_ops=False,
        optimizer=paddle.optimizer.Adam,
        enable_sequential_execution=False,
    ):
        paddle.seed(0)
        main = base.Program()
        startup = base.Program()
        with base.program_guard(main, startup):
            loss = method(use_feed=feed_dict is not None)
            optimizer().minimize(loss)

        place = base.CUDAPlace(0) if use_device == DeviceType.CUDA else base.CPUPlace()
        exe = base.Executor(place)
        exe.run(startup)

        build_strategy, exec_strategy = cls.set_strategy(
            enable_inplace, fuse_elewise_add_act_ops, enable_sequential_execution
        )
        binary = compiler.CompiledProgram(main, build_strategy=build_strategy)
        binary._exec_strategy = exec_strategy
        if not use_parallel_executor:
            binary = main

        losses = []
        for _ in range(iter):
            (l,) = exe.run(binary, feed=feed_dict, fetch_list=[loss.name])
            losses.append(float(np.mean(l)))
        return losses[0], losses[-1], sum(losses)

    @classmethod
    def set_strategy(cls, enable_inplace, fuse_ops, enable_sequential_execution):
        build_strategy = base.BuildStrategy()
        build_strategy.enable_inplace = enable_inplace
        build_strategy.fuse_elewise_add_act_ops = fuse_ops
        build_strategy.enable_sequential_execution = enable_sequential_execution
        exec_strategy = base.ExecutionStrategy()
        exec_strategy.num_threads = 1
        return build_strategy, exec_strategy

# paddle-mini: StandaloneExecutor tests (statistics and feed switching).
import json
import os
import tempfile
import unittest

import numpy as np

import paddle
from paddle.base import core
from paddle.profiler import profiler

paddle.enable_static()


def build_program():
    main_program = paddle.static.Program()
    startup_program = paddle.static.Program()
    with paddle.static.program_guard(main_program, startup_program):
        a = paddle.static.data(name="a", shape=[2, 2], dtype='float32')
        b = paddle.ones([2, 2]) * 2
        c = paddle.matmul(a, b)
        d = paddle.nn.functional.relu(c)
    return main_program, startup_program, [d]


class ExecutorStatisticsTestCase(unittest.TestCase):
    def setUp(self):
        self.iter_n = 3
        self.place = paddle.CPUPlace()
        self.perf_path = os.path.join(tempfile.mkdtemp(), 'perfstat')

    def test_parallel_executor_statistics(self):
        self.run_with_statistics(executor='ParallelExecutor')

    def test_executor_statistics(self):
        self.run_with_statistics(executor='Executor')

    def test_standalone_executor_statistics(self):
        self.run_with_statistics(executor='StandaloneExecutor')

    def run_with_statistics(self, executor=None):
        main_program, startup_program, fetch_list = build_program()
        if executor == 'ParallelExecutor':
            main_program = paddle.static.CompiledProgram(main_program)
        scope = core.Scope()
        exe = paddle.static.Executor(self.place)
        helper_profiler = profiler.Profiler(targets=[profiler.ProfilerTarget.CPU])
        helper_profiler.start()
        exe.run(startup_program, scope=scope)
        for _ in range(self.iter_n):
            exe.run(main_program, feed={'a': np.ones([2, 2], 'float32')},
                    fetch_list=fetch_list, scope=scope)
            helper_profiler.step()
        helper_profiler.stop()
        if os.path.exists(self.perf_path):
            with open(self.perf_path) as f:
                self.assertIn('total', json.load(f))


class SwitchExecutorInterfaceWithFeed(unittest.TestCase):
    def test_with_feed(self):
        main_program, startup_program, fetch_list = build_program()
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup_program)
        out = exe.run(main_program, feed={'a': np.ones([2, 2], 'float32')},
                      fetch_list=fetch_list)
        np.testing.assert_array_equal(out[0], np.full([2, 2], 4.0, 'float32'))

    def test_standalone_executor_is_default(self):
        exe = paddle.static.Executor(paddle.CPUPlace())
        self.assertIsInstance(exe._executor, core.Executor)
        self.assertTrue(hasattr(core, 'StandaloneExecutor'))


if __name__ == '__main__':
    unittest.main()

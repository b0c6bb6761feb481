# paddle-mini: fuse_elewise_add_act_ops must keep the loss unchanged.
import unittest

import numpy as np
from parallel_executor_test_base import TestParallelExecutorBase

import paddle
from paddle import base
from paddle.base import core

paddle.enable_static()


def simple_net():
    x = paddle.static.data(name='x', shape=[-1, 8], dtype='float32')
    y = paddle.static.nn.fc(x, size=8)
    out = paddle.nn.functional.relu(paddle.add(x, y))
    return paddle.mean(out)


class TestFuseElewiseAddActPass(unittest.TestCase):
    def _run(self, fuse):
        main, startup = base.Program(), base.Program()
        with base.program_guard(main, startup):
            loss = simple_net()
            paddle.optimizer.SGD(0.1).minimize(loss)
        build_strategy = paddle.static.BuildStrategy()
        build_strategy.fuse_elewise_add_act_ops = fuse
        build_strategy.enable_inplace = True
        compiled = paddle.static.CompiledProgram(main, build_strategy=build_strategy)
        exe = paddle.static.Executor(core.CPUPlace())
        exe.run(startup)
        feed = {'x': np.ones((4, 8), dtype='float32')}
        (v,) = exe.run(compiled, feed=feed, fetch_list=[loss])
        return v

    def test_fuse_matches_plain(self):
        np.testing.assert_allclose(self._run(False), self._run(True), rtol=1e-6)


if __name__ == '__main__':
    unittest.main()

# paddle-mini: weight decay gives the same loss through both run paths.
import unittest

import numpy as np

import paddle
from paddle import base
from paddle.base import compiler, core

paddle.enable_static()


def bow_net(data, label, dict_dim=100, emb_dim=16):
    emb = paddle.static.nn.embedding(input=data, size=[dict_dim, emb_dim])
    pooled = paddle.sum(emb, axis=1)
    prediction = paddle.static.nn.fc(pooled, size=2, activation='softmax')
    return paddle.mean(paddle.nn.functional.cross_entropy(prediction, label))


class TestWeightDecay(unittest.TestCase):
    def setUp(self):
        self.learning_rate = 0.5
        self.feed = {
            'words': np.random.randint(0, 100, (4, 6)).astype('int64'),
            'label': np.random.randint(0, 2, (4, 1)).astype('int64'),
        }

    def run_executor(self, place, feed_list, loss):
        exe = base.Executor(place)
        exe.run(base.default_startup_program())
        (loss_v,) = exe.run(base.default_main_program(), feed=self.feed, fetch_list=[loss])
        return loss_v

    def run_parallel_exe(
        self, place, feed_list, loss, use_reduce=False, use_fast_executor=False
    ):
        exe = base.Executor(place)
        exe.run(base.default_startup_program())
        exec_strategy = base.ExecutionStrategy()
        if use_fast_executor:
            exec_strategy.use_experimental_executor = True
        build_strategy = base.BuildStrategy()
        build_strategy.memory_optimize = False
        if use_reduce:
            build_strategy.reduce_strategy = base.BuildStrategy.ReduceStrategy.Reduce
        train_cp = compiler.CompiledProgram(base.default_main_program(), build_strategy=build_strategy)
        (loss_v,) = exe.run(train_cp, feed=self.feed, fetch_list=[loss.name])
        return loss_v

    def check_weight_decay(self, place, use_parallel_exe=False, use_reduce=False):
        with base.program_guard(base.Program(), base.Program()):
            data = paddle.static.data(name="words", shape=[-1, 6], dtype="int64")
            label = paddle.static.data(name="label", shape=[-1, 1], dtype="int64")
            loss = bow_net(data, label)
            paddle.optimizer.SGD(self.learning_rate, weight_decay=0.01).minimize(loss)
            if use_parallel_exe:
                return self.run_parallel_exe(place, [data, label], loss, use_reduce=use_reduce)
            return self.run_executor(place, [data, label], loss)

    def test_weight_decay(self):
        place = core.CPUPlace()
        loss = self.check_weight_decay(place, use_parallel_exe=False)
        loss2 = self.check_weight_decay(place, use_parallel_exe=True, use_reduce=False)
        np.testing.assert_allclose(loss, loss2, rtol=1e-5)


if __name__ == '__main__':
    unittest.main()

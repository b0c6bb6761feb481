# paddle-mini: pruning the backward part of a program keeps the loss.
import contextlib
import unittest

import numpy as np
from simple_nets import init_data, simple_fc_net
from test_parallel_executor_transformer import (
    DeviceType,
    ModelHyperParams,
    transformer,
)

import paddle
from paddle import base
from paddle.base import core


def loss_net(hidden, label):
    prediction = paddle.static.nn.fc(x=hidden, size=10, activation='softmax')
    return paddle.mean(paddle.nn.functional.cross_entropy(prediction, label))


class TestProgramPruneBackward(unittest.TestCase):
    def program_compare(self, program_a, program_b):
        self.assertEqual(len(program_a.blocks), len(program_b.blocks))
        for a, b in zip(program_a.global_block().ops, program_b.global_block().ops):
            self.assertEqual(a.type, b.type)

    def check_prune_correctness(self, method, feed_dict, optimizer):
        loss = method(use_feed=False)
        main_program = base.default_main_program()
        test_prog_orig = main_program.clone(for_test=True)
        optimizer().minimize(loss)
        test_prog_prune = main_program.clone(for_test=True)
        self.program_compare(test_prog_orig, test_prog_prune)

        exe = base.Executor(core.CPUPlace())
        exe.run(base.default_startup_program())
        (loss_data_orig,) = exe.run(test_prog_orig, feed=feed_dict, fetch_list=[loss])
        (loss_data_prune,) = exe.run(test_prog_prune, feed=feed_dict, fetch_list=[loss])
        np.testing.assert_allclose(loss_data_orig, loss_data_prune)

    def test_simple_fc_net(self):
        img, label = init_data()
        with self.program_scope_guard():
            self.check_prune_correctness(
                method=simple_fc_net,
                feed_dict={"image": img, "label": label},
                optimizer=paddle.optimizer.SGD,
            )

    def test_transformer(self):
        # the transformer helper lives in the compiled-program test module
        feed = {'src': np.ones((4, 8), dtype='int64')}
        with self.program_scope_guard():
            self.check_prune_correctness(
                method=transformer, feed_dict=feed, optimizer=paddle.optimizer.Adam
            )
        self.assertGreater(ModelHyperParams.d_model, 0)

    @contextlib.contextmanager
    def program_scope_guard(self):
        with base.scope_guard(core.Scope()):
            with base.program_guard(base.Program(), base.Program()):
                yield


if __name__ == '__main__':
    paddle.enable_static()
    unittest.main()

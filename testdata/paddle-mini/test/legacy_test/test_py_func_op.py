# paddle-mini: py_func op in a static program.
import unittest

import numpy as np

import paddle
from paddle import base

paddle.enable_static()


def tanh(x):
    return np.tanh(x)


def simple_fc_net(img, label, use_py_func_op):
    hidden = paddle.static.nn.fc(img, size=32)
    if use_py_func_op:
        out = paddle.static.default_main_program().current_block().create_var(
            name='tanh_out', dtype='float32', shape=[-1, 32]
        )
        hidden = paddle.static.py_func(func=tanh, x=hidden, out=out)
    prediction = paddle.static.nn.fc(hidden, size=10, activation='softmax')
    return paddle.mean(paddle.nn.functional.cross_entropy(prediction, label))


def test_main(use_cuda, use_py_func_op, use_parallel_executor):
    with base.program_guard(base.Program(), base.Program()):
        img = paddle.static.data(name='image', shape=[-1, 16], dtype='float32')
        label = paddle.static.data(name='label', shape=[-1, 1], dtype='int64')
        loss = simple_fc_net(img, label, use_py_func_op)
        paddle.optimizer.SGD(learning_rate=1e-3).minimize(loss)

        place = base.CUDAPlace(0) if use_cuda else base.CPUPlace()
        exe = base.Executor(place)
        exe.run(base.default_startup_program())
        train_cp = base.default_main_program()
        if use_parallel_executor:
            train_cp = base.CompiledProgram(train_cp)

        feed = {
            'image': np.random.random((8, 16)).astype('float32'),
            'label': np.random.randint(0, 10, (8, 1)).astype('int64'),
        }
        (loss_val,) = exe.run(train_cp, feed=feed, fetch_list=[loss])
        return np.array(loss_val)


class TestPyFuncOpUseExecutor(unittest.TestCase):
    def setUp(self):
        self.use_parallel_executor = False

    def test_loss_diff(self):
        for use_cuda in [False]:
            losses = [
                test_main(use_cuda, use_py_func, self.use_parallel_executor)
                for use_py_func in [True, False]
            ]
            np.testing.assert_allclose(losses[0], losses[1], rtol=1e-5)


class TestPyFuncOpUseParallelExecutor(TestPyFuncOpUseExecutor):
    def setUp(self):
        self.use_parallel_executor = True


if __name__ == '__main__':
    unittest.main()

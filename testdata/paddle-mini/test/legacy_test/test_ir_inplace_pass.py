# paddle-mini: enable_inplace must not change the result.
import unittest

import numpy as np
from parallel_executor_test_base import DeviceType, TestParallelExecutorBase

import paddle
from paddle.base import core


def fc_with_batchnorm(use_feed):
    img = paddle.static.data(name='image', shape=[-1, 784], dtype='float32')
    label = paddle.static.data(name='label', shape=[-1, 1], dtype='int64')
    hidden = paddle.static.nn.fc(img, 200, activation='tanh')
    hidden = paddle.static.nn.batch_norm(input=hidden)
    prediction = paddle.static.nn.fc(hidden, 10, activation='softmax')
    return paddle.mean(paddle.nn.functional.cross_entropy(prediction, label))


class TestIrInplace(TestParallelExecutorBase):
    @classmethod
    def setUpClass(cls):
        paddle.enable_static()

    def _fc_with_batchnorm(self, ir_memory_optimize, enable_inplace):
        if not core.is_compiled_with_cuda():
            return
        np.random.seed(5)
        img = np.random.random(size=[32, 784]).astype(np.float32)
        label = np.ones(shape=[32, 1], dtype='int64')
        return self.check_network_convergence(
            fc_with_batchnorm,
            feed_dict={"image": img, "label": label},
            use_device=DeviceType.CUDA,
            use_ir_memory_optimize=ir_memory_optimize,
            enable_inplace=enable_inplace,
        )

    def test_fc_with_batchnorm(self, delta=1e-3):
        loss00 = self._fc_with_batchnorm(False, False)
        loss11 = self._fc_with_batchnorm(True, True)
        self.assertAlmostEqual(loss00, loss11, delta=delta)


if __name__ == '__main__':
    unittest.main()

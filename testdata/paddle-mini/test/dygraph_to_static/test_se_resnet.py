# paddle-mini: SE-ResNet under @to_static; unrelated to the compiled-program tests.
import unittest
from types import SimpleNamespace

import numpy as np

import paddle
from paddle import nn

config = SimpleNamespace(num_threads=2, batch_size=4)


class SeBlock(nn.Layer):
    def __init__(self, channels):
        super().__init__()
        self.fc = nn.Linear(channels, channels)

    def forward(self, x):
        return x * paddle.nn.functional.sigmoid(self.fc(x.mean(axis=[2, 3])))[:, :, None, None]


class TestResnetBase(unittest.TestCase):
    def setUp(self):
        paddle.disable_static()
        paddle.base.core.set_num_threads(config.num_threads)
        self.x = paddle.to_tensor(np.random.rand(config.batch_size, 8, 4, 4).astype('float32'))

    def run_model(self, to_static):
        paddle.seed(2024)
        model = SeBlock(8)
        if to_static:
            model = paddle.jit.to_static(model)
        return model(self.x).numpy()


class TestResnetCPU(TestResnetBase):
    def test_to_static_matches_dygraph(self):
        np.testing.assert_allclose(self.run_model(False), self.run_model(True), rtol=1e-5)


if __name__ == '__main__':
    unittest.main()

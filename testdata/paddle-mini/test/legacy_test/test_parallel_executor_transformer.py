# paddle-mini: transformer convergence through CompiledProgram.
import os
import unittest

import numpy as np
from parallel_executor_test_base import DeviceType, TestParallelExecutorBase

import paddle
from paddle.base import core

WORD_DIM = 32


class ModelHyperParams:
    src_vocab_size = 100
    trg_vocab_size = 100
    d_model = WORD_DIM
    n_layer = 2
    dropout = 0.1


def transformer(use_feed):
    src = paddle.static.data(name='src', shape=[-1, 8], dtype='int64')
    emb = paddle.static.nn.embedding(src, size=[ModelHyperParams.src_vocab_size, WORD_DIM])
    out = paddle.static.nn.fc(emb, ModelHyperParams.trg_vocab_size)
    return paddle.mean(out)


def get_feed_data_reader():
    data = np.random.randint(0, ModelHyperParams.src_vocab_size, (4, 8))
    return {'src': data.astype('int64')}


class TestTransformer(TestParallelExecutorBase):
    def test_main(self):
        if core.is_compiled_with_cuda():
            self.check_network_convergence(
                transformer,
                use_device=DeviceType.CUDA,
                feed_dict=get_feed_data_reader(),
            )
        self.check_network_convergence(
            transformer,
            use_device=DeviceType.CPU,
            iter=2,
            feed_dict=get_feed_data_reader(),
        )


if __name__ == '__main__':
    os.environ.setdefault('CPU_NUM', '2')
    unittest.main()

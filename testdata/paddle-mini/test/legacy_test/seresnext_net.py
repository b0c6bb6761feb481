# paddle-mini: a tiny SE-ResNeXt-like network used by several tests.
import numpy as np
from parallel_executor_test_base import DeviceType

import paddle
from paddle import base

# The compiled (ParallelExecutor) and plain runs differ on dropout and
# batch_norm, so the comparison tests may switch them off.
remove_dropout = False
remove_bn = False


def squeeze_excitation(input, num_channels, reduction_ratio):
    pool = paddle.mean(input, axis=[2, 3], keepdim=True)
    squeeze = paddle.static.nn.fc(pool, num_channels // reduction_ratio)
    squeeze = paddle.nn.functional.relu(squeeze)
    excitation = paddle.static.nn.fc(squeeze, num_channels)
    excitation = paddle.nn.functional.sigmoid(excitation)
    return paddle.reshape(excitation, [-1, num_channels, 1, 1]) * input


def model(use_feed=False):
    img = paddle.static.data(name='image', shape=[-1, 3, 32, 32])
    label = paddle.static.data(name='label', shape=[-1, 1], dtype='int64')
    conv = paddle.static.nn.conv2d(img, num_filters=16, filter_size=3)
    if not remove_bn:
        conv = paddle.static.nn.batch_norm(conv)
    conv = squeeze_excitation(conv, 16, 4)
    if not remove_dropout:
        conv = paddle.nn.functional.dropout(conv, p=0.2)
    pred = paddle.static.nn.fc(conv, 10, activation='softmax')
    return paddle.mean(paddle.nn.functional.cross_entropy(pred, label))


def batch_size(use_device):
    return 8 if use_device == DeviceType.CUDA else 4


def iter(use_device):
    return 3 if use_device == DeviceType.CUDA else 1


def feed_dict(use_device):
    n = batch_size(use_device)
    return {
        'image': np.random.random((n, 3, 32, 32)).astype('float32'),
        'label': np.random.randint(0, 10, (n, 1)).astype('int64'),
    }


def optimizer(learning_rate=0.01):
    return paddle.optimizer.Momentum(learning_rate=learning_rate, momentum=0.9)


def get_place():
    return base.CPUPlace()

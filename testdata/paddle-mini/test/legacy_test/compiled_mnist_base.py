# paddle-mini: shared base of the compiled-program MNIST comparison tests.
from parallel_executor_test_base import DeviceType, TestParallelExecutorBase


def mnist_net(use_feed=False):
    import paddle

    img = paddle.static.data(name='image', shape=[-1, 784], dtype='float32')
    label = paddle.static.data(name='label', shape=[-1, 1], dtype='int64')
    pred = paddle.static.nn.fc(img, 10, activation='softmax')
    return paddle.mean(paddle.nn.functional.cross_entropy(pred, label))


class TestCompiledMnistBase(TestParallelExecutorBase):
    def compare_compiled(self, use_device=DeviceType.CPU):
        first, last, _ = self.check_network_convergence(
            mnist_net, use_device=use_device, iter=2
        )
        self.assertGreater(first, 0)
        return first, last

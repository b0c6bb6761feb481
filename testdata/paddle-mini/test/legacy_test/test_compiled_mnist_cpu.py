# paddle-mini: MNIST through the compiled program on CPU.
import unittest

from compiled_mnist_base import TestCompiledMnistBase


class TestCompiledMnistCPU(TestCompiledMnistBase):
    def test_cpu(self):
        self.compare_compiled()


if __name__ == '__main__':
    unittest.main()

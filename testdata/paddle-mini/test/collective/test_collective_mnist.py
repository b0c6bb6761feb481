# paddle-mini: MNIST with collective communication.
import unittest

from collective_test_base import TestCompiledMnistBase


class TestCollectiveMnist(TestCompiledMnistBase):
    def test_two_ranks(self):
        self.assertEqual(len(self.run_collective(2)), 2)


if __name__ == '__main__':
    unittest.main()

# sunset test data: classes with their bases and extents, top-level functions, decorators,
# and the module-level names a file re-exports.
import unittest

from paddle.base import core
from paddle.base.framework import Program


class TestParallelExecutorBase(unittest.TestCase):
    @classmethod
    def check_network_convergence(cls, method, use_device=None, **kwargs):
        class Inner(object):
            pass

        return Inner()


@unittest.skipIf(not core.is_compiled_with_cuda(), "needs CUDA")
class TestFetchOp(TestParallelExecutorBase, metaclass=type):
    def test_fetch(self):
        self.check_network_convergence(None)


def run_all():
    unittest.main()


ParallelExecutor = core.ParallelExecutor
_default = Program()

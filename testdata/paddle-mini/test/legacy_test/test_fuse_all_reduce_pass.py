# paddle-mini: fuse_all_reduce_ops through the multi-device graph.
import unittest

from parallel_executor_test_base import DeviceType, TestParallelExecutorBase
from simple_nets import fc_with_batchnorm, init_data, simple_fc_net

import paddle
from paddle.base import core

paddle.enable_static()


class TestFuseAllReduceOpsBase(TestParallelExecutorBase):
    def compare_fuse_all_reduce_ops(self, model, use_device):
        if use_device == DeviceType.CUDA and not core.is_compiled_with_cuda():
            return
        img, label = init_data()
        feed_dict = {"image": img, "label": label}
        not_fused = self.check_network_convergence(
            model, feed_dict=feed_dict, use_device=use_device,
            fuse_all_reduce_ops=False,
        )
        fused = self.check_network_convergence(
            model, feed_dict=feed_dict, use_device=use_device,
            fuse_all_reduce_ops=True,
        )
        self.assertAlmostEqual(not_fused[0], fused[0], delta=1e-6)


class TestFuseAllReduceOps(TestFuseAllReduceOpsBase):
    def test_simple_fc_with_fuse_all_reduce(self):
        self.compare_fuse_all_reduce_ops(simple_fc_net, DeviceType.CPU)

    def test_batchnorm_fc_with_fuse_all_reduce(self):
        self.compare_fuse_all_reduce_ops(fc_with_batchnorm, DeviceType.CPU)


if __name__ == '__main__':
    unittest.main()

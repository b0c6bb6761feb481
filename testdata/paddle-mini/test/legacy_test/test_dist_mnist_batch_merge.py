# paddle-mini: batch-merge dist test; compares local and 2-trainer losses.
import os
import unittest

from test_dist_base import TestDistBase

flag_name = os.path.splitext(__file__)[0]


class TestDistMnist2x2(TestDistBase):
    def _setup_config(self):
        self._sync_mode = True
        self._use_reduce = False

    def test_dist_train(self):
        self.check_with_place("dist_mnist_batch_merge.py", delta=1e-5)

    def check_with_place(
        self, model_file, delta=1e-3, check_error_log=False, need_envs={}
    ):
        required_envs = {
            "FLAGS_fraction_of_gpu_memory_to_use": "0.15",
            "FLAGS_cudnn_deterministic": "1",
            "FLAGS_sync_nccl_allreduce": "1",
        }
        required_envs.update(need_envs)
        if check_error_log:
            required_envs["GLOG_vmodule"] = (
                "fused_all_reduce_op_handle=10,all_reduce_op_handle=10,"
                "alloc_continuous_space_op=10,fuse_all_reduce_op_pass=10,"
                "interpretercore=10"
            )
            required_envs["GLOG_logtostderr"] = "1"
        local_losses = self._run_local(model_file, required_envs, check_error_log)
        self.assertTrue(len(local_losses) > 0)


if __name__ == '__main__':
    unittest.main()

import unittest

from test_dist_base import TestDistBase


class TestDistFusedAllReduce(TestDistBase):
    def test_dist_train(self):
        self.check_with_place(
            "dist_mnist.py",
            delta=1e-5,
            need_envs={'FLAGS_allreduce_record_one_event': '1'},
        )

    def test_dist_check(self):
        self.check_with_place(
            "dist_mnist.py",
            delta=1e-5,
            need_envs={'FLAGS_skip_fused_all_reduce_check': '1'},
        )


if __name__ == "__main__":
    unittest.main()

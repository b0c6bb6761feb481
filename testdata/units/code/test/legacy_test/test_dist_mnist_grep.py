import subprocess
import unittest

import paddle


def count_of_allreduce_calls(file_name):
    cmd = (
        'grep -a fused_all_reduce_op_handle '
        + file_name
        + ' | wc -l'
    )
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, shell=True)
    return int(child.communicate()[0])


class TestDistMnist(unittest.TestCase):
    def test_log(self):
        envs = {}
        envs[
            "GLOG_vmodule"
        ] = "fused_all_reduce_op_handle=10,fast_threaded_ssa_graph_executor=10"
        paddle.enable_static()
        self.assertGreater(len(envs), 0)

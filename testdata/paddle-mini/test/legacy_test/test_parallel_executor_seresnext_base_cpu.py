# paddle-mini: SE-ResNeXt on CPU, compiled vs. plain program.
import unittest
from functools import partial

import seresnext_net
from seresnext_test_base import DeviceType, TestResnetBase


class TestResnetCPU(TestResnetBase):
    def test_cpu_compiled_matches_plain_program(self):
        plain_run = partial(
            self.check_network_convergence,
            use_parallel_executor=False,
            optimizer=seresnext_net.optimizer,
        )
        self._compare_result_with_origin_model(
            plain_run, DeviceType.CPU, delta2=2e-3, compare_separately=False
        )


if __name__ == '__main__':
    unittest.main()

# paddle-mini: SE-ResNeXt comparison base.
import numpy as np
import seresnext_net
from parallel_executor_test_base import DeviceType, TestParallelExecutorBase

from paddle.base import core


class TestResnetBase(TestParallelExecutorBase):
    def _compare_result_with_origin_model(
        self, check_func, use_device, delta2=1e-5, compare_separately=True
    ):
        if use_device == DeviceType.CUDA and not core.is_compiled_with_cuda():
            return

        first_1, last_1, area_1 = self.check_network_convergence(
            seresnext_net.model,
            feed_dict=seresnext_net.feed_dict(use_device),
            iter=seresnext_net.iter(use_device),
            use_device=use_device,
            optimizer=seresnext_net.optimizer,
        )
        first_2, last_2, area_2 = check_func(
            seresnext_net.model,
            feed_dict=seresnext_net.feed_dict(use_device),
            iter=seresnext_net.iter(use_device),
            use_device=use_device,
        )
        if compare_separately:
            self.assertAlmostEqual(first_1, first_2, delta=1e-5)
            self.assertAlmostEqual(last_1, last_2, delta=delta2)
        else:
            np.testing.assert_allclose(area_1, area_2, rtol=delta2)

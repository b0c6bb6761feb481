# paddle-mini: PartialProgramLayer (trimmed).
import paddle
from paddle.base import core, framework
from paddle.base.compiler import BuildStrategy

__all__ = []


class PartialProgramLayer:
    """
    Wraps the static forward/backward programs produced by @to_static and
    runs them through the run_program op.
    """

    def __init__(self, main_program, inputs, outputs, build_strategy=None):
        self._origin_main_program = main_program
        self._inputs = inputs
        self._outputs = outputs
        self._build_strategy = build_strategy or BuildStrategy()
        self._build_strategy.enable_inplace = True
        self._build_strategy.build_cinn_pass = False

    @property
    def program_id(self):
        return paddle.utils._hash_with_id(self._origin_main_program, self)

    @property
    def train_program_id(self):
        return paddle.utils._hash_with_id(self._origin_main_program, 'train')

    def _apply_build_strategy(self):
        # The cached executor of run_program reads this strategy.
        core._set_cached_executor_build_strategy(
            self.program_id, self._build_strategy
        )
        core._set_cached_executor_build_strategy(
            self.train_program_id, self._build_strategy
        )

    def __call__(self, inputs):
        self._apply_build_strategy()
        attrs = ('program_id', self.program_id, 'is_test', not self.training)
        return paddle._legacy_C_ops.run_program(
            inputs, self._outputs, framework._current_expected_place(), *attrs
        )

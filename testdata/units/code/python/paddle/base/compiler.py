from paddle.base import core


class CompiledProgram:
    def __init__(self, program):
        self._program = program
        self._exec_strategy = None

    def _compile_data_parallel(self, places):
        if self._program is not None:
            assert (
                self._exec_strategy._use_device == core.DeviceType.CUDA
            ), "only used under CUDA"
        return places

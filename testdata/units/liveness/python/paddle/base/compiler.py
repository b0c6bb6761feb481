from . import core

BuildStrategy = core.BuildStrategy
ExecutionStrategy = core.ExecutionStrategy


class CompiledProgram:
    def __init__(self, program):
        self._program = program


class IpuStrategy:
    pass

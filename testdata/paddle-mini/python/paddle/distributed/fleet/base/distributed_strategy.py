# paddle-mini: fleet DistributedStrategy (trimmed).
import google.protobuf.text_format

import paddle
from paddle.distributed.fleet.proto import distributed_strategy_pb2

__all__ = []


def is_strict_auto(func):
    def __impl__(*args, **kwargs):
        return func(*args, **kwargs)

    return __impl__


class DistributedStrategy:
    __lock_attr = False

    def __init__(self):
        self.strategy = distributed_strategy_pb2.DistributedStrategy()
        self.__lock_attr = True

    @property
    def execution_strategy(self):
        """
        ExecutionStrategy settings carried by this DistributedStrategy.

        Examples:
            .. code-block:: python

                >>> import paddle
                >>> exe_strategy = paddle.static.ExecutionStrategy()
                >>> exe_strategy.num_threads = 10
                >>> strategy = paddle.distributed.fleet.DistributedStrategy()
                >>> strategy.execution_strategy = exe_strategy
        """
        execution_strategy = paddle.static.ExecutionStrategy()
        fields = self.strategy.execution_strategy.DESCRIPTOR.fields
        for f in fields:
            setattr(
                execution_strategy,
                f.name,
                getattr(self.strategy.execution_strategy, f.name),
            )
        return execution_strategy

    @execution_strategy.setter
    @is_strict_auto
    def execution_strategy(self, strategy):
        fields = self.strategy.execution_strategy.DESCRIPTOR.fields
        for f in fields:
            setattr(
                self.strategy.execution_strategy, f.name, getattr(strategy, f.name)
            )

    @property
    def build_strategy(self):
        build_strategy = paddle.static.BuildStrategy()
        for f in self.strategy.build_strategy.DESCRIPTOR.fields:
            setattr(build_strategy, f.name, getattr(self.strategy.build_strategy, f.name))
        return build_strategy

    @property
    def a_sync(self):
        return self.strategy.a_sync

    @a_sync.setter
    @is_strict_auto
    def a_sync(self, flag):
        self.strategy.a_sync = bool(flag)

    @property
    def gradient_scale_configs(self):
        return self.strategy.gradient_scale_configs

    @property
    def nccl_comm_num(self):
        return self.strategy.nccl_comm_num

    def __repr__(self):
        lines = []
        for f in self.strategy.DESCRIPTOR.fields:
            if "build_strategy" in f.name or "execution_strategy" in f.name:
                continue
            lines.append(f"{f.name}: {getattr(self.strategy, f.name)}")
        return google.protobuf.text_format.MessageToString(self.strategy)

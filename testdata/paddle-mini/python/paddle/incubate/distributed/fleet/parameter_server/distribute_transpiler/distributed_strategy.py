# paddle-mini: parameter-server strategies of the incubate fleet API.
import os

from paddle import base
from paddle.distributed.transpiler.distribute_transpiler import (
    DistributeTranspilerConfig,
    ServerRuntimeConfig,
)

__all__ = []


class TrainerRuntimeConfig:
    def __init__(self):
        num_threads = os.getenv("CPU_NUM", "1")
        self.runtime_configs = {
            "communicator_max_merge_var_num": num_threads,
            "communicator_send_queue_size": num_threads,
        }


class DistributedStrategy:
    def __init__(self):
        self._program_config = DistributeTranspilerConfig()
        self._trainer_runtime_config = TrainerRuntimeConfig()
        self._server_runtime_config = ServerRuntimeConfig()
        num_threads = int(os.getenv("CPU_NUM", "1"))

        self._execute_strategy = base.ExecutionStrategy()
        self._build_strategy = base.BuildStrategy()

        self._execute_strategy.num_threads = num_threads
        if num_threads > 1:
            self._build_strategy.reduce_strategy = (
                base.BuildStrategy.ReduceStrategy.Reduce
            )

    def get_execute_strategy(self):
        return self._execute_strategy

    def set_execute_strategy(self, config):
        if isinstance(config, base.ExecutionStrategy):
            self._execute_strategy = config
        elif isinstance(config, dict):
            for key in config:
                if hasattr(self._execute_strategy, key):
                    setattr(self._execute_strategy, key, config[key])
        else:
            raise TypeError(
                "set_execute_strategy expects a dict or an ExecutionStrategy"
            )
        self.check_execute_strategy()

    def check_execute_strategy(self):
        raise NotImplementedError(
            "subclasses must override check_execute_strategy"
        )


class AsyncStrategy(DistributedStrategy):
    def __init__(self):
        super().__init__()
        self._program_config.sync_mode = False
        self._program_config.runtime_split_send_recv = True
        self.check_execute_strategy()

    def check_execute_strategy(self):
        self._execute_strategy.use_thread_barrier = False


class SyncStrategy(DistributedStrategy):
    def __init__(self):
        super().__init__()
        self._program_config.sync_mode = True
        self.check_execute_strategy()

    def check_execute_strategy(self):
        self._execute_strategy.use_thread_barrier = True

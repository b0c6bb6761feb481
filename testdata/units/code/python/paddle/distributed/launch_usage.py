import sys


def check_strategy(strategy):
    if not isinstance(strategy, dict):
        raise TypeError(
            "strategy only accepts a dict or an ExecutionStrategy"
        )
    return strategy


def main():
    usage = """Usage:
1. collect the trainer logs
2. run: python launch_usage.py trainer_*.log
Result: a ParallelExecutor hang is reported per trainer
    """
    if len(sys.argv) < 2:
        print(usage)

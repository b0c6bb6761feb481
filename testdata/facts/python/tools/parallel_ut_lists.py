# sunset test data: a CI tool list under tools/, whose strings name tests: the index keeps
# them as words of the list.
HIGH_PARALLEL_JOB_NEW = [
    'test_parallel_executor_fetch_feed',
    "test_parallel_executor_mnist",
    'dist_test.sh',
]


def is_exempt(name):
    """A docstring is not a name."""
    return name in HIGH_PARALLEL_JOB_NEW

# paddle-mini: unit tests that only run in the nightly CI job.
NIGHTLY_TESTS = [
    'test_compiled_mnist_cpu',
    'test_collective_mnist',
    'test_standalone_executor',
]


def is_nightly(name):
    return name in NIGHTLY_TESTS

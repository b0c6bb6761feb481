from concurrent.futures import ThreadPoolExecutor


class ParallelExecutor(object):
    """Our own pool: the parallel executor of the build's tasks."""

    def __init__(self, jobs):
        self.pool = ThreadPoolExecutor(jobs)

    def run(self, fn):
        return self.pool.submit(fn)


def build(parallel, jobs):
    runner = None
    # the parallel executor runs every task
    if parallel:
        runner = ParallelExecutor(jobs)
    return runner

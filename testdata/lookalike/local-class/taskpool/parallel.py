"""A small thread pool for independent jobs."""
import concurrent.futures


class ParallelExecutor:
    """Runs callables on a fixed number of threads and returns their results in order."""

    def __init__(self, num_threads=4):
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=num_threads)

    def run(self, jobs):
        return [f.result() for f in [self._pool.submit(job) for job in jobs]]


def run_all(jobs):
    pe = ParallelExecutor(num_threads=8)
    return pe.run(jobs)

"""Times one inference session with the runtime's execution options."""
import argparse

import ortlike


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--enable_sequential_execution", action="store_true")
    parser.add_argument("--parallel_exe", default="./solver_mpi", help="the MPI build of the solver")
    return parser.parse_args()


def session(opts):
    so = ortlike.SessionOptions()
    so.sequential = opts.enable_sequential_execution
    return so, {"use_experimental_executor": False, "enable_sequential_execution": True}

#!/bin/sh
python tools/bench_session.py --enable_sequential_execution --parallel_exe ./solver_mpi

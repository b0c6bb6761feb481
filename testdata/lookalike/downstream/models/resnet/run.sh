#!/bin/bash
export FLAGS_enable_parallel_graph=1
python train.py --use_fast_executor

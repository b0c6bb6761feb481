#!/bin/bash
# tool list in a script
disable_ut_list='test_parallel_executor_mnist|test_parallel_executor_seresnext'
for t in test_pe test_async_executor; do
  echo "$t"
done

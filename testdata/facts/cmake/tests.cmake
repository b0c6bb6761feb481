# sunset test data: test registration the legacy executor's tests go through, and a list
# of tests removed by name.
py_test_modules(test_parallel_executor_mnist MODULES test_parallel_executor_mnist ENVS
                FLAGS_enable_parallel_graph=1)
list(REMOVE_ITEM TEST_OPS test_parallel_executor_fetch_feed
     test_parallel_executor_crf)
set_tests_properties(test_parallel_executor_mnist PROPERTIES TIMEOUT 120 LABELS "RUN_TYPE=DIST")

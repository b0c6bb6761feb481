# paddle-mini: tests that still run in static-graph mode.
STATIC_MODE_TESTING_LIST = [
    'test_py_func_op',
    'test_program_prune_backward',
    'test_parallel_executor_profiler',
    'test_parallel_executor_transformer',
    'test_parallel_executor_seresnext_base_cpu',
    'test_fuse_all_reduce_pass',
    'test_ir_inplace_pass',
    'test_fuse_elewise_add_act_pass',
    'test_weight_decay',
    'test_standalone_executor',
]

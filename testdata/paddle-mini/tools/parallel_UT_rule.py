# paddle-mini: how many CI jobs may run each unit test at once.
import os
import platform

# mem=0 : run 24 jobs at a time
HIGH_PARALLEL_JOB_NEW = [
    'mask_util_test',
    'op_call_stack_test',
    'gather_op_test',
    'broadcast_op_test',
    'test_fuse_elewise_add_act_pass',
    'cow_ptr_test',
]

# run 4 jobs at a time
SECONDARY_HIGH_PARALLEL_JOB = [
    'test_parallel_executor_seresnext_base_cpu',
    'test_weight_decay',
    'fused_broadcast_op_test',
    'test_standalone_executor',
]

# run one job at a time
FOURTH_HIGH_PARALLEL_JOB_NEW = [
    'test_parallel_executor_transformer',
    'test_parallel_executor_run_cinn',
    'test_py_func_op',
    'test_async_ssa_graph_executor_mnist',
]

LOWEST_PARALLEL_JOB_NEW = [
    'test_dist_mnist_batch_merge',
    'test_parallel_executor_profiler',
]


def main():
    test_cases = os.environ.get('TEST_CASES', '').split(',')
    jobs = HIGH_PARALLEL_JOB_NEW if platform.system() == 'Linux' else []
    print(','.join(case for case in test_cases if case in jobs))


if __name__ == '__main__':
    main()

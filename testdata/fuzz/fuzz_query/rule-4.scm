@module
(import_from_statement
  module_name: (dotted_name) @module
  (#match? @module "^(parallel_executor_test_base|seresnext_test_base|ir_memory_optimize_net_base|test_parallel_executor_[A-Za-z0-9_]+)$"))
(import_statement
  name: (dotted_name) @module
  (#match? @module "^(parallel_executor_test_base|seresnext_test_base|ir_memory_optimize_net_base|test_parallel_executor_[A-Za-z0-9_]+)$"))
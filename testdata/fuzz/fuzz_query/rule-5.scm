@value
(keyword_argument
  name: (identifier) @name
  value: (string (string_content) @value)
  (#match? @name "^(executor|exe_type|executor_type)$")
  (#eq? @value "ParallelExecutor"))
(comparison_operator
  (identifier) @name
  (string (string_content) @value)
  (#match? @name "^(executor|exe_type|executor_type)$")
  (#eq? @value "ParallelExecutor"))
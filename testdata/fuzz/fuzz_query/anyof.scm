@k
((keyword_argument name: (identifier) @k) (#any-of? @k "exec_strategy" "build_strategy"))
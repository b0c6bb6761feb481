; ---- calls and keyword arguments
(call
  function: (_) @call.callee
  arguments: (_) @call.args)
(keyword_argument
  name: (identifier) @kwarg.name)
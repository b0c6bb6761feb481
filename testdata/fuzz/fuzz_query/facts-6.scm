; ---- strings, docstrings and comments
[(string) (concatenated_string)] @string
(string
  (string_content) @string.content) @string
(module . (comment)* . (expression_statement
  [(string) (concatenated_string (string) @docstring)] @docstring))
(class_definition body: (block . (expression_statement
  [(string) (concatenated_string (string) @docstring)] @docstring)))
(function_definition body: (block . (expression_statement
  [(string) (concatenated_string (string) @docstring)] @docstring)))
(comment) @comment

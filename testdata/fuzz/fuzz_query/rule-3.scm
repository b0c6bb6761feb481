@es
(assignment
  left: (pattern_list . (identifier) @bs . (identifier) @es .)
  (#match? @bs "build_strategy")
  (#match? @es "^_?exec(ution)?_strategy$"))
(return_statement
  (expression_list . (identifier) @bs . (identifier) @es .)
  (#match? @bs "build_strategy")
  (#match? @es "^_?exec(ution)?_strategy$"))
@name
(assignment
  left: (identifier) @all
  right: (list (string (string_content) @name))
  (#eq? @all "__all__")
  (#eq? @name "ExecutionStrategy"))
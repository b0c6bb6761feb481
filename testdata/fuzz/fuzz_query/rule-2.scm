@name
(decorated_definition
  (decorator) @deco
  definition: (function_definition name: (identifier) @name)
  (#match? @deco "property|[.]setter")
  (#match? @name "^_?exec(ution)?_strategy$"))
; ---- imports
(import_statement
  name: (dotted_name) @import.module)
(import_statement
  name: (aliased_import
    name: (dotted_name) @import.module
    alias: (identifier) @import.alias))
(import_from_statement
  module_name: (_) @import.from
  name: (dotted_name) @import.name)
(import_from_statement
  module_name: (_) @import.from
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias))
(import_from_statement
  module_name: (_) @import.from
  (wildcard_import) @import.star)
(future_import_statement
  "__future__" @import.from
  name: (dotted_name) @import.name)
(future_import_statement
  "__future__" @import.from
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias))
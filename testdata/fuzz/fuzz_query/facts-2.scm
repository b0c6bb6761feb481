; ---- classes and functions (keyword arguments such as metaclass= are not bases)
(class_definition
  name: (identifier) @base.class
  superclasses: (argument_list
    [(identifier) (attribute) (subscript) (call)] @base.name))
(class_definition
  name: (identifier) @def.name @ident.definition) @def.class
(function_definition
  name: (identifier) @def.name @ident.definition) @def.function
(class_definition
  body: (block [
    (function_definition) @def.method
    (decorated_definition definition: (function_definition) @def.method)]))
; facts.scm — the tree-sitter query that drives fact extraction in the Python frontend
; (src/lang/python.c). The frontend runs it over every file and turns each match into facts
; according to the capture names below; it knows no node types beyond what is written here.
; Grammar: tree-sitter-python 0.23.6. Predicates (#eq? #not-eq? #match? #not-match? #any-of?)
; are evaluated by the frontend. A capture name not listed here is an init error, except names
; starting with "_", which are free for predicates.
;
; Capture-name conventions. A *primary* capture yields one fact per match; its *companions*
; are read from the same match. A *mark* only annotates a node that a primary capture of
; another pattern reports, so marks may come from any pattern.
;
;   primary            companions                 fact emitted
;   @import.module     @import.alias?             IMPORT text=module aux=NULL target=alias;
;                                                 span = the module (plain `import a.b [as c]`)
;   @import.name       @import.from, @import.alias?  IMPORT text=from-module aux=name target=alias;
;                                                 span = the name
;   @import.star       @import.from               IMPORT text=from-module aux="*"; span = the `*`
;   @base.name         @base.class                BASE text=base as written aux=class name
;   @call.callee                                  CALL text=callee as written; span = the callee
;   @call.args         @call.callee               no fact: everything inside this node has the
;                                                 callee as its innermost call (IDENT aux, the
;                                                 `call` of strings)
;   @kwarg.name                                   KWARG text=keyword aux=callee of the call whose
;                                                 argument list holds it (none: a class keyword
;                                                 such as metaclass=, not reported)
;   @attr.name         @attr.object, @attr        ATTR text=name aux=object text; span = the name;
;                                                 @attr is the attribute node, for @attr.store
;   @def.class         @def.name                  DEF aux="class" + a "class" scope
;   @def.function      @def.name                  DEF aux="function"|"method" + a scope; scope
;                                                 names are qualified by the enclosing scopes
;   @ident                                        IDENT text=identifier aux=innermost callee
;   @string.content    @string                    text (ctx STRING or DOCSTRING) at the piece
;   @comment                                      text (ctx COMMENT) after the '#'
;   @bind.target       @bind.value                BIND text=target aux=value text; span = the
;                                                 value (plain and tuple assignments: the
;                                                 frontend binds each target of `a, b = x, y`
;                                                 to its entry, else to element k: flag ELEM)
;   @bind.return                                  BIND flag RETURN text="" aux=value text; span =
;                                                 the returned value (`return a, b`: one per
;                                                 entry, flag ELEM, section = its position)
;   @bind.param                                   BIND flag PARAM text=parameter name aux="";
;                                                 section = its position (the frontend counts)
;   @bind.for          @bind.value                BIND flag ITER text=loop variable aux=the
;                                                 container (`exes`, the `d` of d.values())
;   @bind.arg          @bind.kw?                  BIND flag ARG text=callee of the enclosing
;                                                 call aux=argument text section=keyword or
;                                                 position (names, attributes and calls only:
;                                                 a literal carries no legacy object)
;   @stmt                                         no fact: the code facts inside this simple
;                                                 statement carry its span (the lines a
;                                                 removal of a multi-line call must take)
;
;   marks
;   @attr.store        on an attribute node: it is assigned to (flag STORE)
;   @def.method        on a function_definition directly in a class body: aux/kind "method"
;   @ident.definition  on an identifier naming a class or function: flag DEFINITION
;   @string            on string / concatenated_string nodes: string context for query rules
;   @docstring         on the string (and concatenated_string with its strings) that is the first
;                      statement of a module, class or function body: DOCSTRING, not STRING
;
;   @string also serves as the companion of @string.content (its owner, for @docstring).
;
; Keep patterns shallow. The 0.20 runtime analyses every pattern at init, and nested or
; quantified steps under `block` cost milliseconds each. A match that waits for a child behind
; a deep subtree (a keyword argument after `f(f(f(...)))`) stays in progress all the while, so
; deep nesting would hit the match limit: that is why @kwarg.name takes its callee from the
; enclosing @call.args rather than from its own pattern. Comments before a def's first
; statement belong to the def, not to its block, so only the module needs `(comment)*`.
;
; A step with children that names its node type is analysed at init over every parse state
; that type can occur in (`block` ~14M instructions, `expression_statement` ~12M, `call` ~10M);
; a wildcard `(_ ...)` is not analysed at all. So where the field alone fixes the node type
; (a class's or function's `body:` is always a `block`: node-types.json of the grammar), the
; step is written `(_ ...)`: the same matches, a fifth less to compile.

; ---- imports
; (a name and an aliased name in one pattern each: one analysis of its statement at init)
(import_statement
  name: [
    (dotted_name) @import.module
    (aliased_import
      name: (dotted_name) @import.module
      alias: (identifier) @import.alias)])
(import_from_statement
  module_name: (_) @import.from
  name: [
    (dotted_name) @import.name
    (aliased_import
      name: (dotted_name) @import.name
      alias: (identifier) @import.alias)])
(import_from_statement
  module_name: (_) @import.from
  (wildcard_import) @import.star)
(future_import_statement
  "__future__" @import.from
  name: [
    (dotted_name) @import.name
    (aliased_import
      name: (dotted_name) @import.name
      alias: (identifier) @import.alias)])

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
  body: (_ [
    (function_definition) @def.method
    (decorated_definition definition: (function_definition) @def.method)]))

; ---- calls and keyword arguments
(call
  function: (_) @call.callee
  arguments: (_) @call.args)
(keyword_argument
  name: (identifier) @kwarg.name)

; ---- attributes; stores: plain, augmented, annotated and tuple/list targets, for/with targets
(attribute
  object: (_) @attr.object
  attribute: (identifier) @attr.name) @attr
(assignment left: (attribute) @attr.store)
(augmented_assignment left: (attribute) @attr.store)
(pattern_list (attribute) @attr.store)
(tuple_pattern (attribute) @attr.store)
(list_pattern (attribute) @attr.store)
(list_splat_pattern (attribute) @attr.store)
(for_statement left: (attribute) @attr.store)
(for_in_clause left: (attribute) @attr.store)
(as_pattern_target (attribute) @attr.store)

; ---- identifiers
(identifier) @ident

; ---- strings, docstrings and comments
[(string) (concatenated_string)] @string
(string
  (string_content) @string.content) @string
(module . (comment)* . (expression_statement
  [(string) (concatenated_string (string) @docstring)] @docstring))
(class_definition body: (_ . (expression_statement
  [(string) (concatenated_string (string) @docstring)] @docstring)))
(function_definition body: (_ . (expression_statement
  [(string) (concatenated_string (string) @docstring)] @docstring)))
(comment) @comment

; ---- simple statements: the range of every code fact inside them
[(expression_statement) (return_statement) (raise_statement) (assert_statement)
 (delete_statement) (import_statement) (import_from_statement)] @stmt

; ---- bindings, for legacy-object flow (core/flow.c): `x = v`, `self.x = v`, `a, b = v`, return v
; One pattern, so that its `assignment` is analysed once at init, not three times (~8M
; instructions). Its alternatives stay flat: with the first two in a nested alternation of
; their own, tree-sitter 0.20.7 lost the binding `self.pe = ...` of test_bindings.
(assignment
  left: [
    (identifier) @bind.target
    (attribute) @bind.target
    (pattern_list [(identifier) (attribute)] @bind.target)
    (tuple_pattern [(identifier) (attribute)] @bind.target)]
  right: (_) @bind.value)
(return_statement (_) @bind.return)
; `for e in exes:`, `for i, e in enumerate(exes)`, `[e.run() for e in exes]`: e is an element
(for_statement left: (_) @bind.for right: (_) @bind.value)
(for_in_clause left: (_) @bind.for right: (_) @bind.value)

; ---- parameters and the arguments that bind them: a legacy object passed to a function of
; the module (`train(train_exe)`, `train(exe=train_exe)`) is followed into its body
(parameters (identifier) @bind.param)
(parameters (default_parameter name: (identifier) @bind.param))
(parameters (typed_parameter (identifier) @bind.param))
(parameters (typed_default_parameter name: (identifier) @bind.param))
(argument_list [(identifier) (attribute) (call)] @bind.arg)
(keyword_argument
  name: (identifier) @bind.kw
  value: [(identifier) (attribute) (call)] @bind.arg)
; `Thread(target=worker, args=(i, train_exe))`: the tuple's entries are worker's arguments
(keyword_argument
  name: (identifier) @bind.kw (#eq? @bind.kw "args")
  value: (tuple) @bind.arg)

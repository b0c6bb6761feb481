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
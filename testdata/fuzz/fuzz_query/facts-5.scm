; ---- identifiers
(identifier) @ident
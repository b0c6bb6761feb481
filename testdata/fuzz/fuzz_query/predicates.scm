@n
((call function: (attribute attribute: (identifier) @n)) (#match? @n "^Parallel") (#not-eq? @n "x"))
#!/bin/sh
# lint-allow.sh FILE — of the "file:line: KEY: ..." lines on stdin (scripts/lint-funcs.sh,
# scripts/lint-paddle.sh), prints those whose "file KEY" FILE does not name (a line of its
# own; # comments): the known exceptions a lint lets pass.
allow=$1
while IFS= read -r l; do
    [ -n "$l" ] || continue
    f=${l%%:*}
    n=$(printf '%s' "$l" | sed 's/^[^:]*:[0-9]*: \([A-Za-z0-9_]*\):.*/\1/')
    grep -v '^#' "$allow" | grep -qxF "$f $n" || printf '%s\n' "$l"
done

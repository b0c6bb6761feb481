#!/bin/sh
# lint-funcs.sh [--list] [--allow FILE] LIMIT DIR... — every C function definition in the .c
# files below DIR (test/ and fuzz/ directories left out) that is LIMIT lines long or longer,
# counted from the line whose '{' opens its body to the closing brace at column 0, printed as
# "file:line: name: N lines". --list only prints them. Otherwise the lint fails (exit 1) on
# each one that FILE does not name: FILE holds "file name" lines (# comments), the known
# exceptions still to be split, so that nothing new grows past the limit.
# Definitions are found by shape, the project's style (a signature at column 0 whose line, or
# a continuation line, ends in '{'; the body closes with '}' alone at column 0), not parsed: a
# function a macro expands into is not seen.
list=0 allow=/dev/null
while :; do
    case $1 in
    --list) list=1; shift ;;
    --allow) allow=$2; shift 2 ;;
    *) break ;;
    esac
done
limit=$1
shift
found=$(find "$@" -name '*.c' -not -path '*/test/*' -not -path '*/fuzz/*' | LC_ALL=C sort | while read -r f; do
    awk -v file="$f" -v limit="$limit" '
    # a definition opens at column 0: a type, a name and "(" (no "=" before it: not a
    # variable); its parameters may run on over lines up to the "{" that ends one
    !body && !sig && /^[A-Za-z_][A-Za-z0-9_ \t\*]*[ \t\*][A-Za-z_][A-Za-z0-9_]*\(/ && !/^[^(]*=/ && !/^(typedef|extern)[ \t]/ {
        name = $0
        sub(/\(.*/, "", name)
        sub(/.*[ \t\*]/, "", name)
        sig = 1
    }
    sig && /[;}][ \t]*$/ { sig = 0; next } # a declaration, or a one-line body
    sig && /\{[ \t]*$/ { sig = 0; body = 1; start = NR; next }
    body && /^}/ {
        n = NR - start + 1
        if (n >= limit) printf "%s:%d: %s: %d lines\n", file, start, name, n
        body = 0
    }' "$f"
done)
if [ "$list" = 1 ]; then
    [ -n "$found" ] && printf '%s\n' "$found"
    exit 0
fi
bad=$(printf '%s\n' "$found" | sh "$(dirname "$0")/lint-allow.sh" "$allow")
[ -z "$bad" ] && exit 0
printf '%s\n' "$bad" | sed "s/\$/ (the limit is under $limit; split it, README \"Architecture\")/"
exit 1

#!/bin/sh
# lint-stderr.sh [DIR...] — nothing below cmd/ writes to the terminal (README "Architecture"):
# fails when a .c or .h file of DIR (default src/base src/core src/lang src/analysis
# src/report) calls fprintf, vfprintf, fputs, fputc, putc or fwrite on stderr, or perror,
# or writes to file descriptor 2, outside comments and strings. Errors are returned as a
# sunset_error and printed by cmd/; notes and progress lines go through sunset_note, whose one
# writer the session installs (cmd/session.c). Prints FILE:LINE: what for each and exits 1
# if there is any. POSIX sh and awk only.
set -u
[ $# -gt 0 ] || set -- src/base src/core src/lang src/analysis src/report
files=$(find "$@" -name '*.[ch]' | sort)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086
awk -f "$(dirname "$0")/c-code.awk" -f /dev/stdin $files <<'EOF'
FNR == 1 { incomment = 0 }
{
    out = code_of($0)
    s = " " out
    what = ""
    if (s ~ /[^A-Za-z0-9_](v?fprintf|fputs|fputc|putc|fwrite|vdprintf|dprintf)[ \t]*\(.*stderr/) what = "writes to stderr"
    else if (s ~ /[^A-Za-z0-9_]perror[ \t]*\(/) what = "perror()"
    else if (s ~ /[^A-Za-z0-9_](v?dprintf|write)[ \t]*\([ \t]*(2|STDERR_FILENO)[ \t]*,/) what = "writes to file descriptor 2"
    if (what != "") {
        printf "%s:%d: %s: return a sunset_error (base/util.h) or say it with sunset_note\n", FILENAME, FNR, what
        bad = 1
    }
}
END { exit bad }
EOF

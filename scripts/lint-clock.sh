#!/bin/sh
# lint-clock.sh [DIR] — no test reads the clock for its verdict (README "Tests and
# benchmarks"): fails when a .c or .h file of DIR (default src/test) calls a function that
# reads the time or waits for it (clock_gettime, gettimeofday, time, clock, timespec_get,
# ftime, getrusage, times, difftime, sleep, usleep, nanosleep, clock_nanosleep, or sunset's
# own sunset_clock_ms) outside comments and strings. A time limit is tested through the fake
# clock of fakeclock.h (sunset_set_clock), the one file exempt, and a file that sets a time
# limit (parse_budget_ms, --parse-budget, other than 0: none) must include it, so that the
# real clock never decides its outcome; alarm() is allowed as a hang guard only (it can turn a hang into a
# failure, never decide a pass). Prints FILE:LINE: what for each and exits 1 if there is
# any. POSIX sh and awk only.
set -u
dir=${1:-src/test}
files=$(find "$dir" -name '*.[ch]' ! -name fakeclock.h | sort)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086
awk -f "$(dirname "$0")/c-code.awk" -f /dev/stdin $files <<'EOF'
function budget_check() {
    if (budget_at && !fake)
        printf "%s:%d: sets a time limit without test/fakeclock.h: the machine's speed would decide\n", file, budget_at
    if (budget_at && !fake) bad = 1
}
FNR == 1 { budget_check(); file = FILENAME; incomment = 0; budget_at = 0; fake = 0 }
/^[ \t]*#[ \t]*include[ \t]*"test\/fakeclock\.h"/ { fake = 1 }
/parse_budget_ms[ \t]*=[ \t]*([1-9a-zA-Z_(]|0[0-9xX])|--parse-budget[ =]+[1-9]/ { if (!budget_at) budget_at = FNR }
{
    out = code_of($0)
    s = " " out
    while (match(s, /[^A-Za-z0-9_.>](clock_gettime|gettimeofday|time|clock|timespec_get|ftime|getrusage|times|difftime|sleep|usleep|nanosleep|clock_nanosleep|sunset_clock_ms)[ \t]*\(/)) {
        call = substr(s, RSTART + 1, RLENGTH - 1); sub(/[ \t]*\($/, "", call)
        printf "%s:%d: %s(): the clock must not decide a test; drive the time limit with test/fakeclock.h\n", FILENAME, FNR, call
        bad = 1
        s = substr(s, RSTART + RLENGTH)
    }
}
END { budget_check(); exit bad }
EOF

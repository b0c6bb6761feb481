#!/bin/sh
# lint-paddle.sh [--list] [--allow FILE] DIR... — what sunset knows of Paddle is data
# (rules/00-settings.json, read by src/core/settings.c), not code: every line of the .c and .h
# files below DIR (test/ and fuzz/ directories, and the settings loader, left out) whose code,
# comments blanked, holds
#   macro  a Paddle macro name as a string literal ("REGISTER_PASS", "USE_OP", "PHI_DEFINE_...",
#          "DEFINE_bool" ...): settings.macros;
#   cmake  a CMake wrapper command or section keyword of Paddle's as a string literal
#          ("cc_library", "py_test_modules", "SRCS", "DEPS" ...): settings.cmake;
#   task   a task bound of its own (HISTORY_TASKS, a NAME_TASKS constant, a task number
#          compared with a number, "1..6"): the tasks are settings.tasks, stored up to
#          core/result.h's SUNSET_TASKS,
# printed as "file:line: kind: text". --list only prints them. Otherwise the lint fails (exit 1)
# on each one whose "file kind" FILE does not name (# comments): the known exceptions still to
# be moved, so that no new one is added.
list=0 allow=/dev/null
while :; do
    case $1 in
    --list) list=1; shift ;;
    --allow) allow=$2; shift 2 ;;
    *) break ;;
    esac
done
macro='"(REGISTER_[A-Z_]+|USE_[A-Z_]*(OP|PASS)[A-Z_]*|PD_[A-Z_]+|(PHI|PADDLE|COMMON)_[A-Z_]*|DEFINE_[A-Za-z0-9_]*|DECLARE_[A-Za-z0-9_]*)[ "]'
cmake='"([a-z0-9]+_)*(cc|nv|hip|xpu|py|go|op|cinn|cuda|paddle|inference)_[a-z_]*(library|test|binary|modules)[a-z_]*"|"(SRCS|DEPS|MODULES|ENVS|EXTRA_DEPS|START_BASH|SERIAL)"'
task='HISTORY_TASKS|[A-Z_]+_TASKS *= *[0-9]|define +[A-Z_]+_TASKS +[0-9]|task[a-z_]*\)? *<=? *[0-9]+|[^.0-9]1\.\.[0-9][^.0-9]'
found=$(find "$@" \( -name '*.c' -o -name '*.h' \) -not -path '*/test/*' -not -path '*/fuzz/*' \
        -not -path '*/core/settings.c' | LC_ALL=C sort | while read -r f; do
    # blank comments (/* */ across lines, //), keeping strings and line numbers
    awk '{
        out = ""; i = 1; n = length($0); str = 0
        while (i <= n) {
            c = substr($0, i, 1); d = substr($0, i, 2)
            if (cmt) { if (d == "*/") { cmt = 0; i += 2 } else i++; continue }
            if (str) { out = out c; if (c == "\\") { out = out substr($0, i + 1, 1); i += 2; continue }
                       if (c == str) str = 0; i++; continue }
            if (d == "/*") { cmt = 1; i += 2; continue }
            if (d == "//") break
            if (c == "\"" || c == "'\''") str = c
            out = out c; i++
        }
        print out
    }' "$f" | awk -v file="$f" -v macro="$macro" -v cmake="$cmake" -v task="$task" '
        $0 ~ macro { printf "%s:%d: macro: %s\n", file, NR, $0 }
        $0 ~ cmake { printf "%s:%d: cmake: %s\n", file, NR, $0 }
        $0 ~ task { printf "%s:%d: task: %s\n", file, NR, $0 }'
done)
if [ "$list" = 1 ]; then
    [ -n "$found" ] && printf '%s\n' "$found"
    exit 0
fi
bad=$(printf '%s\n' "$found" | sh "$(dirname "$0")/lint-allow.sh" "$allow")
if [ -n "$bad" ]; then
    printf '%s\n' "$bad"
    echo "lint-paddle: Paddle knowledge in code; move it to rules/00-settings.json (rules/SCHEMA.md)" >&2
    exit 1
fi
n=$(printf '%s' "$found" | grep -c . || true)
echo "lint-paddle: no Paddle macro, CMake command or task bound in code ($n allowed in $allow)"

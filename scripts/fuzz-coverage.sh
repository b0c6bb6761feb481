#!/bin/sh
# fuzz-coverage.sh BUILD [HARNESS...] — lines of src/ each harness reaches on its committed
# inputs. BUILD holds harnesses built with -fprofile-instr-generate -fcoverage-mapping
# (`make fuzz-coverage` builds them into build-cov/); each replays its seeds once (the inputs
# of `fuzz.sh regress`, without mutations) and llvm-cov counts the lines of src/ (not the
# harnesses, not the grammar) that ran. Prints one line per harness and the union of all.
set -u
build=${1:?usage: fuzz-coverage.sh BUILD [HARNESS...]}
shift
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-14/bin}
export LC_ALL=C
[ $# -gt 0 ] || set -- $(cd "$build/fuzz" && ls fuzz_* 2>/dev/null)
prof=$build/prof
rm -rf "$prof" && mkdir -p "$prof/empty"
objs=
printf '%-15s %8s %8s %7s\n' harness covered lines percent
for h in "$@"; do
    # a harness that writes its own seed (fuzz_cache) profiles that run apart: not counted
    LLVM_PROFILE_FILE="$prof/gen/$h.profraw" sh scripts/fuzz.sh seeds "$build" "$h" > "$prof/$h.inputs" || exit 2
    LLVM_PROFILE_FILE="$prof/$h.profraw" "$build/fuzz/$h" -runs=0 -timeout=60 -max_len=65536 \
        -seed_inputs="@$(paste -sd, "$prof/$h.inputs" > "$prof/$h.csv"; echo "$prof/$h.csv")" \
        "$prof/empty" >"$prof/$h.log" 2>&1 || { echo "$h: replay failed, see $prof/$h.log" >&2; }
    "$LLVM_BIN/llvm-profdata" merge -sparse -o "$prof/$h.profdata" "$prof/$h.profraw" || exit 2
    "$LLVM_BIN/llvm-cov" report "$build/fuzz/$h" -instr-profile="$prof/$h.profdata" \
        -ignore-filename-regex='(src/fuzz/|grammar/|/usr/)' > "$prof/$h.report" 2>/dev/null
    # TOTAL row: ... Lines Missed Cover ... (columns 8-10 of llvm-cov 14's report)
    awk -v h="$h" '/^TOTAL/ {printf "%-15s %8d %8d %7s\n", h, $8 - $9, $8, $10}' "$prof/$h.report"
    objs="$objs -object $build/fuzz/$h"
done
# the union: every profile merged, against every binary
"$LLVM_BIN/llvm-profdata" merge -sparse -o "$prof/all.profdata" "$prof"/*.profraw || exit 2
first=$(echo $objs | awk '{print $2}')
"$LLVM_BIN/llvm-cov" report $first $(echo $objs | cut -d' ' -f3-) -instr-profile="$prof/all.profdata" \
    -ignore-filename-regex='(src/fuzz/|grammar/|/usr/)' > "$prof/all.report" 2>/dev/null
awk '/^TOTAL/ {printf "%-15s %8d %8d %7s\n", "(all)", $8 - $9, $8, $10}' "$prof/all.report"

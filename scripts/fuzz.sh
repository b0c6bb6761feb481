#!/bin/sh
# fuzz.sh BUILD SECONDS [HARNESS...] — run each libFuzzer harness BUILD/fuzz/HARNESS for
# SECONDS, from the repository root. Seeds and kept crash inputs are read from
# testdata/fuzz/HARNESS/ and, for the harnesses that take plain source files, from the sample
# trees, rules and queries themselves (never written); new corpus entries go to BUILD/corpus/HARNESS/,
# crash/timeout/leak inputs to BUILD/artifacts/ and logs to BUILD/logs/. Prints one line per
# harness (executions, corpus size, crashes) and exits 1 if any harness found a crash.
# Default harnesses: every BUILD/fuzz/fuzz_*.
set -u
build=${1:?usage: fuzz.sh BUILD SECONDS [HARNESS...]}
secs=${2:?usage: fuzz.sh BUILD SECONDS [HARNESS...]}
shift 2
[ $# -gt 0 ] || set -- $(cd "$build/fuzz" && ls fuzz_* 2>/dev/null)
[ $# -gt 0 ] || { echo "fuzz.sh: no harnesses in $build/fuzz" >&2; exit 2; }
mkdir -p "$build/artifacts" "$build/logs"
failed=0
printf '%-14s %10s %8s %8s  %s\n' harness execs exec/s corpus result
for h in "$@"; do
    mkdir -p "$build/corpus/$h"
    seeds=testdata/fuzz/$h
    [ -d "$seeds" ] || seeds=
    # the project's own sample files seed the harnesses that take them as they are (read
    # only: libFuzzer writes new units to the first directory alone), instead of copies
    case $h in
    fuzz_clang) seeds="$seeds testdata/clang testdata/paddle-mini/paddle testdata/paddle-mini/test/cpp" ;;
    fuzz_python) seeds="$seeds testdata/paddle-mini/python testdata/paddle-mini/test testdata/paddle-mini/tools" ;;
    fuzz_query) seeds="$seeds queries/python" ;;
    fuzz_rules) seeds="$seeds rules" ;;
    fuzz_text)
        # the first byte picks the file kind (fuzz_text.c's path table): the sample tree's
        # text files, each behind its kind's byte
        gen=$build/seeds/$h
        rm -rf "$gen" && mkdir -p "$gen"
        find testdata/paddle-mini -type f | sort | while read -r f; do
            case $f in
            */CMakeLists.txt) k=0 ;; *.cmake) k=1 ;; *.proto) k=2 ;; *.sh) k=3 ;;
            *.md) k=4 ;; *.rst) k=5 ;; */CODEOWNERS|*.txt) k=6 ;; *) continue ;;
            esac
            { printf "\\00$k"; cat "$f"; } > "$gen/$k-$(echo "$f" | tr / _)"
        done
        seeds="$seeds $gen" ;;
    esac
    log=$build/logs/$h.log
    # -timeout: one input taking longer is a hang, reported like a crash; -rss_limit_mb bounds
    # memory. Leaks inside libclang itself are suppressed by the harness (see fuzz_engine.h).
    "$build/fuzz/$h" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$build/artifacts/$h-" \
        "$build/corpus/$h" $seeds >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    corpus=$(ls "$build/corpus/$h" | wc -l)
    if [ $rc -eq 0 ]; then result=ok; else
        result="CRASH (exit $rc; see $log, input in $build/artifacts/)"
        failed=1
    fi
    printf '%-14s %10s %8s %8s  %s\n' "$h" "${execs:-?}" "${rate:-?}" "$corpus" "$result"
done
exit $failed

#!/bin/sh
# fuzz.sh MODE BUILD [SECONDS] [HARNESS...] — run the libFuzzer harnesses BUILD/fuzz/HARNESS
# from the repository root. Default harnesses: every BUILD/fuzz/fuzz_*.
#
#   regress BUILD [HARNESS...]          the CI gate: every committed seed and crash input
#                                       (testdata/fuzz/HARNESS/, regress-* included, plus the
#                                       sample files below) is run exactly once, in sorted order
#                                       (-seed_inputs), into an empty output corpus, -seed=1, no
#                                       clock: the same commit runs the same executions and gets
#                                       the same verdict. FUZZ_MUTATIONS=N adds N mutations, but
#                                       their path is not reproducible (the coverage feedback of
#                                       fuzz_clang, fuzz_text, fuzz_index and fuzz_walk varies from
#                                       run to run), so the gate runs none.
#   explore BUILD SECONDS [HARNESS...]  random exploration for SECONDS per harness (a person
#                                       or a scheduled job): new corpus entries accumulate in
#                                       BUILD/corpus/HARNESS/, crash/timeout/leak inputs go to
#                                       BUILD/artifacts/.
#   seeds BUILD HARNESS                 print the seed files of HARNESS, one a line, sorted
#                                       (scripts/fuzz-coverage.sh replays them).
#
# Committed inputs are never written (libFuzzer writes new units to the first corpus
# directory only, which is under BUILD). Logs go to BUILD/logs/. Prints one line per harness
# (executions, exec/s, result) and exits 1 if any harness crashed, timed out or leaked.
set -u
usage='usage: fuzz.sh regress|explore|seeds BUILD [SECONDS] [HARNESS...]'
mode=${1:?$usage}
build=${2:?$usage}
shift 2
case $mode in
explore) secs=${1:?$usage}; shift ;;
regress|seeds) ;;
*) echo "$usage" >&2; exit 2 ;;
esac
export LC_ALL=C

# seed_dirs HARNESS: the directories and generated files that seed it. The project's own
# sample files seed the harnesses that take them as they are (read only), instead of copies.
seed_dirs() {
    h=$1
    dirs=
    [ -d "testdata/fuzz/$h" ] && dirs=testdata/fuzz/$h
    case $h in
    fuzz_clang) dirs="$dirs testdata/clang testdata/paddle-mini/paddle testdata/paddle-mini/test/cpp" ;;
    fuzz_python) dirs="$dirs testdata/paddle-mini/python testdata/paddle-mini/test testdata/paddle-mini/tools" ;;
    fuzz_query) dirs="$dirs queries/python" ;;
    fuzz_rules) dirs="$dirs rules" ;;
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
        dirs="$dirs $gen" ;;
    fuzz_cache)
        # a cache written by the harness itself from the current rule set, so the seed's
        # rule ids always exist (a committed cache file goes stale when a rule is renamed)
        gen=$build/seeds/$h
        rm -rf "$gen" && mkdir -p "$gen"
        FUZZ_CACHE_SEED_OUT=$gen/generated.cache "$build/fuzz/$h" >"$build/logs/$h-seed.log" 2>&1 ||
            { echo "fuzz.sh: $h could not write its seed (see $build/logs/$h-seed.log)" >&2; return 1; }
        dirs="$dirs $gen" ;;
    esac
    echo "$dirs"
}

# The JSON-consuming harnesses get the JSON dictionary.
dict_of() {
    case $1 in
    fuzz_rules|fuzz_config|fuzz_compdb|fuzz_baseline|fuzz_merge|fuzz_tracking|fuzz_notebook) echo "-dict=testdata/fuzz/json.dict" ;;
    fuzz_walk) echo "-dict=testdata/fuzz/glob.dict" ;;
    esac
}

[ $# -gt 0 ] || set -- $(cd "$build/fuzz" 2>/dev/null && ls fuzz_* 2>/dev/null)
[ $# -gt 0 ] || { echo "fuzz.sh: no harnesses in $build/fuzz" >&2; exit 2; }
mkdir -p "$build/artifacts" "$build/logs"

if [ "$mode" = seeds ]; then
    dirs=$(seed_dirs "$1") || exit 2
    find $dirs -type f | sort
    exit 0
fi

failed=0
# regress prints no rate: its output is the same on every run of a commit
if [ "$mode" = regress ]; then printf '%-15s %7s %8s  %s\n' harness inputs execs result
else printf '%-15s %7s %10s %8s  %s\n' harness inputs execs exec/s result; fi
for h in "$@"; do
    log=$build/logs/$h.log
    dirs=$(seed_dirs "$h") || { failed=1; continue; }
    list=$build/logs/$h.inputs
    find $dirs -type f | sort > "$list"
    n=$(wc -l < "$list")
    paste -sd, "$list" > "$list.csv"
    if [ "$mode" = regress ]; then
        out=$build/regress/$h
        rm -rf "$out" && mkdir -p "$out"
        # -runs counts the replayed inputs too (and libFuzzer's own empty input)
        runs=$((n + 1 + ${FUZZ_MUTATIONS:-0}))
        budget="-runs=$runs -seed=1"
    else
        out=$build/corpus/$h
        mkdir -p "$out"
        budget="-max_total_time=$secs"
    fi
    # -timeout: one input taking longer is a hang, reported like a crash; -rss_limit_mb bounds
    # memory. Leaks inside libclang itself are suppressed by the harness (see fuzz_engine.h).
    # shellcheck disable=SC2046
    "$build/fuzz/$h" $budget -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$build/artifacts/$h-" $(dict_of "$h") \
        -seed_inputs="@$list.csv" "$out" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then result=ok; else
        result="CRASH (exit $rc; see $log, input in $build/artifacts/)"
        failed=1
    fi
    if [ "$mode" = regress ]; then printf '%-15s %7s %8s  %s\n' "$h" "$n" "${execs:-?}" "$result"
    else printf '%-15s %7s %10s %8s  %s\n' "$h" "$n" "${execs:-?}" "${rate:-?}" "$result"; fi
done
exit $failed

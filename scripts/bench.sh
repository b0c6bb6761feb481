#!/usr/bin/env bash
# bench.sh — time `sunset scan` against ripgrep on a Paddle-sized tree.
#
#   scripts/bench.sh [--tree DIR] [--runs N] [--jobs J] [--seed S] [--files N] [--scale F] [--no-build]
#
# Without --tree, a deterministic synthetic tree (scripts/gen-tree.py: ~14,200 files, ~110 MB)
# is generated into build/bench/ and cached there by seed, size and generator version.
# --tree DIR measures a real checkout instead (e.g. an unpacked Paddle tree).
#
# Steps: install ripgrep (the reference) and GNU time if missing, build sunset (make build/sunset),
# warm the page cache, then run, interleaved, N times each:
#     rg -c -F -f scripts/bench-keywords.txt -j J TREE
#     build/sunset scan TREE --format json -j J          (report to stdout, sent to /dev/null)
# and print the median wall time, the peak RSS, the ratio sunset/rg, the number of files
# scanned and findings (from one more run's JSON "stats"), and whether the targets are met:
# time ratio <= 4.0 and peak memory < 150 MB. A missed target is reported, not an error:
# the script exits non-zero only when something fails to run.
#
# The report goes to stdout redirected to /dev/null. (sunset's --output writes special files
# such as /dev/null in place; before that fix, its temp-file-and-rename replaced the device.)

set -eu -o pipefail

TARGET_RATIO=4.0
TARGET_MB=150

prog=bench
die() { echo "$prog: error: $*" >&2; exit 1; }
note() { echo "$prog: $*" >&2; }

usage() {
    sed -n '2,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
    cat <<EOF
options:
  --tree DIR    scan DIR instead of the synthetic tree
  --runs N      timed runs per tool (default 5)
  --jobs J      threads for both tools (default: nproc)
  --seed S      synthetic tree seed (default 1)
  --files N     synthetic tree file count (default 14176)
  --scale F     synthetic tree size multiplier (default 1.0)
  --no-build    do not run make; benchmark the existing build/sunset
  -h, --help    this help
EOF
}

TREE=""
RUNS=5
JOBS=""
SEED=1
FILES=14176
SCALE=1.0
BUILD=1
while [ $# -gt 0 ]; do
    case "$1" in
        --tree) [ $# -ge 2 ] || die "--tree needs a directory"; TREE=$2; shift 2 ;;
        --tree=*) TREE=${1#*=}; shift ;;
        --runs) [ $# -ge 2 ] || die "--runs needs a number"; RUNS=$2; shift 2 ;;
        --runs=*) RUNS=${1#*=}; shift ;;
        --jobs|-j) [ $# -ge 2 ] || die "--jobs needs a number"; JOBS=$2; shift 2 ;;
        --jobs=*) JOBS=${1#*=}; shift ;;
        --seed) [ $# -ge 2 ] || die "--seed needs a number"; SEED=$2; shift 2 ;;
        --seed=*) SEED=${1#*=}; shift ;;
        --files) [ $# -ge 2 ] || die "--files needs a number"; FILES=$2; shift 2 ;;
        --files=*) FILES=${1#*=}; shift ;;
        --scale) [ $# -ge 2 ] || die "--scale needs a number"; SCALE=$2; shift 2 ;;
        --scale=*) SCALE=${1#*=}; shift ;;
        --no-build) BUILD=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
isint() { case "$1" in ''|*[!0-9]*) return 1 ;; *) [ "$1" -ge 1 ] ;; esac; }
isint "$RUNS" || die "--runs must be a positive integer (got '$RUNS')"
isint "$FILES" || die "--files must be a positive integer (got '$FILES')"
case "$SEED" in ''|*[!0-9]*) die "--seed must be a non-negative integer (got '$SEED')" ;; esac
case "$SCALE" in ''|*[!0-9.]*|*.*.*|.) die "--scale must be a positive number (got '$SCALE')" ;; esac
[ -n "$JOBS" ] || JOBS=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
isint "$JOBS" || die "--jobs must be a positive integer (got '$JOBS')"

# --- repository root, independent of the caller's cwd --------------------------------------
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(git -C "$SCRIPT_DIR" rev-parse --show-toplevel 2>/dev/null || (cd "$SCRIPT_DIR/.." && pwd))
[ -f "$ROOT/Makefile" ] || die "cannot find the repository root (looked at $ROOT)"
KEYWORDS=$ROOT/scripts/bench-keywords.txt
GEN=$ROOT/scripts/gen-tree.py
SUNSET=$ROOT/build/sunset
[ -s "$KEYWORDS" ] || die "missing keyword list $KEYWORDS"
if [ -n "$TREE" ]; then
    [ -d "$TREE" ] || die "--tree $TREE is not a directory"
    TREE=$(cd "$TREE" && pwd)
fi

command -v python3 >/dev/null 2>&1 || die "python3 is required (tree generator, statistics)"

# --- (a) tools: ripgrep is the reference, GNU time measures peak RSS -------------------------
apt_install() {   # apt_install PACKAGE: only called when the tool is absent
    command -v apt-get >/dev/null 2>&1 || return 1
    [ "$(id -u)" = 0 ] || { note "not root: cannot apt-get install $1"; return 1; }
    note "installing $1 (apt-get install -y $1)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$1" >/dev/null 2>&1 && return 0
    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$1" >/dev/null 2>&1
}
if ! command -v rg >/dev/null 2>&1; then
    apt_install ripgrep || die "ripgrep (rg) is missing and could not be installed"
fi
RG=$(command -v rg)
TIME_BIN=""
if [ -n "${BENCH_NO_GNU_TIME:-}" ]; then
    note "BENCH_NO_GNU_TIME set: measuring peak RSS with python3 os.wait4"
elif [ -x /usr/bin/time ] && /usr/bin/time -f '%e %M' true >/dev/null 2>&1; then
    TIME_BIN=/usr/bin/time
elif apt_install time && [ -x /usr/bin/time ]; then
    TIME_BIN=/usr/bin/time
else
    note "GNU time unavailable: measuring peak RSS with python3 os.wait4"
fi

# --- (b) build sunset ----------------------------------------------------------------------------
if [ "$BUILD" = 0 ]; then
    [ -x "$SUNSET" ] || die "--no-build given but $SUNSET does not exist"
    note "--no-build: using the existing $SUNSET"
else
    note "building sunset (make build/sunset)"
    MAKELOG=$(mktemp "${TMPDIR:-/tmp}/sunset-bench-make.XXXXXX")
    if ! make -C "$ROOT" --no-print-directory build/sunset >"$MAKELOG" 2>&1; then
        tail -n 30 "$MAKELOG" >&2
        rm -f "$MAKELOG"
        die "make build/sunset failed (log above)"
    fi
    rm -f "$MAKELOG"
    [ -x "$SUNSET" ] || die "make succeeded but $SUNSET is missing"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sunset-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# --- (c) the tree ------------------------------------------------------------------------------
if [ -z "$TREE" ]; then
    [ -f "$GEN" ] || die "missing generator $GEN"
    GENHASH=$(sha256sum "$GEN" | cut -c1-12)
    CACHE=$ROOT/build/bench
    TREE=$CACHE/tree-s$SEED-n$FILES-x$SCALE-$GENHASH
    if [ -f "$TREE.done" ] && [ -d "$TREE" ]; then
        note "using cached synthetic tree $TREE"
    else
        mkdir -p "$CACHE"
        # drop trees made by an older generator for the same parameters
        for old in "$CACHE/tree-s$SEED-n$FILES-x$SCALE-"*; do
            [ -e "$old" ] || continue
            case "$old" in "$TREE"|"$TREE".*) ;; *) rm -rf "$old" ;; esac
        done
        rm -rf "$TREE" "$TREE.tmp" "$TREE.done"
        note "generating synthetic tree (seed $SEED, $FILES files, scale $SCALE) into $TREE"
        python3 "$GEN" "$TREE.tmp" --seed "$SEED" --files "$FILES" --scale "$SCALE" >"$TREE.json" \
            || die "tree generation failed"
        mv "$TREE.tmp" "$TREE"
        touch "$TREE.done"
    fi
fi

# --- (d) measure -------------------------------------------------------------------------------
if [ ! -c /dev/null ]; then
    note "WARNING: /dev/null is not a character device (was it replaced by 'sunset --output /dev/null' as root?);"
    note "         discarded output is being written to a file, which skews the timings. Restore it with:"
    note "         mknod -m 666 /dev/null.new c 1 3 && mv -f /dev/null.new /dev/null"
fi
note "warming the page cache ($TREE)"
find "$TREE" -type f -print0 | xargs -0 cat >/dev/null 2>&1 || true

# measure NAME CMD...: one run; appends "seconds peak_kb" to $WORK/NAME.txt; output discarded.
# rg exits 1 when nothing matches, which is not an error.
measure() {
    local name=$1; shift
    local rc=0 t0 t1 kb
    if [ -n "$TIME_BIN" ]; then
        t0=$(date +%s%N)
        "$TIME_BIN" -f '%e %M' -o "$WORK/time.out" "$@" >/dev/null 2>"$WORK/$name.err" || rc=$?
        t1=$(date +%s%N)
        kb=$(awk 'END { print $2 }' "$WORK/time.out")
        if [ "$rc" -gt 1 ] || { [ "$rc" = 1 ] && [ "${name%rg}" = "$name" ]; }; then
            cat "$WORK/$name.err" >&2
            die "$name failed (exit $rc): $*"
        fi
        awk -v a="$t0" -v b="$t1" -v kb="$kb" 'BEGIN { printf "%.4f %d\n", (b - a) / 1e9, kb }' >>"$WORK/$name.txt"
    else
        python3 - "$name" "$WORK/$name.txt" "$WORK/$name.err" "$@" <<'EOF' || die "$name failed: $*"
import os, subprocess, sys, time
name, out, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
t0 = time.perf_counter()
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(err, "wb"))
_, status, ru = os.wait4(p.pid, 0)
dt = time.perf_counter() - t0
rc = os.waitstatus_to_exitcode(status)
if rc > 1 or (rc == 1 and not name.endswith("rg")):
    sys.stderr.write(open(err).read())
    sys.exit(1)
open(out, "a").write("%.4f %d\n" % (dt, ru.ru_maxrss))
EOF
    fi
}

RG_CMD=("$RG" -c -F -f "$KEYWORDS" -j "$JOBS" "$TREE")
# cold: no content cache; warm: a cache filled by the warm-up run (it only reads and hashes)
SUNSET_CMD=("$SUNSET" scan "$TREE" --format json -j "$JOBS" -q --no-config --no-cache)
SUNSET_WARM_CMD=("$SUNSET" scan "$TREE" --format json -j "$JOBS" -q --no-config --cache "$WORK/cache")

note "warm-up run of each tool (this also fills sunset's content cache)"
measure warm-rg "${RG_CMD[@]}"
measure warm-sunset "${SUNSET_CMD[@]}"
measure warm-sunset-cache "${SUNSET_WARM_CMD[@]}"
for i in $(seq 1 "$RUNS"); do
    note "run $i/$RUNS"
    measure rg "${RG_CMD[@]}"
    measure sunset "${SUNSET_CMD[@]}"
    measure sunset-warm "${SUNSET_WARM_CMD[@]}"
done

# one more run with the report in a file, for the statistics
"$SUNSET" scan "$TREE" --format json -j "$JOBS" -q --no-config --no-cache --output "$WORK/report.json" \
    || die "sunset scan --output failed"
"$RG" -l -F -f "$KEYWORDS" "$TREE" >"$WORK/rg-files.txt" || [ $? = 1 ] || die "rg -l failed"

# --- history replay: a synthetic cleanup history of 345 first-parent commits -----------------
HIST_REPO="$ROOT/build/bench/history-$(basename "$TREE")"
if [ ! -d "$HIST_REPO/.git" ]; then
    note "building a synthetic 345-commit history (scripts/gen-history.sh)"
    sh "$ROOT/scripts/gen-history.sh" "$TREE" "$HIST_REPO" 345 || die "gen-history.sh failed"
fi
note "replaying the history"
measure history "$SUNSET" history --no-config -q --repo "$HIST_REPO" --max-count 346 -f csv

# --- (e) report --------------------------------------------------------------------------------
python3 - "$WORK" "$TREE" "$RUNS" "$JOBS" "$TARGET_RATIO" "$TARGET_MB" <<'EOF'
import json, os, statistics, sys
work, tree, runs, jobs, target_ratio, target_mb = sys.argv[1:7]
target_ratio, target_mb = float(target_ratio), float(target_mb)

def load(name):
    rows = [l.split() for l in open(os.path.join(work, name + ".txt")) if l.strip()]
    secs = [float(r[0]) for r in rows]
    kbs = [int(r[1]) for r in rows]
    return statistics.median(secs), min(secs), max(secs), max(kbs) / 1024.0

rg = load("rg")
su = load("sunset")
sw = load("sunset-warm")
rep = json.load(open(os.path.join(work, "report.json")))
st = rep.get("stats", {})
rg_files = sum(1 for l in open(os.path.join(work, "rg-files.txt")) if l.strip())
nfiles = nbytes = 0
for dp, dn, fn in os.walk(tree):
    for f in fn:
        p = os.path.join(dp, f)
        if os.path.isfile(p) and not os.path.islink(p):
            nfiles += 1
            nbytes += os.path.getsize(p)
ratio = su[0] / rg[0] if rg[0] > 0 else float("inf")
print()
print("tree: %s  (%d files, %.1f MB; %d files contain a keyword per rg)" % (tree, nfiles, nbytes / 1e6, rg_files))
print("runs: %s per tool, jobs: %s, median of wall times (min-max), peak RSS = max over runs" % (runs, jobs))
print()
print("%-8s %10s %17s %9s" % ("tool", "median s", "(min - max)", "peak MB"))
print("%-8s %10.3f %17s %9.1f" % ("rg", rg[0], "(%.3f - %.3f)" % (rg[1], rg[2]), rg[3]))
print("%-8s %10.3f %17s %9.1f" % ("sunset", su[0], "(%.3f - %.3f)" % (su[1], su[2]), su[3]))
print("%-8s %10.3f %17s %9.1f" % ("warm", sw[0], "(%.3f - %.3f)" % (sw[1], sw[2]), sw[3]))
print()
print("RATIO sunset/rg: %.2f   (ratio of the fastest runs: %.2f; a busy machine widens min-max)"
      % (ratio, su[1] / rg[1] if rg[1] > 0 else float("inf")))
sk = st.get("skipped", {})
print("sunset stats: files_seen %s, files_scanned %s, files_parsed %s, files_prefiltered %s, findings %s, warnings %s"
      % (st.get("files_seen"), st.get("files_scanned"), st.get("files_parsed"), st.get("files_prefiltered"),
         st.get("findings"), st.get("warnings")))
skipped = ["%s %s" % (k, v) for k, v in sk.items() if v]
if skipped:
    print("  skipped: " + ", ".join(skipped))
if st.get("by_family"):
    print("  by family: " + ", ".join("%s %s" % (k, v) for k, v in st["by_family"].items()))
print()
wratio = sw[0] / rg[0] if rg[0] > 0 else float("inf")
print("RATIO warm sunset/rg: %.2f   (sunset with a warm content cache)" % wratio)
ok_t = ratio <= target_ratio
ok_w = wratio <= 1.5
ok_m = max(su[3], sw[3]) < target_mb
print("target: time ratio <= %.1f   -> %s (%.2f)" % (target_ratio, "MET" if ok_t else "MISSED", ratio))
print("target: warm ratio <= 1.5  -> %s (%.2f)" % ("MET" if ok_w else "MISSED", wratio))
hi = load("history")
print("history replay (346 commits, %s): %.2f s, peak %.1f MB -> %s (target <= 30 s)"
      % (os.path.basename(tree), hi[0], hi[3], "MET" if hi[0] <= 30 else "MISSED"))
print("target: peak memory < %d MB -> %s (%.1f MB)" % (target_mb, "MET" if ok_m else "MISSED", max(su[3], sw[3])))
EOF

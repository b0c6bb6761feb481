#!/usr/bin/env bash
# bench.sh — sunset against two peers, ripgrep and ast-grep, on a Paddle-sized tree.
#
#   scripts/bench.sh [--tree DIR] [--repo DIR --range A..B [--long-range A..B]] [--runs N] [--peer-runs N]
#                    [--jobs J] [--seed S] [--files N] [--scale F] [--no-growth] [--no-build]
#
# Needs bash, python3 (tree generator, statistics), git, GNU time (installed when missing and
# root; otherwise python3's os.wait4 measures), ripgrep (installed with apt when missing and
# root) and, for ast-grep, npm: @ast-grep/cli at the pinned version below is installed into
# build/ast-grep/ when missing (without npm, ast-grep is reported as not measured).
#
# Without --tree, a deterministic synthetic tree (scripts/gen-tree.py: ~14,200 files, ~110 MB)
# is generated into build/bench/ and cached there by seed, size and generator version.
# --tree DIR measures a real checkout instead (e.g. an unpacked Paddle tree).
#
# In one run and interleaved (round i runs every command once before round i+1 starts), N
# times each, output discarded:
#     rg          rg -c -F -f scripts/bench-keywords.txt -j J TREE       (the keyword search)
#     ast-grep    ast-grep scan: identifier rules for Python and C++ built from the same
#                 keywords (no CMake, proto, strings, cross-file work); --peer-runs rounds
#     cold        sunset scan TREE --format json -j J --no-cache
#     warm        the same with a content cache filled by a warm-up run
#     warm-index  sunset scan in a clean git clone of TREE (git clone --shared when TREE is a
#                 work tree's top, else of the generated history), its cache filled by a
#                 warm-up run: the index's blob ids vouch for every file (issue 28's replay)
#     warm-edit   the same in a second clone after each round appends one line to one file
#                 (the normal incremental path: one file re-judged, the rest from the cache)
#     j1          cold with -j1
#     check       sunset check --diff-base HEAD~1 --no-cache in a git history whose last
#                 commit changes one file (the pre-commit hook's case): when TREE is a work
#                 tree's top, a clone of it with one one-file commit on top (the real tree);
#                 else the generated history
#     check-hist  the same in the generated history, when check measured the real tree
#     removable   sunset removable TREE -f json --no-cache (cold, like report)
#     report      sunset report TREE -f json --no-cache
#     history     sunset history over the generated 345-commit history of TREE
#                 (scripts/gen-history.sh), or over --range in --repo
#     history-long  sunset history over --long-range in --repo (default 742e3d0a1d..1eb6d50e49,
#                 the fork's five months on its abstract_pass branch, ~1,800 first-parent
#                 commits, when --repo holds both; not measured otherwise)
# and print for each the median wall and CPU (user+sys) seconds, the peak RSS, the CPU and
# wall ratios to rg, and the targets: cold CPU <= 2.5x rg and >= 20x below ast-grep, peak
# RSS <= 100 MB for cold, warm-edit, removable, report and history, check at most 0.2 s wall
# (issue 28), warm CPU <= 0.5x rg,
# warm-index CPU <= 0.5x rg and warm-edit CPU <= 0.6x rg
# and history CPU <= 3 s; the long history CPU <= 20 s and its peak RSS <= 100 MB (issue 28).
# Then the growth
# curve: rg and cold sunset on the synthetic tree at 1x, 2x and 4x the file count
# (--no-growth skips it). The load average is printed before and after: on a shared machine
# wall times are noisy, CPU times less so.
#
# A missed target is reported, not an error: the script exits non-zero only when something
# fails to run.

set -eu -o pipefail

TARGET_CPU_RATIO=2.5    # cold sunset CPU / rg CPU, at most
TARGET_PEER_RATIO=20    # ast-grep CPU / cold sunset CPU, at least
TARGET_MB=100           # peak RSS of cold, warm-edit, removable, report and history, at most (issue 28)
TARGET_CHECK_S=0.2      # check --diff-base HEAD~1 wall on a one-file change, at most (issue 28)
TARGET_WARM_RATIO=0.5   # warm sunset CPU (clean tree, content cache filled) / rg CPU, at most (issue 28)
TARGET_INDEX_RATIO=0.5  # warm-index CPU (clean git clone, cache filled) / rg CPU, at most (issue 28)
TARGET_EDIT_RATIO=0.6   # warm-edit CPU (one file edited since the cache was filled) / rg CPU (issue 28)
TARGET_HISTORY_S=3.0    # history CPU over the 345 commits, at most (issue 28)
TARGET_LONG_S=20        # history CPU over the long range, at most (issue 28)
TARGET_LONG_MB=100      # peak RSS of the long history, at most (issue 28)
DEFAULT_LONG_RANGE=742e3d0a1d..1eb6d50e49 # the fork's abstract_pass branch from 2024-04-11
ASTGREP_VERSION=0.51.1  # @ast-grep/cli, pinned: a new release must not move the figures silently

prog=bench
die() { echo "$prog: error: $*" >&2; exit 1; }
note() { echo "$prog: $*" >&2; }

usage() {
    sed -n '2,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
    cat <<USAGE
options:
  --tree DIR     scan DIR instead of the synthetic tree
  --repo DIR     git repository for the history replay (with --range)
  --range A..B   the history range in --repo (default: the generated 345-commit history)
  --long-range A..B  the long history in --repo (default $DEFAULT_LONG_RANGE when --repo holds
                 both ends; '' skips it)
  --runs N       timed rounds (default 5)
  --peer-runs N  rounds that also run ast-grep (default 3; 0 skips ast-grep, ~15 s CPU a run)
  --jobs J       threads for every tool (default: nproc)
  --seed S       synthetic tree seed (default 1)
  --files N      synthetic tree file count (default 14176)
  --scale F      synthetic tree size multiplier (default 1.0)
  --no-growth    skip the 1x/2x/4x growth curve
  --no-build     do not run make; benchmark the existing build/sunset
  -h, --help     this help
USAGE
}

TREE=""
REPO=""
RANGE=""
LONG_RANGE=unset
RUNS=5
PEER_RUNS=3
JOBS=""
SEED=1
FILES=14176
SCALE=1.0
BUILD=1
GROWTH=1
need() { [ "$2" -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
    case "$1" in
        --tree) need "$1" $#; TREE=$2; shift 2 ;;
        --tree=*) TREE=${1#*=}; shift ;;
        --repo) need "$1" $#; REPO=$2; shift 2 ;;
        --repo=*) REPO=${1#*=}; shift ;;
        --range) need "$1" $#; RANGE=$2; shift 2 ;;
        --range=*) RANGE=${1#*=}; shift ;;
        --long-range) need "$1" $#; LONG_RANGE=$2; shift 2 ;;
        --long-range=*) LONG_RANGE=${1#*=}; shift ;;
        --runs) need "$1" $#; RUNS=$2; shift 2 ;;
        --runs=*) RUNS=${1#*=}; shift ;;
        --peer-runs) need "$1" $#; PEER_RUNS=$2; shift 2 ;;
        --peer-runs=*) PEER_RUNS=${1#*=}; shift ;;
        --jobs|-j) need "$1" $#; JOBS=$2; shift 2 ;;
        --jobs=*) JOBS=${1#*=}; shift ;;
        --seed) need "$1" $#; SEED=$2; shift 2 ;;
        --seed=*) SEED=${1#*=}; shift ;;
        --files) need "$1" $#; FILES=$2; shift 2 ;;
        --files=*) FILES=${1#*=}; shift ;;
        --scale) need "$1" $#; SCALE=$2; shift 2 ;;
        --scale=*) SCALE=${1#*=}; shift ;;
        --no-growth) GROWTH=0; shift ;;
        --no-build) BUILD=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
isint() { case "$1" in ''|*[!0-9]*) return 1 ;; *) [ "$1" -ge 1 ] ;; esac; }
isint "$RUNS" || die "--runs must be a positive integer (got '$RUNS')"
isint "$FILES" || die "--files must be a positive integer (got '$FILES')"
case "$PEER_RUNS" in ''|*[!0-9]*) die "--peer-runs must be a non-negative integer (got '$PEER_RUNS')" ;; esac
case "$SEED" in ''|*[!0-9]*) die "--seed must be a non-negative integer (got '$SEED')" ;; esac
case "$SCALE" in ''|*[!0-9.]*|*.*.*|.) die "--scale must be a positive number (got '$SCALE')" ;; esac
[ -n "$JOBS" ] || JOBS=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
isint "$JOBS" || die "--jobs must be a positive integer (got '$JOBS')"
if [ -n "$REPO$RANGE" ]; then
    [ -n "$REPO" ] && [ -n "$RANGE" ] || die "--repo and --range go together"
    git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1 || die "--repo $REPO is not a git repository"
    REPO=$(cd "$REPO" && pwd)
    if [ "$LONG_RANGE" = unset ]; then # the default when the clone holds both of its ends
        LONG_RANGE=""
        git -C "$REPO" rev-parse -q --verify "${DEFAULT_LONG_RANGE%%..*}^{commit}" >/dev/null 2>&1 &&
            git -C "$REPO" rev-parse -q --verify "${DEFAULT_LONG_RANGE##*..}^{commit}" >/dev/null 2>&1 &&
            LONG_RANGE=$DEFAULT_LONG_RANGE
    fi
fi
if [ "$LONG_RANGE" = unset ]; then
    LONG_RANGE=""
elif [ -n "$LONG_RANGE" ] && [ -z "$REPO" ]; then
    die "--long-range needs --repo and --range"
fi

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
command -v git >/dev/null 2>&1 || die "git is required (the generated history)"

# --- (a) tools: ripgrep and ast-grep are the peers, GNU time measures ------------------------
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
    note "BENCH_NO_GNU_TIME set: measuring with python3 os.wait4"
elif [ -x /usr/bin/time ] && /usr/bin/time -f '%e %U %S %M' true >/dev/null 2>&1; then
    TIME_BIN=/usr/bin/time
elif apt_install time && [ -x /usr/bin/time ]; then
    TIME_BIN=/usr/bin/time
else
    note "GNU time unavailable: measuring with python3 os.wait4"
fi
# ast-grep: the npm package ships the native binary; run it directly (no node in the timing)
SG=""
SG_DIR=$ROOT/build/ast-grep
sg_bin() {   # the native binary of the pinned version, or failure
    local b
    for b in "$SG_DIR/node_modules/@ast-grep/cli/ast-grep" \
             "$SG_DIR"/node_modules/@ast-grep/cli-linux-*/ast-grep; do
        [ -x "$b" ] && "$b" --version 2>/dev/null | grep -qx "ast-grep $ASTGREP_VERSION" && { echo "$b"; return 0; }
    done
    return 1
}
if [ "$PEER_RUNS" -gt 0 ]; then
    if ! SG=$(sg_bin); then
        SG=""
        if command -v npm >/dev/null 2>&1; then
            note "installing @ast-grep/cli@$ASTGREP_VERSION into $SG_DIR (npm)"
            mkdir -p "$SG_DIR"
            npm install --prefix "$SG_DIR" --no-audit --no-fund --no-save --loglevel=error \
                "@ast-grep/cli@$ASTGREP_VERSION" >/dev/null 2>&1 || note "npm install @ast-grep/cli failed"
            SG=$(sg_bin) || SG=""
        else
            note "npm not found: ast-grep is not measured (install npm, or pass --peer-runs 0)"
        fi
    fi
    [ -n "$SG" ] || { [ ! -d "$SG_DIR" ] || note "no usable ast-grep binary under $SG_DIR: not measured"; PEER_RUNS=0; }
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

# --- (c) the trees -------------------------------------------------------------------------------
CACHE=$ROOT/build/bench
# synth_tree FILES: path of the cached synthetic tree with FILES files, generated when missing
synth_tree() {
    local files=$1 hash tree old
    [ -f "$GEN" ] || die "missing generator $GEN"
    hash=$(sha256sum "$GEN" | cut -c1-12)
    tree=$CACHE/tree-s$SEED-n$files-x$SCALE-$hash
    if [ -f "$tree.done" ] && [ -d "$tree" ]; then
        echo "$tree"
        return 0
    fi
    mkdir -p "$CACHE"
    # drop trees made by an older generator for the same parameters
    for old in "$CACHE/tree-s$SEED-n$files-x$SCALE-"*; do
        [ -e "$old" ] || continue
        case "$old" in "$tree"|"$tree".*) ;; *) rm -rf "$old" ;; esac
    done
    rm -rf "$tree" "$tree.tmp" "$tree.done"
    note "generating synthetic tree (seed $SEED, $files files, scale $SCALE) into $tree"
    python3 "$GEN" "$tree.tmp" --seed "$SEED" --files "$files" --scale "$SCALE" --quiet >"$tree.json" \
        || die "tree generation failed"
    mv "$tree.tmp" "$tree"
    touch "$tree.done"
    echo "$tree"
}
[ -n "$TREE" ] || TREE=$(synth_tree "$FILES")

# the generated history: TREE as the first commit, then 345 one-line cleanups, one file each;
# HEAD~1..HEAD is the one-file change `check --diff-base HEAD~1` sees
TREE_ID=$(basename "$TREE")-$(printf '%s' "$TREE" | cksum | cut -d' ' -f1)
HIST_REPO=$CACHE/history-$TREE_ID
if [ ! -f "$HIST_REPO.done" ] || [ ! -d "$HIST_REPO/.git" ]; then
    note "building a synthetic 345-commit history of $TREE (scripts/gen-history.sh)"
    rm -f "$HIST_REPO.done"
    sh "$ROOT/scripts/gen-history.sh" "$TREE" "$HIST_REPO" 345 || die "gen-history.sh failed"
    touch "$HIST_REPO.done"
fi
[ "$(git -C "$HIST_REPO" diff --name-only HEAD~1 HEAD | wc -l)" = 1 ] \
    || die "$HIST_REPO: the last commit does not change exactly one file"

# --- (d) measure -------------------------------------------------------------------------------
if [ ! -c /dev/null ]; then
    note "WARNING: /dev/null is not a character device (was it replaced by 'sunset --output /dev/null' as root?);"
    note "         discarded output is being written to a file, which skews the timings. Restore it with:"
    note "         mknod -m 666 /dev/null.new c 1 3 && mv -f /dev/null.new /dev/null"
fi
LOAD_BEFORE=$(uptime)

# measure NAME DIR CMD...: one run of CMD in DIR; appends "wall user sys peak_kb" to
# $WORK/NAME.txt; output discarded. Exit 1 is not a failure for rg (no match), ast-grep and
# check (findings).
measure() {
    local name=$1 dir=$2; shift 2
    local rc=0 t0 t1
    if [ -n "$TIME_BIN" ]; then
        t0=$(date +%s%N)
        (cd "$dir" && "$TIME_BIN" -f '%U %S %M' -o "$WORK/time.out" "$@" >/dev/null 2>"$WORK/$name.err") || rc=$?
        t1=$(date +%s%N)
        if [ "$rc" -gt 1 ] || { [ "$rc" = 1 ] && ! ok_exit1 "$name"; }; then
            cat "$WORK/$name.err" >&2
            die "$name failed (exit $rc): $*"
        fi
        awk -v a="$t0" -v b="$t1" 'END { printf "%.4f %s %s %d\n", (b - a) / 1e9, $1, $2, $3 }' \
            "$WORK/time.out" >>"$WORK/$name.txt"
    else
        python3 - "$name" "$WORK/$name.txt" "$WORK/$name.err" "$dir" "$@" <<'PY' || die "$name failed: $*"
import os, subprocess, sys, time
name, out, err, cwd, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
t0 = time.perf_counter()
p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=open(err, "wb"))
_, status, ru = os.wait4(p.pid, 0)
dt = time.perf_counter() - t0
rc = os.waitstatus_to_exitcode(status)
if rc > 1 or (rc == 1 and name.split("-")[0] not in ("rg", "astgrep", "check") and not name.startswith("warmup-check")):
    sys.stderr.write(open(err).read())
    sys.exit(1)
open(out, "a").write("%.4f %.3f %.3f %d\n" % (dt, ru.ru_utime, ru.ru_stime, ru.ru_maxrss))
PY
    fi
}
ok_exit1() { case "$1" in rg*|astgrep*|check*|warmup-check*) return 0 ;; *) return 1 ;; esac; }

# ast-grep rules equivalent to the keyword set: an identifier (type, field, namespace name in
# C++) containing one of the keywords, which is what sunset's identifier rules look for
SG_CFG=$WORK/sg
if [ "$PEER_RUNS" -gt 0 ]; then
    mkdir -p "$SG_CFG/rules"
    re=$(paste -sd'|' "$KEYWORDS")
    printf 'ruleDirs: [rules]\nlanguageGlobs:\n  cpp: ["*.h", "*.hpp", "*.cu", "*.cuh", "*.cc", "*.cpp"]\n' >"$SG_CFG/sgconfig.yml"
    cat >"$SG_CFG/rules/legacy-cpp.yml" <<YML
id: legacy-cpp-ident
language: cpp
severity: error
message: legacy executor identifier
rule:
  any:
    - {kind: identifier, regex: "$re"}
    - {kind: type_identifier, regex: "$re"}
    - {kind: field_identifier, regex: "$re"}
    - {kind: namespace_identifier, regex: "$re"}
YML
    cat >"$SG_CFG/rules/legacy-py.yml" <<YML
id: legacy-py-ident
language: python
severity: error
message: legacy executor identifier
rule: {kind: identifier, regex: "$re"}
YML
fi

Q=(--no-config -q)
RG_CMD=("$RG" -c -F -f "$KEYWORDS" -j "$JOBS" "$TREE")
SG_CMD=("$SG" scan -c "$SG_CFG/sgconfig.yml" --json=stream -j "$JOBS" "$TREE")
COLD_CMD=("$SUNSET" scan "$TREE" --format json -j "$JOBS" "${Q[@]}" --no-cache)
WARM_CMD=("$SUNSET" scan "$TREE" --format json -j "$JOBS" "${Q[@]}" --cache "$WORK/cache")
J1_CMD=("$SUNSET" scan "$TREE" --format json -j 1 "${Q[@]}" --no-cache)
CHECK_CMD=("$SUNSET" check --diff-base HEAD~1 -j "$JOBS" "${Q[@]}" --no-cache)
RM_CMD=("$SUNSET" removable "$TREE" -f json -j "$JOBS" "${Q[@]}" --no-cache)
REPORT_CMD=("$SUNSET" report "$TREE" -f json -j "$JOBS" "${Q[@]}" --no-cache)
if [ -n "$REPO" ]; then
    HIST_CMD=("$SUNSET" history "${Q[@]}" --repo "$REPO" -f csv "$RANGE")
    HIST_WHAT="$RANGE in $(basename "$REPO")"
else
    HIST_CMD=("$SUNSET" history "${Q[@]}" --repo "$HIST_REPO" --max-count 346 -f csv)
    HIST_WHAT="the generated 346 commits of $(basename "$TREE")"
fi
LONG_CMD=("$SUNSET" history "${Q[@]}" --repo "$REPO" -f csv "$LONG_RANGE")
LONG_WHAT=${LONG_RANGE:+"$LONG_RANGE in $(basename "$REPO")"}

# the clean clones of the warm-index and warm-edit cases (objects shared, never written)
CLONE_SRC=$HIST_REPO
[ "$(git -C "$TREE" rev-parse --show-toplevel 2>/dev/null || true)" != "$(cd "$TREE" && pwd -P)" ] || CLONE_SRC=$TREE
git clone -q --shared "$CLONE_SRC" "$WORK/clean" || die "git clone --shared $CLONE_SRC failed"
git clone -q --shared "$CLONE_SRC" "$WORK/edit" || die "git clone --shared $CLONE_SRC failed"
EDIT_FILE=$(git -C "$WORK/edit" ls-files '*.py' | sed -n 1p) # not head: pipefail
[ -n "$EDIT_FILE" ] || die "$CLONE_SRC: no Python file to edit"
# check's one-file change: on the real tree when TREE is a work tree's top (a clone with one
# commit on top that appends a line to one Python file), else the generated history's last commit
CHECK_REPO=$HIST_REPO
if [ "$CLONE_SRC" = "$TREE" ]; then
    git clone -q --shared "$TREE" "$WORK/check" || die "git clone --shared $TREE failed"
    printf '# bench: a one-file change for check\n' >>"$WORK/check/$EDIT_FILE"
    git -C "$WORK/check" -c user.name=bench -c user.email=bench@localhost commit -qam "bench: one-file change" \
        || die "$WORK/check: commit failed"
    CHECK_REPO=$WORK/check
fi
INDEX_CMD=("$SUNSET" scan . --format json -j "$JOBS" "${Q[@]}" --cache "$WORK/cache-index")
EDIT_CMD=("$SUNSET" scan . --format json -j "$JOBS" "${Q[@]}" --cache "$WORK/cache-edit")
# edit_one N: a line no earlier round wrote, so neither the replay nor the file's cache entry hits
edit_one() { printf '# bench edit, round %s\n' "$1" >>"$WORK/edit/$EDIT_FILE"; }

note "warming the page cache ($TREE)"
find "$TREE" -type f -print0 | xargs -0 cat >/dev/null 2>&1 || true
note "warm-up run of each tool (this also fills sunset's content cache)"
measure warmup-rg "$WORK" "${RG_CMD[@]}"
measure warmup-cold "$WORK" "${COLD_CMD[@]}"
measure warmup-warm "$WORK" "${WARM_CMD[@]}"
measure warmup-check "$CHECK_REPO" "${CHECK_CMD[@]}"
[ "$CHECK_REPO" = "$HIST_REPO" ] || measure warmup-check-hist "$HIST_REPO" "${CHECK_CMD[@]}"
measure warmup-index "$WORK/clean" "${INDEX_CMD[@]}"
measure warmup-edit "$WORK/edit" "${EDIT_CMD[@]}"
for i in $(seq 1 "$RUNS"); do
    note "round $i/$RUNS"
    measure rg "$WORK" "${RG_CMD[@]}"
    measure cold "$WORK" "${COLD_CMD[@]}"
    measure warm "$WORK" "${WARM_CMD[@]}"
    measure warm-index "$WORK/clean" "${INDEX_CMD[@]}"
    edit_one "$i"
    measure warm-edit "$WORK/edit" "${EDIT_CMD[@]}"
    [ "$i" -gt "$PEER_RUNS" ] || measure astgrep "$WORK" "${SG_CMD[@]}"
    measure j1 "$WORK" "${J1_CMD[@]}"
    measure check "$CHECK_REPO" "${CHECK_CMD[@]}"
    [ "$CHECK_REPO" = "$HIST_REPO" ] || measure check-hist "$HIST_REPO" "${CHECK_CMD[@]}"
    measure removable "$WORK" "${RM_CMD[@]}"
    measure report "$WORK" "${REPORT_CMD[@]}"
    measure history "$WORK" "${HIST_CMD[@]}"
    [ -z "$LONG_RANGE" ] || measure history-long "$WORK" "${LONG_CMD[@]}"
done

# one more run with the report in a file, for the statistics
"$SUNSET" scan "$TREE" --format json -j "$JOBS" "${Q[@]}" --no-cache --output "$WORK/report.json" \
    || die "sunset scan --output failed"
"$RG" -l -F -f "$KEYWORDS" "$TREE" >"$WORK/rg-files.txt" || [ $? = 1 ] || die "rg -l failed"

# --- (e) the growth curve: the synthetic tree at 1x, 2x, 4x the file count --------------------
GROWTH_SIZES=""
if [ "$GROWTH" = 1 ]; then
    for k in 1 2 4; do
        g=$(synth_tree $((FILES * k)))
        note "growth ${k}x: $g"
        find "$g" -type f -print0 | xargs -0 cat >/dev/null 2>&1 || true
        for i in $(seq 1 3); do
            measure "grow$k-rg" "$WORK" "$RG" -c -F -f "$KEYWORDS" -j "$JOBS" "$g"
            measure "grow$k-cold" "$WORK" "$SUNSET" scan "$g" --format json -j "$JOBS" "${Q[@]}" --no-cache
        done
        find "$g" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }' >"$WORK/grow$k.bytes"
        find "$g" -type f | wc -l >"$WORK/grow$k.files"
        GROWTH_SIZES="$GROWTH_SIZES $k"
    done
fi
LOAD_AFTER=$(uptime)

# --- (f) report --------------------------------------------------------------------------------
python3 - "$WORK" "$TREE" "$RUNS" "$PEER_RUNS" "$JOBS" "$HIST_WHAT" "$LOAD_BEFORE" "$LOAD_AFTER" \
    "$TARGET_CPU_RATIO" "$TARGET_PEER_RATIO" "$TARGET_MB" "$TARGET_CHECK_S" "$ASTGREP_VERSION" \
    "$GROWTH_SIZES" "$TARGET_WARM_RATIO" "$TARGET_HISTORY_S" "$LONG_WHAT" "$TARGET_LONG_S" "$TARGET_LONG_MB" \
    "$TARGET_INDEX_RATIO" "$TARGET_EDIT_RATIO" <<'EOF'
import json, os, statistics, sys
(work, tree, runs, peer_runs, jobs, hist_what, load0, load1, t_cpu, t_peer, t_mb, t_check,
 sg_version, growth, t_warm, t_hist, long_what, t_long, t_long_mb, t_index, t_edit) = sys.argv[1:22]
t_warm, t_hist, t_long, t_long_mb = float(t_warm), float(t_hist), float(t_long), float(t_long_mb)
t_index, t_edit = float(t_index), float(t_edit)
t_cpu, t_peer, t_mb, t_check = float(t_cpu), float(t_peer), float(t_mb), float(t_check)

def load(name):
    path = os.path.join(work, name + ".txt")
    if not os.path.exists(path):
        return None
    rows = [l.split() for l in open(path) if l.strip()]
    wall = [float(r[0]) for r in rows]
    cpu = [float(r[1]) + float(r[2]) for r in rows]
    kb = [int(r[3]) for r in rows]
    return {"wall": statistics.median(wall), "cpu": statistics.median(cpu),
            "cpu_min": min(cpu), "cpu_max": max(cpu), "mb": max(kb) / 1024.0, "n": len(rows)}

def ratio(a, b):
    return a / b if b > 0 else float("inf")

rows = [("rg", "rg (keywords)"), ("astgrep", "ast-grep " + sg_version), ("cold", "sunset cold"),
        ("warm", "sunset warm"), ("warm-index", "warm (git index)"), ("warm-edit", "warm, 1 edit"), ("j1", "sunset -j1"), ("check", "check --diff-base"),
        ("check-hist", "check (gen. history)"),
        ("removable", "removable"), ("report", "report"), ("history", "history"),
        ("history-long", "history (long)")]
m = {k: load(k) for k, _ in rows}
rg = m["rg"]
st = json.load(open(os.path.join(work, "report.json"))).get("stats", {})
rg_files = sum(1 for l in open(os.path.join(work, "rg-files.txt")) if l.strip())
nfiles = nbytes = 0
for dp, dn, fn in os.walk(tree):
    for f in fn:
        p = os.path.join(dp, f)
        if os.path.isfile(p) and not os.path.islink(p):
            nfiles += 1
            nbytes += os.path.getsize(p)
print()
print("tree: %s  (%d files, %.1f MB; %d files contain a keyword per rg)" % (tree, nfiles, nbytes / 1e6, rg_files))
print("rounds: %s (ast-grep in %s), jobs: %s; medians; CPU = user+sys; peak RSS = max over runs"
      % (runs, peer_runs, jobs))
print("history: %s" % hist_what)
print("history (long): %s" % (long_what or "not measured (--repo without both ends of the default --long-range)"))
print("load before: %s" % load0.strip())
print("load after:  %s" % load1.strip())
print()
print("%-20s %8s %8s %15s %9s %9s %9s" % ("command", "wall s", "CPU s", "(CPU min-max)", "peak MB",
                                          "CPU/rg", "wall/rg"))
for k, label in rows:
    r = m[k]
    if r is None:
        print("%-20s %8s" % (label, "not measured"))
        continue
    print("%-20s %8.3f %8.3f %15s %9.1f %9.2f %9.2f" % (
        label, r["wall"], r["cpu"], "(%.2f-%.2f)" % (r["cpu_min"], r["cpu_max"]), r["mb"],
        ratio(r["cpu"], rg["cpu"]), ratio(r["wall"], rg["wall"])))
print()
sk = st.get("skipped", {})
print("sunset stats: files_seen %s, files_scanned %s, files_parsed %s, files_prefiltered %s, findings %s, warnings %s"
      % (st.get("files_seen"), st.get("files_scanned"), st.get("files_parsed"), st.get("files_prefiltered"),
         st.get("findings"), st.get("warnings")))
skipped = ["%s %s" % (k, v) for k, v in sk.items() if v]
if skipped:
    print("  skipped: " + ", ".join(skipped))
print()

def verdict(ok):
    return "MET" if ok else "MISSED"
cold = m["cold"]
r = ratio(cold["cpu"], rg["cpu"])
print("target: cold CPU <= %.1fx rg          -> %s (%.2fx)" % (t_cpu, verdict(r <= t_cpu), r))
if m["astgrep"]:
    r = ratio(m["astgrep"]["cpu"], cold["cpu"])
    print("target: ast-grep CPU >= %.0fx cold     -> %s (%.1fx)" % (t_peer, verdict(r >= t_peer), r))
else:
    print("target: ast-grep CPU >= %.0fx cold     -> NOT MEASURED" % t_peer)
r = ratio(m["warm"]["cpu"], rg["cpu"])
print("target: warm CPU <= %.1fx rg          -> %s (%.2fx)" % (t_warm, verdict(r <= t_warm), r))
r = ratio(m["warm-index"]["cpu"], rg["cpu"])
print("target: warm-index CPU <= %.1fx rg    -> %s (%.2fx; clean git clone)" % (t_index, verdict(r <= t_index), r))
r = ratio(m["warm-edit"]["cpu"], rg["cpu"])
print("target: warm-edit CPU <= %.1fx rg     -> %s (%.2fx; one file edited)" % (t_edit, verdict(r <= t_edit), r))
print("target: history CPU <= %.1f s         -> %s (%.3f s; %s)" % (t_hist, verdict(m["history"]["cpu"] <= t_hist),
                                                                   m["history"]["cpu"], hist_what))
hl = m["history-long"]
if hl:
    print("target: long history CPU <= %.0f s     -> %s (%.3f s; %s)" % (t_long, verdict(hl["cpu"] <= t_long),
                                                                      hl["cpu"], long_what))
    print("target: long history peak <= %.0f MB -> %s (%.1f MB)" % (t_long_mb, verdict(hl["mb"] <= t_long_mb),
                                                                   hl["mb"]))
else:
    print("target: long history CPU <= %.0f s     -> NOT MEASURED (no --repo holding %s)" % (t_long, "742e3d0a1d..1eb6d50e49"))
    print("target: long history peak <= %.0f MB -> NOT MEASURED" % t_long_mb)
for k in ("cold", "warm-edit", "removable", "report", "history"):
    print("target: %-10s peak <= %.0f MB     -> %s (%.1f MB)" % (k, t_mb, verdict(m[k]["mb"] <= t_mb), m[k]["mb"]))
for k, what in (("check", "one-file change"), ("check-hist", "generated history")):
    if m[k]:
        print("target: %-10s wall <= %.1f s     -> %s (%.3f s; %s)" % (k, t_check, verdict(m[k]["wall"] <= t_check),
                                                                     m[k]["wall"], what))
if growth.split():
    print()
    print("growth curve (synthetic tree, median of 3, CPU s):")
    print("%-6s %8s %9s %9s %11s %9s %9s" % ("size", "files", "MB", "rg CPU", "sunset CPU", "CPU/rg", "peak MB"))
    base = None
    for k in growth.split():
        g_rg, g_su = load("grow%s-rg" % k), load("grow%s-cold" % k)
        files = int(open(os.path.join(work, "grow%s.files" % k)).read())
        mb = int(open(os.path.join(work, "grow%s.bytes" % k)).read()) / 1e6
        base = base or g_su["cpu"]
        print("%-6s %8d %9.1f %9.3f %11.3f %9.2f %9.1f   (sunset CPU %.2fx the 1x tree)" % (
            k + "x", files, mb, g_rg["cpu"], g_su["cpu"], ratio(g_su["cpu"], g_rg["cpu"]), g_su["mb"],
            ratio(g_su["cpu"], base)))
EOF

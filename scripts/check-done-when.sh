#!/bin/sh
# check-done-when.sh [-s SEED_BODY] [-r RANGE] TREE... — issue 31's measurable "Done when" lines on real
# trees (the closing note runs it on the three Paddle revisions): for each TREE, `sunset report
# --out-dir` into a temporary directory, then
#   - every task's row count is the sum of its items (scripts/check-rows.py on tracking.json,
#     and test_tracking's given_reports, which also counts runs of four or more English words
#     in the Chinese tracking.md: it must find none);
#   - with -r RANGE (742e3d0a1d..1eb6d50e49), the burn-down of RANGE in the last TREE: every
#     PR the manifest names whose commit changed the count has a label (merge commits under
#     their PRs' numbers), and no two labels overlap (test_history's given_burndown measures
#     the boxes);
#   - with -s FILE (the issue's body), `--update` of a copy with the markers appended, without
#     --md-budget, writes at most 65,536 characters.
# The second and later trees also get `--since-report` of the one before (本周变化); the
# section and the PRs it names are printed. Needs build/sunset, build/test/test_tracking and
# python3. Nothing is written into the trees (the cache goes to the temporary directory).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
S=${SUNSET_BIN:-$here/build/sunset}
seed= range=
while [ $# -gt 1 ]; do
    case $1 in
    -s) seed=$2; shift 2 ;;
    -r) range=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: $0 [-s SEED_BODY] [-r RANGE] TREE..." >&2; exit 2; }
out=$(mktemp -d "${TMPDIR:-/tmp}/sunset-done-when.XXXXXX")
list= prev= i=0 bad=0
for tree in "$@"; do
    i=$((i + 1))
    d=$out/$i
    since=
    [ -n "$prev" ] && since="--since-report $prev"
    # shellcheck disable=SC2086
    "$S" report "$tree" -q --cache "$out/cache" $since --out-dir "$d"
    echo "== $tree: $(sed -n 's/^由 sunset 测量：//p' "$d/tracking.md")"
    python3 "$here/scripts/check-rows.py" "$d/tracking.json" || bad=1
    if [ -n "$since" ]; then
        sed -n '/^### 本周变化/,/^### 二、Task/p' "$d/tracking.md" | grep -E '^(自上次|注：|期间|\| #)'
    fi
    if [ -n "$seed" ]; then
        cp "$seed" "$d/body.md"
        printf '\n<!-- sunset:tracking:begin -->\n<!-- sunset:tracking:end -->\n' >>"$d/body.md"
        "$S" report "$tree" -q --cache "$out/cache" $since --update "$d/body.md" || bad=1
        chars=$(python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()))' "$d/body.md")
        echo "--update with the issue's body: $chars characters (limit 65536)"
        [ "$chars" -le 65536 ] || bad=1
    fi
    list=${list:+$list:}$d/tracking.json:$d/tracking.md
    prev=$d/tracking.json
done
if [ -n "$range" ]; then
    last=$tree
    "$S" history --repo "$last" -q -f json "$range" -o "$out/burndown.json"
    "$S" history --repo "$last" -q -f svg "$range" -o "$out/burndown.svg"
    python3 - "$here/rules/tracking" "$out/burndown.json" "$out/burndown.svg" <<'PY' || bad=1
import json, os, re, sys
named = set()
def walk(j):
    if isinstance(j, dict):
        for k, v in j.items():
            if k in ("pr", "prs"):
                for x in v if isinstance(v, list) else [v]:
                    if isinstance(x, str) and re.fullmatch(r"#\d+", x):
                        named.add(int(x[1:]))
            else:
                walk(v)
    elif isinstance(j, list):
        for v in j:
            walk(v)
for f in os.listdir(sys.argv[1]):
    if f.endswith(".json"):
        walk(json.load(open(os.path.join(sys.argv[1], f), encoding="utf-8")))
commits = json.load(open(sys.argv[2], encoding="utf-8"))["commits"]
moved = {}
for a, b in zip(commits, commits[1:]):
    for p in b.get("prs") or []:
        if p in named and b["findings"] != a["findings"]:
            moved[p] = moved.get(p, 0) + b["findings"] - a["findings"]
labels = set(int(m) for m in re.findall(r'<text x="[^"]*" y="[^"]*"[^>]*>#(\d+) ', open(sys.argv[3], encoding="utf-8").read()))
missing = sorted(set(moved) - labels)
print("burn-down: %d named PRs changed the count, %d labelled%s" % (len(moved), len(set(moved) & labels),
      "; unlabelled: " + " ".join("#%d" % p for p in missing) if missing else ""))
print("  " + " ".join("#%d %+d" % (p, moved[p]) for p in sorted(moved)))
sys.exit(1 if missing else 0)
PY
    SUNSET_BURNDOWN_SVG=$out/burndown.svg SUNSET_BIN=$S "$here/build/test/test_history" 2>&1 | grep -E 'labels,|FAILED' || bad=1
fi
SUNSET_TRACKING_REPORTS=$list SUNSET_BIN=$S "$here/build/test/test_tracking" 2>&1 | grep -E 'runs of four|add up|FAILED|PASSED' || bad=1
echo "reports in $out"
exit $bad

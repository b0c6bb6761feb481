#!/bin/sh
# gen-history.sh TREE DEST [N] — build a git repository in DEST whose first commit is TREE and
# whose N following commits (default 345) each remove one line of legacy usage from one file,
# cycling through the files that hold the benchmark keywords: a synthetic cleanup history for
# timing `sunset history`. Deterministic: fixed identities, dates and order.
set -eu
tree=$1
dest=$2
n=${3:-345}
here=$(cd "$(dirname "$0")" && pwd)
pattern=$(paste -sd'|' "$here/bench-keywords.txt")
rm -rf "$dest"
mkdir -p "$dest"
cp -R "$tree/." "$dest/"
rm -rf "$dest/.git" # a checkout's own history is not the generated one (git init would reuse it)
cd "$dest"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.invalid
export GIT_AUTHOR_DATE="2024-04-01T00:00:00+00:00" GIT_COMMITTER_DATE="2024-04-01T00:00:00+00:00"
git init -q -b develop .
git add -A
git commit -q -m "Import the tree"
# tracked files only: one the tree's .gitignore leaves out would make an empty commit
git grep -lE "$pattern" | LC_ALL=C sort > ../.legacy-files.$$
count=$(wc -l < ../.legacy-files.$$)
[ "$count" -gt 0 ] || { echo "gen-history.sh: no legacy files in $tree" >&2; exit 1; }
i=1
while [ "$i" -le "$n" ]; do
    f=$(sed -n "$(( (i - 1) % count + 1 ))p" ../.legacy-files.$$)
    # drop the first remaining line with a keyword (or, when none is left, touch the file)
    line=$(grep -nE "$pattern" "$f" | head -1 | cut -d: -f1)
    if [ -n "$line" ]; then sed -i "${line}d" "$f"; else echo "" >> "$f"; fi
    d=$(printf '2024-04-01T00:%02d:%02d+00:00' $(( i / 60 % 60 )) $(( i % 60 )))
    GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d git commit -q -a -m "Remove legacy usage, step $i (#$((60000 + i)))"
    i=$((i + 1))
done
rm -f ../.legacy-files.$$

#!/bin/sh
# lint-paths.sh [DIR] — the checkout carries no path of the machine it was made on: fails when
# a symbolic link tracked in the git work tree DIR (default .) points at an absolute path or
# out of the tree (a link into one developer's work tree builds nowhere else), or when a
# tracked file names DIR's own absolute path. Prints PATH: what for each and exits 1 if there
# is any; outside a git work tree (a release tarball) it checks nothing and says so.
# POSIX sh, git.
set -u
dir=${1:-.}
top=$(cd "$dir" && git rev-parse --show-toplevel 2>/dev/null) || {
    echo "lint-paths: $dir is not a git work tree; nothing checked"; exit 0; }
bad=0
tab=$(printf '\t')
root=$(cd "$top" && pwd -P)
out=$(git -C "$top" ls-files -s | while IFS="$tab" read -r meta p; do
    case $meta in 120000\ *) ;; *) continue ;; esac
    t=$(readlink "$top/$p") || continue
    case $t in
    /*) echo "$p: a symbolic link to the absolute path $t"; continue ;;
    esac
    r=$(cd "$top/$(dirname "$p")" 2>/dev/null && cd "$(dirname "$t")" 2>/dev/null && pwd -P) || r=
    case $r in
    "$root"|"$root"/*) ;;
    *) echo "$p: a symbolic link out of the tree or to nothing ($t)" ;;
    esac
done)
[ -z "$out" ] || { echo "$out"; bad=1; }
if git -C "$top" grep -I -n -F -e "$top/" -- . >/dev/null 2>&1; then
    git -C "$top" grep -I -n -F -e "$top/" -- . | sed 's/^/names this checkout'"'"'s absolute path: /'
    bad=1
fi
exit $bad

#!/bin/sh
# fetch-grammar.sh DESTDIR [TARBALL] — the pinned tree-sitter-python npm package, checked
# against the checksum kept in scripts/tree-sitter-python.sha256 and unpacked into DESTDIR.
# The grammar's sources are never committed. With TARBALL (make GRAMMAR_TARBALL=path: a
# pre-fetched tree-sitter-python-VERSION.tgz) nothing is downloaded, for offline builds;
# otherwise `npm pack` fetches it, bounded by FETCH_TIMEOUT seconds (default 120).
set -eu
dest=$1
tarball=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
version=0.23.6
tgz="tree-sitter-python-$version.tgz"
want=$(awk '{print $1}' "$here/tree-sitter-python.sha256")
timeout_s=${FETCH_TIMEOUT:-120}

fail() {
    echo "fetch-grammar.sh: $*" >&2
    exit 1
}

mkdir -p "$dest"
if [ -n "$tarball" ]; then
    [ -f "$tarball" ] || fail "GRAMMAR_TARBALL=$tarball: no such file"
    cp "$tarball" "$dest/$tgz.part"
    mv "$dest/$tgz.part" "$dest/$tgz"
elif [ ! -f "$dest/$tgz" ]; then
    command -v npm >/dev/null 2>&1 ||
        fail "npm is not installed; fetch $tgz elsewhere (npm pack tree-sitter-python@$version) and build with make GRAMMAR_TARBALL=path/$tgz"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    # timeout(1) when there is one: without network, npm retries for minutes
    to=
    command -v timeout >/dev/null 2>&1 && to="timeout $timeout_s"
    if ! (cd "$tmp" && $to npm pack --silent "tree-sitter-python@$version" >/dev/null 2>"$tmp/err"); then
        sed 's/^/  npm: /' "$tmp/err" | tail -5 >&2
        fail "could not download tree-sitter-python@$version from the npm registry (offline, or no answer within ${timeout_s}s: FETCH_TIMEOUT=N gives it longer); fetch $tgz elsewhere and build with make GRAMMAR_TARBALL=path/$tgz"
    fi
    mv "$tmp/$tgz" "$dest/$tgz.part"
    mv "$dest/$tgz.part" "$dest/$tgz"
fi
got=$(sha256sum "$dest/$tgz" | awk '{print $1}')
if [ "$got" != "$want" ]; then
    rm -f "$dest/$tgz"
    fail "${tarball:-$dest/$tgz}: checksum mismatch (got $got, want $want for tree-sitter-python $version)"
fi
rm -rf "$dest/package"
tar xzf "$dest/$tgz" -C "$dest" package/src package/package.json
touch "$dest/package/src/parser.c" "$dest/package/src/scanner.c"

#!/bin/sh
# fetch-grammar.sh DESTDIR — fetch the pinned tree-sitter-python npm package, check it against
# the checksum kept in scripts/tree-sitter-python.sha256 and unpack it into DESTDIR.
# The grammar's sources are never committed; this runs at build time.
set -eu
dest=$1
here=$(cd "$(dirname "$0")" && pwd)
version=0.23.6
tgz="tree-sitter-python-$version.tgz"
want=$(awk '{print $1}' "$here/tree-sitter-python.sha256")

mkdir -p "$dest"
if [ ! -f "$dest/$tgz" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && npm pack --silent "tree-sitter-python@$version" >/dev/null)
    mv "$tmp/$tgz" "$dest/$tgz.part"
    mv "$dest/$tgz.part" "$dest/$tgz"
fi
got=$(sha256sum "$dest/$tgz" | awk '{print $1}')
if [ "$got" != "$want" ]; then
    echo "fetch-grammar.sh: $dest/$tgz: checksum mismatch (got $got, want $want)" >&2
    rm -f "$dest/$tgz"
    exit 1
fi
rm -rf "$dest/package"
tar xzf "$dest/$tgz" -C "$dest" package/src package/package.json
touch "$dest/package/src/parser.c" "$dest/package/src/scanner.c"

#!/bin/sh
# dist.sh OUTDIR GRAMMAR_TGZ — the release's source tarball OUTDIR/sunset-VERSION.tar.gz and
# its checksum (OUTDIR/sunset-VERSION.tar.gz.sha256): the files git tracks, as they are on
# disk, under sunset-VERSION/, plus the pinned grammar tarball as vendor/NAME.tgz, so that
# the tarball builds and tests with no network (the Makefile uses vendor/ when it is there and
# still checks the grammar against scripts/tree-sitter-python.sha256). Reproducible: sorted
# names, owner 0, the time of the last commit (or SOURCE_DATE_EPOCH), gzip without a name.
set -eu

fail() {
    echo "dist.sh: $*" >&2
    exit 1
}

[ $# -eq 2 ] || fail "usage: dist.sh OUTDIR GRAMMAR_TGZ"
out=$1
grammar=$2
top=$(git rev-parse --show-toplevel 2>/dev/null) ||
    fail "not in a git checkout of sunset: the tarball is the files git tracks"
[ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ] || fail "run from the checkout's top ($top)"
version=$(cat VERSION)
name=sunset-$version
want=$(awk '{print $1}' scripts/tree-sitter-python.sha256)
tgz=$(awk '{print $2}' scripts/tree-sitter-python.sha256)
[ "$(basename "$grammar")" = "$tgz" ] || fail "$grammar: not $tgz (scripts/tree-sitter-python.sha256)"
[ "$(sha256sum "$grammar" | awk '{print $1}')" = "$want" ] || fail "$grammar: checksum mismatch"
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
git diff --quiet HEAD -- 2>/dev/null ||
    echo "dist.sh: note: uncommitted changes are in the tarball (it is not the tagged v$version)" >&2

mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/vendor"
cp "$grammar" "$stage/vendor/$tgz"
opts="--sort=name --owner=0 --group=0 --numeric-owner --mtime=@$epoch --mode=go-w --format=gnu"
# shellcheck disable=SC2086
git ls-files -z | tar -c $opts --null -T - --transform "s|^|$name/|" -f "$stage/src.tar"
# shellcheck disable=SC2086
tar -r $opts -C "$stage" --transform "s|^|$name/|" -f "$stage/src.tar" "vendor/$tgz"
gzip -n -9 <"$stage/src.tar" >"$out/$name.tar.gz.part"
mv "$out/$name.tar.gz.part" "$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256.part" && mv "$name.tar.gz.sha256.part" "$name.tar.gz.sha256")
echo "$out/$name.tar.gz"

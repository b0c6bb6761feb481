#!/bin/sh
# install-deps.sh — install what building and testing sunset needs, and nothing that is
# already there. Idempotent: when every package is present it only checks and exits.
# Needs root (or sudo) only when something is missing. Debian/Ubuntu (apt) only.
set -eu

# Build and test dependencies. ripgrep is the benchmark's reference; npm fetches the
# tree-sitter-python grammar.
PACKAGES="make gcc pkg-config ca-certificates libclang-dev libtree-sitter-dev libcjson-dev \
libpcre2-dev libcmocka-dev libgit2-dev npm git"
[ "${SUNSET_WITH_BENCH:-0}" = 1 ] && PACKAGES="$PACKAGES ripgrep"
# A source tarball (make dist) carries the grammar in vendor/: no npm needed.
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$here/../vendor/$(awk '{print $2}' "$here/tree-sitter-python.sha256")" ] &&
    PACKAGES=$(echo "$PACKAGES" | sed 's/ npm / /')
# Optional sets: clang and its runtimes (ASan/UBSan, libFuzzer) for `make sanitize` and
# `make fuzz`; valgrind for `make valgrind`. `make test` stays lean.
[ "${SUNSET_WITH_CLANG:-0}" = 1 ] && PACKAGES="$PACKAGES clang libclang-rt-dev"
[ "${SUNSET_WITH_VALGRIND:-0}" = 1 ] && PACKAGES="$PACKAGES valgrind"
# the pre-commit framework, for the end-to-end test of .pre-commit-hooks.yaml (skipped without it)
[ "${SUNSET_WITH_PRECOMMIT:-0}" = 1 ] && PACKAGES="$PACKAGES pre-commit"
# Debian's packaging tools for `make deb` (lintian checks the package; debootstrap makes the
# chroot of `make deb-test`)
[ "${SUNSET_WITH_DEB:-0}" = 1 ] && PACKAGES="$PACKAGES dpkg-dev debhelper fakeroot lintian debootstrap"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        # npm may come with a Node.js that is not a Debian package: accept it when on PATH.
        if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
        missing="$missing $p"
    fi
done

[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps.sh: missing packages:$missing; no apt-get here, install them by hand" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "install-deps.sh: missing packages:$missing; run as root or install sudo" >&2
        exit 1
    fi
fi
echo "install-deps.sh: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing

#!/bin/bash
# action-install.sh — action.yml's first step: which sunset the job runs, installing the
# released package rather than compiling when it can. In order:
#   SUNSET_PATH (input sunset-path): that binary;
#   VERSION (input version): "source" builds from source; X.Y.Z installs that release's
#     package, https://github.com/$ACTION_REPO/releases/download/vX.Y.Z/sunset_X.Y.Z_ARCH.deb;
#     a path (relative to the workspace), file:// or https:// URL of a .deb installs that one;
#   no version: a sunset on PATH, else the release of this action's own tag (ACTION_REF
#     vX.Y.Z), else the source build.
# Installing unpacks the package into $RUNNER_TEMP/sunset-pkg (dpkg-deb -x: the binary finds
# its rules beside it, nothing is written outside the runner's temp) and, when the binary
# cannot start, installs the package's Depends with apt-get (sudo unless root). An explicit
# version that cannot be installed fails the step (exit 2); the default one falls back to the
# source build with a warning. Writes to $GITHUB_OUTPUT path=BIN, or build=true and key=KEY
# (the cache key of the source build: runner image, architecture, hash of the sources).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=${GITHUB_OUTPUT:-/dev/null}
tmp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)

fail() {
    echo "::error::sunset: $*"
    echo "sunset: $*" >&2
    exit 2
}

build_from_source() {
    local key
    key=$(cd "$here" && find Makefile VERSION src rules queries scripts -type f | LC_ALL=C sort |
        xargs sha256sum | sha256sum | cut -c1-16)
    echo "build=true" >>"$out"
    echo "key=sunset-build-${ImageOS:-$(. /etc/os-release 2>/dev/null && echo "$ID$VERSION_ID")}-$arch-$key" >>"$out"
    echo "sunset: building from source"
}

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
        echo "sunset: not root and no sudo: cannot run $1" >&2
        return 1
    fi
}

# the package at $1 (a file) unpacked, its dependencies installed if the binary needs them;
# prints the binary, or returns 1 with the reason on stderr
install_deb() {
    local deb=$1 dest=$tmp/sunset-pkg deps
    dpkg-deb --field "$deb" Package 2>/dev/null | grep -qx sunset || {
        echo "sunset: $deb is not sunset's Debian package" >&2
        return 1
    }
    rm -rf "$dest"
    dpkg-deb -x "$deb" "$dest"
    if ! "$dest/usr/bin/sunset" --version >/dev/null 2>&1; then
        deps=$(dpkg-deb --field "$deb" Depends)
        echo "sunset: installing the package's dependencies: $deps" >&2
        as_root apt-get update -qq >&2 &&
            as_root env DEBIAN_FRONTEND=noninteractive apt-get satisfy -y -qq --no-install-recommends "$deps" >&2 || {
            echo "sunset: this system cannot install the package's dependencies ($deps)" >&2
            return 1
        }
    fi
    "$dest/usr/bin/sunset" --version >/dev/null || return 1
    if [ -n "${GITHUB_PATH:-}" ]; then echo "$dest/usr/bin" >>"$GITHUB_PATH"; fi
    echo "$dest/usr/bin/sunset"
}

# $1: a version, a path or a URL; prints the local .deb (downloaded into $tmp when a URL)
fetch_deb() {
    local v=$1 url
    case "$v" in
    file://*) v=${v#file://} ;;
    https://* | http://*) url=$v ;;
    *.deb) ;;
    [0-9]*.[0-9]*.[0-9]*)
        [ -n "${ACTION_REPO:-}" ] || { echo "sunset: version $v: not run as a published action, no release to fetch" >&2; return 1; }
        url=${GITHUB_SERVER_URL:-https://github.com}/$ACTION_REPO/releases/download/v$v/sunset_${v}_$arch.deb
        ;;
    *) echo "sunset: version '$v': neither X.Y.Z, a .deb, a file:// or https:// URL, nor 'source'" >&2; return 1 ;;
    esac
    if [ -n "${url:-}" ]; then
        local f=$tmp/${url##*/}
        curl -fsSL --retry 3 -o "$f" "$url" >&2 || { echo "sunset: cannot download $url" >&2; return 1; }
        echo "$f"
    else
        [ -f "$v" ] || { echo "sunset: $v: no such package file" >&2; return 1; }
        echo "$v"
    fi
}

if [ -n "${SUNSET_PATH:-}" ]; then
    echo "path=$SUNSET_PATH" >>"$out"
elif [ "${VERSION:-}" = source ]; then
    build_from_source
elif [ -n "${VERSION:-}" ]; then
    deb=$(fetch_deb "$VERSION") || fail "cannot install sunset $VERSION (above)"
    bin=$(install_deb "$deb") || fail "cannot install sunset $VERSION (above)"
    echo "sunset: installed $VERSION: $bin"
    echo "path=$bin" >>"$out"
elif command -v sunset >/dev/null 2>&1; then
    echo "path=$(command -v sunset)" >>"$out"
elif [[ "${ACTION_REF:-}" =~ ^v([0-9]+\.[0-9]+\.[0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" = "$(cat "$here/VERSION")" ] &&
    deb=$(fetch_deb "${BASH_REMATCH[1]}") && bin=$(install_deb "$deb"); then
    echo "sunset: installed the release of $ACTION_REF: $bin"
    echo "path=$bin" >>"$out"
else
    [ -z "${ACTION_REF:-}" ] || [[ ! "$ACTION_REF" =~ ^v[0-9] ]] ||
        echo "::warning::sunset: the release package of $ACTION_REF could not be installed (above); building from source"
    build_from_source
fi

#!/bin/sh
# test-deb.sh DEB — the Debian package on a fresh Debian machine (make deb-test): a minbase
# bookworm chroot made by debootstrap from the mirror this machine's apt uses (MIRROR=URL
# overrides), man-db installed as a user has it, then `apt-get install ./DEB` as a user would.
# Checks: what the install pulled holds no -dev package, compiler or npm; from /, `sunset
# --version`, `scan`, `check --staged` (failing and passing), the installed pre-commit hook,
# `report` and `man sunset` work; every file `dpkg -L sunset` lists is there; after `apt-get
# remove sunset` none is, nor anything else named sunset; after autoremove (the libraries
# gone), the action's installer (scripts/action-install.sh) installs the package's
# dependencies and runs it. Prints each phase's seconds.
# Needs root and the network (debootstrap, apt). SUNSET_CHROOT_BASE=DIR starts from a copy of
# an existing debootstrap'ed tree instead (it is never changed). Exit 0 when every check
# passes, 1 when one fails, 2 when it cannot run.
set -eu

die() {
    echo "test-deb: $*" >&2
    exit 2
}

[ $# -eq 1 ] || die "usage: test-deb.sh path/to/sunset_VERSION_ARCH.deb"
deb=$1
[ -f "$deb" ] || die "$deb: no such file"
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null 2>&1 || die "debootstrap is not installed (SUNSET_WITH_DEB=1 scripts/install-deps.sh)"

# the mirror: the first Debian URI of this machine's apt sources, else Debian's own
mirror=${MIRROR:-$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '/^URIs:/ && $2 ~ /\/debian\/?$/ {print $2; exit}')}
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian

root=$(mktemp -d "${TMPDIR:-/tmp}/sunset-deb-test-XXXXXX")
# the chroot's / : mktemp's 0700 would lock apt's and man's own users out of everything
chmod 755 "$root"
cleanup() {
    umount "$root/proc" 2>/dev/null || true
    # never follow a mount out of the chroot
    rm -rf --one-file-system "$root"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

t0=$(date +%s)
phase() {
    now=$(date +%s)
    echo "test-deb: $1: $((now - t0)) s"
    t0=$now
}
passed=0
failed=0
ok() {
    echo "ok - $1"
    passed=$((passed + 1))
}
bad() {
    echo "not ok - $1" >&2
    failed=$((failed + 1))
}
# a command in the chroot; apt's and debconf's chatter goes to /tmp/apt.log there
in_root() {
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive sh -c "$1"
}
quiet() {
    in_root "$1" 2>>"$root/tmp/apt.log" || { tail -5 "$root/tmp/apt.log" >&2; return 1; }
}

if [ -n "${SUNSET_CHROOT_BASE:-}" ]; then
    cp -a "$SUNSET_CHROOT_BASE/." "$root/"
else
    debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 ||
        { tail -5 "$root.log" >&2; rm -f "$root.log"; die "debootstrap from $mirror failed"; }
    rm -f "$root.log"
fi
phase "debootstrap"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
quiet "apt-get update -qq && apt-get install -y -qq man-db >/dev/null" || die "apt-get in the chroot failed"
in_root "dpkg-query -W -f '\${Package}\n' | sort" >"$root/before.txt"
cp "$deb" "$root/tmp/"
name=$(basename "$deb")
phase "chroot ready"

# 1. the install, as a user types it, and what it pulled
if quiet "cd /tmp && apt-get install -y -qq ./$name >/dev/null"; then ok "apt-get install ./$name"; else
    bad "apt-get install ./$name"
    exit 1
fi
in_root "dpkg-query -W -f '\${Package}\n' | sort" >"$root/after.txt"
pulled=$(comm -13 "$root/before.txt" "$root/after.txt" | tr '\n' ' ')
echo "test-deb: installed: $pulled"
build_tools=$(echo "$pulled" | tr ' ' '\n' | grep -E -- '-dev$|^(gcc|g\+\+|cpp|clang|make|npm|nodejs|pkg-config|pkgconf)(-[0-9]+)?$' || true)
if [ -z "$build_tools" ]; then ok "only runtime packages pulled"; else bad "build tools pulled: $build_tools"; fi
phase "install"

# 2. the commands, from /
legacy='namespace paddle {\nvoid Run() { auto *pe = new ParallelExecutor(p); }\n}\n'
in_root "mkdir -p /tmp/tree/paddle/fluid/framework && printf '$legacy' >/tmp/tree/paddle/fluid/framework/run.cc"
in_root "cd / && sunset --version" && ok "sunset --version" || bad "sunset --version"
in_root "cd / && sunset scan -q --no-cache /tmp/tree | grep -q 'PE-CPP-IDENT'" && ok "sunset scan" || bad "sunset scan"
in_root "cd / && sunset report -q --no-cache /tmp/tree --out-dir /tmp/rep && test -s /tmp/rep/tracking.md &&
    test -s /tmp/rep/tracking.html" && ok "sunset report" || bad "sunset report"
in_root "MANWIDTH=200 man -P cat sunset 2>/dev/null | grep -qF 'sunset check [--baseline FILE]'" && ok "man sunset" || bad "man sunset"
repo='mkdir /tmp/r && cd /tmp/r && git init -q && git config user.email t@example.com && git config user.name t &&
    mkdir -p paddle/fluid && echo "void Run() {}" >paddle/fluid/run.cc && git add -A && git commit -qm base'
in_root "$repo" || die "git in the chroot failed"
rc=0
in_root "cd /tmp/r && printf '$legacy' >paddle/fluid/run.cc && git add -A && cd / &&
    sunset check -q --staged /tmp/r >/dev/null" || rc=$?
[ $rc -eq 1 ] && ok "check --staged fails a legacy change" || bad "check --staged fails a legacy change (exit $rc)"
in_root "cd /tmp/r && git reset -q --hard && echo '# notes' >NOTES.md && git add NOTES.md && cd / &&
    sunset check -q --staged /tmp/r >/dev/null" && ok "check --staged passes a clean one" ||
    bad "check --staged passes a clean one"
in_root "cd /tmp/r && cp /usr/share/sunset/ci/pre-commit .git/hooks/ && printf '$legacy' >paddle/fluid/run.cc &&
    git add -A && ! git commit -qm legacy >/dev/null 2>&1 && git reset -q --hard &&
    echo '# more' >NOTES.md && git add NOTES.md && git commit -qm notes >/dev/null 2>&1" &&
    ok "the installed pre-commit hook" || bad "the installed pre-commit hook"
phase "commands"

# 3. every file is installed, and removed
in_root "dpkg -L sunset" >"$root/files.txt"
n=0
missing=""
while read -r f; do
    [ -d "$root$f" ] && continue
    n=$((n + 1))
    [ -e "$root$f" ] || missing="$missing $f"
done <"$root/files.txt"
[ -z "$missing" ] && [ "$n" -gt 0 ] && ok "$n files installed" || bad "listed but missing:$missing"
quiet "apt-get remove -y -qq sunset >/dev/null" && ok "apt-get remove sunset" || bad "apt-get remove sunset"
left=""
while read -r f; do
    [ -d "$root$f" ] && case "$f" in */sunset | */sunset/*) ;; *) continue ;; esac
    [ -e "$root$f" ] && left="$left $f"
done <"$root/files.txt"
others=$(cd "$root" && find usr etc var/lib/dpkg/info -name '*sunset*' 2>/dev/null | tr '\n' ' ')
status=$(in_root "dpkg-query -W -f '\${db:Status-Abbrev}' sunset 2>/dev/null" || true)
[ -z "$left" ] && [ -z "$others" ] && [ "$status" != "rc " ] && ok "nothing left after remove" ||
    bad "left after remove:$left $others (status '$status')"
phase "remove"

# 4. the action's installer where the libraries are gone: it installs the package's Depends
quiet "apt-get autoremove -y -qq >/dev/null"
mkdir -p "$root/tmp/action/scripts" "$root/tmp/rt"
cp "$(dirname "$0")/action-install.sh" "$root/tmp/action/scripts/"
quiet "cd /tmp/r && RUNNER_TEMP=/tmp/rt GITHUB_OUTPUT=/tmp/rt.out VERSION=/tmp/$name bash /tmp/action/scripts/action-install.sh &&
    grep -qx 'path=/tmp/rt/sunset-pkg/usr/bin/sunset' /tmp/rt.out &&
    cd / && /tmp/rt/sunset-pkg/usr/bin/sunset scan -q --no-cache /tmp/tree | grep -q PE-CPP-IDENT" &&
    ok "the action's installer, dependencies missing" || bad "the action's installer, dependencies missing"
phase "action installer"

echo "test-deb: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# bump-version.sh X.Y.Z [--date YYYY-MM-DD] — make a release: the file VERSION (the one
# place --version, the package and `make dist` read) becomes X.Y.Z, and so does every file
# that repeats it: CHANGELOG.md's top heading "## ... — unreleased" becomes "## X.Y.Z — DATE"
# (its entries are written beforehand, by hand; nothing else in it changes), debian/changelog
# gets the entry "sunset (X.Y.Z) unstable" (replacing an UNRELEASED entry on top), the man
# page's .TH line, and the container image tag of the sunset-docker hook. DATE defaults to
# today (UTC). Run at the top of a checkout; it commits nothing and tags nothing: it prints
# the commands that do, `git tag -a vX.Y.Z` naming the release. Exit 0, or 2 with the reason.
set -eu

fail() {
    echo "bump-version.sh: $*" >&2
    exit 2
}

[ $# -ge 1 ] || fail "usage: bump-version.sh X.Y.Z [--date YYYY-MM-DD]"
new=$1
shift
date=$(date -u +%Y-%m-%d)
while [ $# -gt 0 ]; do
    case "$1" in
    --date) [ $# -ge 2 ] || fail "--date needs YYYY-MM-DD"; date=$2; shift 2 ;;
    *) fail "unknown option $1" ;;
    esac
done
echo "$new" | grep -Eqx '(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)' ||
    fail "$new: not a version X.Y.Z (semantic versioning, no prefix)"
echo "$date" | grep -Eqx '[0-9]{4}-[0-9]{2}-[0-9]{2}' || fail "--date $date: not YYYY-MM-DD"
rfc=$(date -u -d "$date" -R 2>/dev/null) || fail "--date $date: not a date"
for f in VERSION CHANGELOG.md debian/changelog src/sunset.1 .pre-commit-hooks.yaml; do
    [ -f "$f" ] || fail "$f: missing (run at the top of a sunset checkout)"
done
old=$(cat VERSION)

# CHANGELOG.md: the first "## " heading must be the unreleased section being released
top=$(grep -n -m1 '^## ' CHANGELOG.md) || fail "CHANGELOG.md: no '## VERSION — ...' heading"
line=${top%%:*}
case "${top#*:}" in
*" — unreleased") ;;
*) fail "CHANGELOG.md:$line: the top section '${top#*:}' is released already: write the changes of $new under '## $new — unreleased' first" ;;
esac
maint=$(sed -n 's/^ -- \(.*>\)  .*/\1/p' debian/changelog | head -1)
[ -n "$maint" ] || fail "debian/changelog:1: no trailer line ' -- NAME <EMAIL>  DATE' to take the maintainer from"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# each file is rewritten into $tmp, then all are moved into place
echo "$new" >"$tmp/VERSION"
sed "${line}s/^## .* — unreleased\$/## $new — $date/" CHANGELOG.md >"$tmp/CHANGELOG.md"
{
    printf 'sunset (%s) unstable; urgency=medium\n\n  * Release %s: see /usr/share/doc/sunset/CHANGELOG.md.gz.\n\n -- %s  %s\n' \
        "$new" "$new" "$maint" "$rfc"
    # the UNRELEASED entry on top is the one being released
    if head -1 debian/changelog | grep -q ') UNRELEASED;'; then
        awk 'NR > 1 && /^[a-z]/ {keep = 1} keep' debian/changelog | sed '1s/^/\n/'
    else
        printf '\n'
        cat debian/changelog
    fi
} >"$tmp/changelog"
sed "s/^\.TH SUNSET 1 \"[^\"]*\" \"sunset [^\"]*\"/.TH SUNSET 1 \"$date\" \"sunset $new\"/" src/sunset.1 >"$tmp/sunset.1"
sed "s/^\(  entry: sunset:\)[0-9][0-9.]* /\1$new /" .pre-commit-hooks.yaml >"$tmp/hooks.yaml"
grep -q "^\.TH SUNSET 1 \"$date\" \"sunset $new\"" "$tmp/sunset.1" || fail "src/sunset.1: no '.TH SUNSET 1 \"DATE\" \"sunset VERSION\"' line"
grep -q "^  entry: sunset:$new " "$tmp/hooks.yaml" || fail ".pre-commit-hooks.yaml: no '  entry: sunset:VERSION ...' line"

mv "$tmp/VERSION" VERSION
mv "$tmp/CHANGELOG.md" CHANGELOG.md
mv "$tmp/changelog" debian/changelog
mv "$tmp/sunset.1" src/sunset.1
mv "$tmp/hooks.yaml" .pre-commit-hooks.yaml
echo "sunset $old -> $new ($date): VERSION CHANGELOG.md debian/changelog src/sunset.1 .pre-commit-hooks.yaml"
echo "next: make && make golden (review: only testdata/cli/version changes), make test, then"
echo "  git commit -am 'sunset $new' && git tag -a v$new -m 'sunset $new' && make dist deb"

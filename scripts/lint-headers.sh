#!/bin/sh
# lint-headers.sh [SRC] — checks the layering of the source tree (README "Architecture"):
#   base/      sunset.h and base/ only (no sunset semantics)
#   lang/      sunset.h, base/ and lang/ (a frontend sees the seam, never the engine)
#   core/      + core/ (never lang/: the session hands the engine its frontends; the language
#              table is core/lang.h)
#   analysis/  + analysis/ (never report/ or cmd/)
#   report/    + analysis/ and report/ (never cmd/)
#   cmd/       anything but test/ and fuzz/
# plus: every path a comment names (engine.c, core/engine.h, src/lang/text.c) exists: a bare
# name somewhere in SRC, a path below SRC or the checkout (paddle/..., system headers and
# files whose stem is one letter, the examples, are not ours and not checked), and so does
# every file of the checkout's scripts/, rules/, testdata/, queries/ or debian/ a comment
# names (scripts/lint-funcs.sh, rules/SCHEMA.md; one-letter stems are examples);
# plus: a *_int.h only from its own folder, no include cycle between files, no .c file over
# 1,200 lines, at most three .c files loose in src/ beside main.c. Prints one line per
# violation (FILE:LINE: what) and exits 1 if there is any. POSIX sh and awk only.
set -u
src=${1:-src}
bad=0
files=$(find "$src" -name '*.[ch]' ! -path "$src/test/*" ! -path "$src/fuzz/*" | sort)
# shellcheck disable=SC2086
awk -v src="$src/" '
function tier(p) {
    sub("^" src, "", p)
    if (p == "sunset.h") return "seam"
    if (p ~ /^base\//) return "base"
    if (p ~ /^lang\//) return "lang"
    if (p ~ /^core\//) return "core"
    if (p ~ /^analysis\//) return "analysis"
    if (p ~ /^report\//) return "report"
    if (p ~ /^cmd\//) return "cmd"
    if (p == "main.c") return "main"
    return "loose"
}
# A *_int.h is private to its folder (that of core too: the tiers above read the rule set via
# core/ruleset.h).
function private_ok(file, inc, t,    d) {
    d = inc; sub(/\/[^\/]*$/, "/", d)
    return index(file, d) == 1
}
function allowed(t, inc) {
    if (inc == "sunset.h") return t != "seam"
    if (inc ~ /^base\//) return t != "seam"
    if (t == "base") return 0
    if (inc ~ /^lang\//) return t == "lang" || t == "cmd" || t == "main" || t == "loose"
    if (t == "lang") return 0
    if (inc ~ /_int\.h$/) return private_ok(rel, inc, t)
    if (inc ~ /^core\//) return 1
    if (t == "core") return 0
    if (inc ~ /^analysis\//) return 1
    if (t == "analysis") return inc !~ /^(report|cmd)\//
    if (inc ~ /^report\//) return 1
    if (t == "report") return inc !~ /^cmd\//
    return inc !~ /^(test|fuzz)\//
}
FNR == 1 {
    f = FILENAME; rel = f; sub("^" src, "", rel); t = tier(f); nlines[rel] = 0
    if (rel ~ /\.c$/ && t == "loose") loose[++nloose] = rel
}
{ nlines[rel]++ }
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
    if (inc ~ /^(cjson|tree_sitter|clang-c|pcre2|git2)/) next
    if (!allowed(t, inc)) { printf "%s:%d: a %s file may not include \"%s\"\n", f, FNR, t, inc; bad = 1 }
    edges[rel] = edges[rel] " " inc
}
function visit(n,    k, parts, i, m) {
    if (state[n] == 1) { printf "%s: include cycle through %s\n", src n, stackpath(n); bad = 1; return }
    if (state[n] == 2) return
    state[n] = 1; stack[++depth] = n
    m = split(edges[n], parts, " ")
    for (i = 1; i <= m; i++) visit(parts[i])
    depth--; state[n] = 2
}
function stackpath(n,    i, s) { s = ""; for (i = 1; i <= depth; i++) s = s stack[i] " -> "; return s n }
END {
    for (n in nlines) {
        if (n ~ /\.c$/ && nlines[n] > 1200) { printf "%s%s: %d lines (at most 1,200)\n", src, n, nlines[n]; bad = 1 }
        visit(n)
    }
    if (nloose > 3) {
        printf "%s: %d .c files loose beside main.c (at most 3):", src, nloose
        for (i = 1; i <= nloose; i++) printf " %s", loose[i]
        printf "\n"; bad = 1
    }
    exit bad
}' $files || bad=1
# Paths named in comments: the first input is the list of files under SRC (relative to it).
# shellcheck disable=SC2086
find "$src" -name '*.[ch]' | sed "s|^$src/||" | awk -v src="$src/" -v root="$(dirname "$src")" '
BEGIN {
    # the other files of the checkout a comment may name (scripts/lint-funcs.sh, rules/SCHEMA.md)
    cmd = "cd \"" root "\" && find scripts rules testdata queries debian -type f 2>/dev/null"
    while ((cmd | getline l) > 0) other[l] = 1
    close(cmd)
}
NR == FNR { have[$0] = 1; n = $0; sub(/.*\//, "", n); base[n] = 1; next }
FNR == 1 { incomment = 0; f = FILENAME; dir = f; sub("^" src, "", dir); if (dir ~ /\//) sub(/\/[^\/]*$/, "/", dir); else dir = "" }
/^[ \t]*#[ \t]*include[ \t]*</ { h = $0; sub(/^[^<]*</, "", h); sub(/>.*$/, "", h); sub(/.*\//, "", h); sys[h] = 1 }
{
    line = $0; text = ""
    if (incomment) {
        e = index(line, "*/")
        if (e) { text = substr(line, 1, e - 1); incomment = 0 } else text = line
    } else {
        s = index(line, "/*"); d = index(line, "//")
        if (d && (!s || d < s)) text = substr(line, d + 2)
        else if (s) {
            rest = substr(line, s + 2); e = index(rest, "*/")
            if (e) text = substr(rest, 1, e - 1); else { text = rest; incomment = 1 }
        }
    }
    t2 = text
    while (text != "" && match(text, /[A-Za-z0-9_.\/-]*[A-Za-z0-9_]\.[ch]([^A-Za-z0-9_]|$)/)) {
        tok = substr(text, RSTART, RLENGTH); sub(/[^A-Za-z0-9_]$/, "", tok)
        text = substr(text, RSTART + RLENGTH)
        if (tok ~ /^paddle\// || tok ~ /^_/ || tok ~ /^[A-Za-z](\.[a-z]+)+$/ || sys[tok]) continue
        p = tok; sub(/^src\//, "", p)
        if (p ~ /\// ? (have[p] || have[dir p]) : base[p]) continue
        printf "%s:%d: the comment names %s, which does not exist\n", FILENAME, FNR, tok; bad = 1
    }
    while (t2 != "" && match(t2, /(scripts|rules|testdata|queries|debian)\/[A-Za-z0-9_.\/-]*[A-Za-z0-9_]\.[a-z]+/)) {
        tok = substr(t2, RSTART, RLENGTH); t2 = substr(t2, RSTART + RLENGTH)
        stem = tok; sub(/.*\//, "", stem); sub(/\..*/, "", stem)
        if (length(stem) == 1 || other[tok]) continue
        printf "%s:%d: the comment names %s, which does not exist\n", FILENAME, FNR, tok; bad = 1
    }
}
END { exit bad }' - $files || bad=1
exit $bad

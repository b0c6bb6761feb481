#!/bin/sh
# check-refs.sh — an independent check of a removal patch, written without sunset's code: after
# `git apply PATCH` in TREE (a git work tree), does anything still name a file PATCH deleted?
#
#   scripts/check-refs.sh TREE PATCH
#
# For every file the patch deletes (`deleted file mode`), it looks with git grep for
#   - CMake: the file's name (as written: a path relative to the CMake file, or its base name)
#     in CMakeLists.txt / *.cmake of its own directory and every ancestor, resolved back to the
#     deleted file; a deleted Python test module's stem in its own directory's CMakeLists.txt;
#   - includes: `#include "ROOT/RELATIVE/PATH"` of a deleted header anywhere, and
#     `#include "base.h"` from its own directory;
#   - imports: `import a.b.c` / `from a.b.c import` / `from a.b import c` of a deleted module
#     under python/ (dotted from python/), and of a deleted test module's stem from its own
#     directory (sibling imports);
#   - registrations: `USE_OP(x)` / `USE_OP_ITSELF(x)` / `USE_NO_KERNEL_OP(x)` / `USE_PASS(x)` /
#     `DECLARE_FILE_SYMBOLS(x)` / `PD_DECLARE_KERNEL(x, ...)` of an operator, pass, file's symbols
#     or kernel whose only `REGISTER_OPERATOR(x` / `REGISTER_PASS(x` (or `REGISTER_..._PASS(x`, a
#     wrapper) / `REGISTER_FILE_SYMBOLS(x)` /
#     `PD_REGISTER_KERNEL(x` the patch deletes;
#   - added imports: `from MOD import NAME` on a line the patch adds to a .py file (a re-exported
#     name taken from where it is defined) must name a module file of the tree that binds NAME;
#   - CMake targets: a target whose defining command the patch removes (`cc_test(NAME`,
#     `paddle_test(NAME`, `py_test_modules(NAME` ...) and that no CMake file still defines, named
#     as a word in the CMake file it was defined in.
# Paths may be C-quoted as git writes them (core.quotePath); a rename's old path counts as deleted.
# Prints one `path:line: names deleted FILE` per dangling reference; exits 0 when there is none,
# 1 when there are, 2 on a usage error or when a check cannot run (TREE no git work tree, PATCH
# unreadable, git grep failing).
set -eu

if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -f "$2" ] || [ ! -r "$2" ]; then
    echo "usage: check-refs.sh TREE PATCH (TREE: a git work tree the patch was applied to)" >&2
    exit 2
fi
# both resolved before the cd into the tree: a relative PATCH read from there is another file
tree=$(cd "$1" && pwd -P)
patch=$(cd "$(dirname "$2")" && pwd -P)/$(basename "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# a check that cannot run (git grep, awk or grep failing) fails the whole check: exit 2 at the end
fail() {
    echo "check-refs: $*" >&2
    : >"$tmp/failed"
}
# git grep, its errors (exit > 1) recorded: in a pipeline its own status is lost
gg() {
    git grep "$@" >"$tmp/gg.$$" 2>"$tmp/gg.err"
    r=$?
    [ "$r" -le 1 ] || fail "git grep $* failed: $(head -1 "$tmp/gg.err")"
    cat "$tmp/gg.$$"
}
# git grep -q: 0 found, 1 not (an error recorded, and not found)
gq() {
    git grep -q "$@" 2>"$tmp/gg.err"
    r=$?
    [ "$r" -le 1 ] || fail "git grep $* failed: $(head -1 "$tmp/gg.err")"
    [ "$r" -eq 0 ]
}
# a path as git writes it in a patch: C-quoted ("a/\346\226\207.cc", core.quotePath) or bare
unquote() {
    case $1 in
    \"*\")
        q=${1#\"}
        q=${q%\"}
        printf '%b' "$(printf '%s' "$q" | sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g')"
        ;;
    *) printf '%s' "$1" ;;
    esac
}

cd "$tree" || exit 2
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
    echo "check-refs: $tree is not a git work tree" >&2
    exit 2
}

# deleted files: "deleted file mode" (the path from its --- line, else from the header, whose
# two paths are the same), and the old path of a rename (what still names it dangles)
awk '/^diff --git /{ if (del && p != "") print "D" p; del=0; h=substr($0, 12)
        if (h ~ /^"/) { p=h; sub(/" .*/, "\"", p) } else p=substr(h, 1, (length(h) - 1) / 2); next }
     /^deleted file mode/{ del=1; next }
     /^--- / && del { p=substr($0, 5); sub(/\t$/, "", p); next }
     /^rename from /{ print "R" substr($0, 13); next }
     END { if (del && p != "") print "D" p }' "$patch" >"$tmp/deleted.raw" || fail "cannot read $patch"
while IFS= read -r p; do
    kind=${p%"${p#?}"}
    p=$(unquote "${p#?}")
    [ "$kind" = D ] && p=${p#a/} # the header's and the --- line's paths have git's a/ prefix
    printf '%s\n' "$p"
done <"$tmp/deleted.raw" | sort -u >"$tmp/deleted"
: >"$tmp/out"

git ls-files -- 'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake' >"$tmp/cmake" || fail "git ls-files failed"

ere_quote() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }

# normalise a/./b and a/x/../b
norm() { printf '%s\n' "$1" | awk -F/ '{n=0; for(i=1;i<=NF;i++){ if($i=="."||$i=="") continue; if($i==".."){ if(n) n--; continue } s[++n]=$i } o=""; for(i=1;i<=n;i++) o=o (i>1?"/":"") s[i]; print o}'; }

while IFS= read -r del; do
    dir=$(dirname "$del")
    base=$(basename "$del")
    qb=$(ere_quote "$base")
    # CMake files of this directory and every ancestor
    d=$dir
    while :; do
        case $d in /*) fail "absolute path $del in the patch"; break ;; esac
        if [ "$d" = . ]; then cm=CMakeLists.txt; else cm=$d/CMakeLists.txt; fi
        for f in $(grep -E "^$(ere_quote "${cm%CMakeLists.txt}")[^/]*(CMakeLists\.txt|\.cmake)\$" "$tmp/cmake" || true); do
            [ -f "$f" ] || continue
            fdir=$(dirname "$f")
            grep -noE "[A-Za-z0-9_./\${}-]*(^|/)?$qb" "$f" 2>/dev/null | while IFS=: read -r ln tok; do
                case "$tok" in *'${'*) continue ;; esac
                # the token must end the argument: check the character after it on its line
                line=$(sed -n "${ln}p" "$f")
                if ! printf '%s\n' "$line" | grep -qE "(^|[^A-Za-z0-9_.-])$(ere_quote "$tok")(\$|[^A-Za-z0-9_.-])"; then continue; fi
                if [ "$fdir" = . ]; then r=$(norm "$tok"); else r=$(norm "$fdir/$tok"); fi
                [ "$r" = "$del" ] && echo "$f:$ln: names deleted $del"
            done
        done
        [ "$d" = . ] && break
        d=$(dirname "$d")
    done
    case "$base" in
    *.py)
        stem=${base%.py}
        qs=$(ere_quote "$stem")
        # test names registered in the module's own CMakeLists.txt
        cm=$dir/CMakeLists.txt
        if [ -f "$cm" ]; then
            grep -nE "(^|[^A-Za-z0-9_])$qs(\$|[^A-Za-z0-9_])" "$cm" | sed "s|^\([0-9]*\):.*|$cm:\1: names deleted $del|" || true
        fi
        # imports of the module: dotted from python/, and by stem from its own directory
        case "$del" in
        python/*)
            mod=$(printf '%s' "${del#python/}" | sed 's/\.py$//; s|/__init__$||; s|/|.|g')
            pkg=${mod%.*}
            last=${mod##*.}
            gg -nE "^[[:space:]]*(import[[:space:]]+$(ere_quote "$mod")([[:space:]]|,|\$)|from[[:space:]]+$(ere_quote "$mod")[[:space:]]+import|from[[:space:]]+$(ere_quote "$pkg")[[:space:]]+import[[:space:]].*\\b$(ere_quote "$last")\\b)" -- '*.py' |
                sed "s|^\([^:]*:[0-9]*\):.*|\1: names deleted $del|" || true
            ;;
        esac
        gg -nE "^[[:space:]]*(import[[:space:]]+$qs([[:space:]]|,|\$)|from[[:space:]]+\.?$qs[[:space:]]+import|from[[:space:]]+\.[[:space:]]+import[[:space:]].*\\b$qs\\b)" -- "$dir/*.py" |
            sed "s|^\([^:]*:[0-9]*\):.*|\1: names deleted $del|" || true
        ;;
    *.h | *.hpp | *.cuh | *.hh | *.inc)
        gg -nF "#include \"$del\"" -- '*.h' '*.hpp' '*.hh' '*.cuh' '*.c' '*.cc' '*.cpp' '*.cu' '*.cxx' '*.inc' |
            sed "s|^\([^:]*:[0-9]*\):.*|\1: names deleted $del|" || true
        gg -nF "#include \"$base\"" -- "$dir/*" |
            sed "s|^\([^:]*:[0-9]*\):.*|\1: names deleted $del|" || true
        ;;
    esac
done <"$tmp/deleted" >>"$tmp/out"

# targets whose definition the patch removed
{ awk '/^diff --git /{p=substr($4,3)} /^-[[:space:]]*[A-Za-z_]+\([[:space:]]*[A-Za-z0-9_]+/{
        if (p !~ /(CMakeLists\.txt|\.cmake)$/) next
        l=substr($0,2); sub(/^[[:space:]]*/,"",l); cmd=l; sub(/\(.*/,"",cmd); cmd=tolower(cmd)
        if (cmd !~ /^(cc_test|cc_test_old|cc_library|nv_test|nv_library|hip_test|paddle_test|py_test|py_test_modules|cinn_cc_test|cc_binary|xpu_library|xpu_test)$/) next
        n=l; sub(/^[^(]*\([[:space:]]*/,"",n); sub(/[^A-Za-z0-9_].*/,"",n); print p "\t" n }' "$patch" || fail "cannot read $patch"; } | sort -u >"$tmp/targets"
while IFS="$(printf '\t')" read -r f name; do
    [ -f "$f" ] || continue
    if gq -iE "^[[:space:]]*[a-z_]+\([[:space:]]*$name([[:space:]]|\)|\$)" -- 'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake'; then
        # still defined somewhere: only a reference if no definition is left
        gg -hiE "^[[:space:]]*[a-z_]+\([[:space:]]*$name([[:space:]]|\)|\$)" -- 'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake' |
            grep -qiE "^[[:space:]]*(cc_test|cc_test_old|cc_library|nv_test|nv_library|hip_test|paddle_test|py_test|py_test_modules|cinn_cc_test|cc_binary|xpu_library|xpu_test)\(" && continue
    fi
    grep -nwF "$name" "$f" | sed "s|^\([0-9]*\):.*|$f:\1: names removed target $name|" || true
done <"$tmp/targets" >>"$tmp/out"

# registrations the patch deletes, still linked by name (a link-time reference): per kind, the
# macros defining a symbol and the macros declaring and linking it
#   op:     REGISTER_OPERATOR / REGISTER_OP_WITHOUT_GRADIENT / PD_REGISTER_STRUCT_KERNEL, linked by
#           USE_OP / USE_OP_ITSELF / USE_NO_KERNEL_OP
#   pass:   REGISTER_PASS, or a wrapper of it named REGISTER_..._PASS (a file's own macro, as
#           REGISTER_MULTI_DEVICES_PASS), linked by USE_PASS
#   sym:    REGISTER_FILE_SYMBOLS, linked by DECLARE_FILE_SYMBOLS
#   kernel: PD_REGISTER_KERNEL / PD_REGISTER_STRUCT_KERNEL / PD_REGISTER_KERNEL_FOR_ALL_DTYPE,
#           linked by PD_DECLARE_KERNEL
defs_of() {
    case $1 in
    op) echo 'REGISTER_OPERATOR|REGISTER_OP_WITHOUT_GRADIENT|PD_REGISTER_STRUCT_KERNEL' ;;
    pass) echo 'REGISTER_PASS|REGISTER_[A-Z0-9_]*_PASS' ;;
    sym) echo 'REGISTER_FILE_SYMBOLS' ;;
    kernel) echo 'PD_REGISTER_KERNEL|PD_REGISTER_STRUCT_KERNEL|PD_REGISTER_KERNEL_FOR_ALL_DTYPE' ;;
    esac
}
uses_of() {
    case $1 in
    op) echo 'USE_OP|USE_OP_ITSELF|USE_NO_KERNEL_OP' ;;
    pass) echo 'USE_PASS' ;;
    sym) echo 'DECLARE_FILE_SYMBOLS' ;;
    kernel) echo 'PD_DECLARE_KERNEL' ;;
    esac
}
{ awk 'function kinds(m) {
        if (m ~ /^(REGISTER_OPERATOR|REGISTER_OP_WITHOUT_GRADIENT)$/) return "op"
        if (m == "PD_REGISTER_STRUCT_KERNEL") return "op kernel"
        if (m == "REGISTER_PASS" || m ~ /^REGISTER_[A-Z0-9_]*_PASS$/) return "pass"
        if (m == "REGISTER_FILE_SYMBOLS") return "sym"
        if (m ~ /^(PD_REGISTER_KERNEL|PD_REGISTER_KERNEL_FOR_ALL_DTYPE)$/) return "kernel"
        return "" }
     function emit(ks, name,   k, i, n) { n=split(ks, k, " "); for (i=1;i<=n;i++) print k[i] "\t" name }
     /^diff --git /{p=substr($4,3); del=0; next} /^deleted file mode/{del=1; next}
     del && want!="" { l=substr($0,2); sub(/^[[:space:]]*/,"",l); sub(/[^A-Za-z0-9_].*/,"",l); if (l!="") emit(want, l); want=""; next }
     del && /^-[[:space:]]*[A-Z_]+\(/{
        m=substr($0,2); sub(/^[[:space:]]*/,"",m); sub(/\(.*/,"",m); ks=kinds(m); if (ks=="") next
        l=substr($0,2); sub(/^[^(]*\([[:space:]]*/,"",l); sub(/[^A-Za-z0-9_].*/,"",l); if (l!="") emit(ks, l); else want=ks }' "$patch" || fail "cannot read $patch"; } |
    sort -u >"$tmp/regs"
while IFS="$(printf '\t')" read -r kind name; do
    # still defined somewhere that stays: not dangling
    gq -E "($(defs_of "$kind"))\([[:space:]]*$name[[:space:]]*[,)]" -- '*.cc' '*.cu' '*.h' '*.cpp' && continue
    gg -nE "($(uses_of "$kind"))\([[:space:]]*$name[[:space:]]*[,)]" -- '*.cc' '*.cu' '*.h' '*.cpp' |
        sed "s|^\([^:]*:[0-9]*\):.*|\1: links removed registration $name|" || true
done <"$tmp/regs" >>"$tmp/out"

# imports the patch adds (a re-exported name taken from where it is defined): the module must be
# a file of the tree (dotted from the importer's directory or from python/) that still binds
# the name at module level (def, class, assignment, an import of it, or a star import)
{ awk '/^\+\+\+ b\//{p=substr($2,3); next} /^\+\+\+ /{p=""; next}
     /^\+[[:space:]]*from[[:space:]]/{ if (p !~ /\.py$/) next; l=substr($0,2); n=split(l, st, ";")
        for (i=1;i<=n;i++) { s=st[i]; if (match(s, /from[[:space:]]+[A-Za-z0-9_.]+[[:space:]]+import[[:space:]]+[A-Za-z0-9_]+/)) {
            s=substr(s, RSTART, RLENGTH); split(s, w, /[[:space:]]+/); print p "\t" w[2] "\t" w[4] } } }' "$patch" || fail "cannot read $patch"; } |
    sort -u >"$tmp/added"
while IFS="$(printf '\t')" read -r f mod name; do
    rel=$(printf '%s' "$mod" | tr . /)
    found=
    for cand in "$(dirname "$f")/$rel.py" "$(dirname "$f")/$rel/__init__.py" "$rel.py" "$rel/__init__.py" "python/$rel.py" "python/$rel/__init__.py"; do
        [ -f "$cand" ] && { found=$cand; break; }
    done
    ln=$(grep -nF "$mod" "$f" | head -1 | cut -d: -f1)
    if [ -z "$found" ]; then
        echo "$f:$ln: imports $mod, which is no module of the tree"
    elif ! grep -qE "^(def|class)[[:space:]]+$name\b|^$name[[:space:]]*=|^[[:space:]]*from[[:space:]].*import[[:space:]].*(\b$name\b|\*)" "$found"; then
        echo "$f:$ln: imports $name from $found, which does not bind it"
    fi
done <"$tmp/added" >>"$tmp/out"

sort -u "$tmp/out" >"$tmp/sorted"
cat "$tmp/sorted"
n=$(wc -l <"$tmp/sorted")
if [ -e "$tmp/failed" ]; then
    echo "check-refs: a check could not run; $n dangling references found before it" >&2
    exit 2
fi
echo "check-refs: $(wc -l <"$tmp/deleted") deleted files, $n dangling references" >&2
[ "$n" -eq 0 ]

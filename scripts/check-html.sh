#!/bin/sh
# check-html.sh — renders the tracking report's HTML in headless Chromium (Debian `chromium`,
# installed here when missing, never by `make test`) and checks that the page loaded: the
# dumped DOM holds the task table with one row per task, the per-directory chart and the file
# table; no script error was logged; the screenshot is a real image; and the layout holds at a
# 1280-pixel viewport: no table is wider than the viewport and no table row is taller than
# MAX_ROW pixels (default 400), as the browser lays out a copy of the page.
#
#   sh scripts/check-html.sh [HTML] [SCREENSHOT]      MAX_ROW=N: the row bound
#
# Default HTML: a fresh `build/sunset report testdata/paddle-mini --out-dir` in a temp dir.
# Default SCREENSHOT: reports/tracking.png. Exit 0 ok, 1 a check failed, 2 set-up error.
set -eu
cd "$(dirname "$0")/.."

# chromium, and a font for the report's Chinese text (the screenshot is for people to look
# at; status is text and colour, so no emoji font is needed); apt only for what is missing
missing=""
for p in chromium fonts-wqy-zenhei; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "check-html.sh: missing$missing and there is no apt-get" >&2
        exit 2
    fi
    SUDO=""
    [ "$(id -u)" != 0 ] && SUDO=sudo
    echo "check-html.sh: installing$missing"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
html=${1:-}
shot=${2:-reports/tracking.png}
if [ -z "$html" ]; then
    [ -x build/sunset ] || make --no-print-directory build/sunset >/dev/null
    build/sunset report testdata/paddle-mini --no-config -q --out-dir "$work/out"
    html="$work/out/tracking.html"
fi
[ -f "$html" ] || { echo "check-html.sh: $html: no such file" >&2; exit 2; }
mkdir -p "$(dirname "$shot")"
url="file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
max_row=${MAX_ROW:-400}
# The layout as the browser lays it out: a copy of the page with a script that, once loaded,
# writes every table's width and its tallest row into the DOM, which --dump-dom then shows.
cp "$html" "$work/layout.html"
cat >>"$work/layout.html" <<'LAYOUT'
<script>
(function(){var vw=document.documentElement.clientWidth,out=[];
document.querySelectorAll('table').forEach(function(t,i){var w=Math.ceil(t.getBoundingClientRect().width),h=0,r=-1;
 [].forEach.call(t.rows,function(row,k){var rh=row.getBoundingClientRect().height;if(rh>h){h=rh;r=k;}});
 out.push((t.id||('table'+i))+' '+w+' '+Math.ceil(h)+' '+r);});
var m=document.createElement('pre');m.id='sunset-layout';m.setAttribute('data-viewport',vw);
m.textContent=out.join('\n');document.body.appendChild(m);})();
</script>
LAYOUT

run_chromium() {
    # every network, update and sync path off: the page is self-contained and must stay so
    chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --disable-background-networking --disable-component-update --disable-sync \
        --no-first-run --no-default-browser-check --user-data-dir="$work/profile" \
        --enable-logging=stderr --v=0 "$@"
}

run_chromium --dump-dom "$url" >"$work/dom.html" 2>"$work/dom.log" || {
    echo "check-html.sh: chromium --dump-dom failed:" >&2
    tail -5 "$work/dom.log" >&2
    exit 1
}
run_chromium --dump-dom --window-size=1280,2000 "file://$work/layout.html" >"$work/layout-dom.html" 2>/dev/null || true
run_chromium --screenshot="$shot" --window-size=1280,2000 --hide-scrollbars "$url" \
    >/dev/null 2>"$work/shot.log" || {
    echo "check-html.sh: chromium --screenshot failed:" >&2
    tail -5 "$work/shot.log" >&2
    exit 1
}

fail=0
check() { # description, command...
    d=$1
    shift
    if "$@"; then echo "ok   $d"; else echo "FAIL $d"; fail=1; fi
}
tasks_src=$(grep -o '<tr data-task="[0-9]*"' "$html" | wc -l)
tasks_dom=$(grep -o '<tr data-task="[0-9]*"' "$work/dom.html" | wc -l)
check "the DOM holds the task table" grep -q 'id="tasks"' "$work/dom.html"
check "one task row per task ($tasks_dom in the DOM, $tasks_src in the file)" \
    test "$tasks_dom" -gt 0 -a "$tasks_dom" = "$tasks_src"
check "the per-directory chart is an inline SVG" grep -q '<svg id="dirs"' "$work/dom.html"
check "the file table is present" grep -q 'id="files"' "$work/dom.html"
check "no external asset (src= / stylesheet link)" sh -c "! grep -Eq '<(script|img|link)[^>]+(src|href)=\"(https?:)?//' '$html'"
check "no script error in the console" sh -c "! grep -Eiq 'Uncaught|SyntaxError|ReferenceError|TypeError' '$work/dom.log' '$work/shot.log'"
check "the screenshot is a PNG" sh -c "head -c 8 '$shot' | od -An -tx1 | grep -q '89 50 4e 47'"
size=$(wc -c <"$shot")
check "the screenshot is not blank ($size bytes)" test "$size" -gt 20000
# the task table as a reader first sees it: the top of the page alone
run_chromium --screenshot="$work/table.png" --window-size=1280,700 --hide-scrollbars "$url" >/dev/null 2>&1
tsize=$(wc -c <"$work/table.png" 2>/dev/null || echo 0)
check "the task table's screenshot is a non-blank PNG ($tsize bytes)" \
    sh -c "head -c 8 '$work/table.png' | od -An -tx1 | grep -q '89 50 4e 47' && test $tsize -gt 10000"
badges=$(sed -n '/<table id="tasks"/,/<\/table>/p' "$work/dom.html" | grep -o 'class="badge [a-z]*">[^<][^<]*<' | wc -l)
check "every task row shows its status as text in a badge ($badges)" test "$badges" = "$tasks_dom"
check "no status depends on an emoji font" sh -c "! grep -q -e '✅' -e '🚧' -e '⬜' '$html'"
# the layout at a 1280-pixel viewport: every table fits it, no row is taller than the bound
vw=$(grep -o 'id="sunset-layout" data-viewport="[0-9]*"' "$work/layout-dom.html" | grep -o '[0-9]*"$' | tr -d '"' || true)
sed -n '/id="sunset-layout"/,/<\/pre>/p' "$work/layout-dom.html" | sed 's/<[^>]*>//g' |
    grep -E '^[A-Za-z0-9_-]+ [0-9]+ [0-9]+ -?[0-9]+$' >"$work/layout.txt" || true
check "the browser measured the layout ($(wc -l <"$work/layout.txt") tables, viewport ${vw:-?} px)" \
    test -n "$vw" -a -s "$work/layout.txt"
wide=$(awk -v vw="${vw:-0}" '$2 > vw { printf "%s%s (%d px)", sep, $1, $2; sep = ", " }' "$work/layout.txt")
check "no table is wider than the viewport${wide:+: $wide}" test -z "$wide"
tall=$(awk -v max="$max_row" '$3 > max { printf "%s%s row %d (%d px)", sep, $1, $4, $3; sep = ", " }' "$work/layout.txt")
check "no table row is taller than $max_row px${tall:+: $tall}" test -z "$tall"
[ $fail = 0 ] && echo "check-html.sh: $html renders; screenshot $shot"
exit $fail

# tests/lib.sh - helpers for the shell tests (source it).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warplat-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
nfail=0

fail() { echo "FAIL: $*" >&2; nfail=$((nfail + 1)); }
skip() { echo "$*"; exit 77; }
done_testing() { [ "$nfail" -eq 0 ] || { echo "$nfail check(s) failed" >&2; exit 1; }; echo ok; exit 0; }

# expect_exit CODE CMD...: run CMD, check its exit status; stdout+stderr in $OUTTXT.
expect_exit() {
    local want=$1; shift
    OUTTXT=$("$@" 2>&1); local got=$?
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want; said: $OUTTXT"
}
# expect_says TEXT: the last expect_exit's output contains TEXT.
expect_says() { case "$OUTTXT" in *"$1"*) ;; *) fail "expected output to contain '$1'; got: $OUTTXT";; esac; }

# golden NAME CMD...: the stdout of CMD must equal the file $G/NAME (G: the
# test's golden folder); UPDATE_GOLDEN=1 rewrites the file instead.
golden() { # NAME CMD...: stdout of CMD must equal $G/NAME
    local name=$1; shift
    if ! "$@" >"$TMP/$name" 2>"$TMP/$name.err"; then
        fail "'$*' failed: $(cat "$TMP/$name.err")"; return
    fi
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then cp "$TMP/$name" "$G/$name"; return; fi
    [ -f "$G/$name" ] || { fail "missing golden file $G/$name"; return; }
    diff -u "$G/$name" "$TMP/$name" >"$TMP/$name.diff" ||
        fail "'$*' differs from $G/$name:
$(head -n 40 "$TMP/$name.diff")"
}

# have_gpu: true when a CUDA device is usable here.
have_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; }
require_gpu() { have_gpu || skip "no CUDA GPU on this machine"; }
# the machine has no GPU: where no driver is loaded either, the sentence says
# so plainly instead of quoting CUDA's "driver version is insufficient"
expect_no_gpu() {
    if [ -e /proc/driver/nvidia/version ]; then expect_says "no NVIDIA GPU found (CUDA: "
    else expect_says "no NVIDIA GPU or driver found;"
        case $OUTTXT in *insufficient*) fail "the no-driver sentence quotes CUDA: $OUTTXT" ;; esac
    fi
}
# wait_until SECONDS CMD...: runs CMD (quietly) every 0.05 s until it
# succeeds, status 0, or SECONDS have passed, status 1.  A wide bound costs
# nothing where the awaited start is quick; a loaded machine running the
# sanitizers' build can be slow to start a tool
wait_until() {
    local end=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do [ "$SECONDS" -lt "$end" ] || return 1; sleep 0.05; done
}
require_bin() { for b in "$@"; do [ -x "$ROOT/$b" ] || skip "$b was not built (nvcc missing?)"; done; }

# report_width DIR: the report in DIR fits its page (docs/report.md, "Tests"):
# no line of DIR/index.md outside a code block is longer than 200
# characters, and, where chromium is installed, DIR/index.html loaded at
# 1280 px is no wider than the window and no table is wider than its box
# (a table scrolls inside itself rather than widen the page).  Each breach
# is a fail; without chromium that part prints a skip and the rest counts.
report_width() {
    local dir=$1 long
    long=$(awk '/^```/ { code = !code; next } !code && length($0) > 200 { printf "%d (%d chars) ", FNR, length($0) }' \
        "$dir/index.md")
    [ -z "$long" ] || fail "$dir/index.md: lines longer than 200 characters outside code: $long"
    local chromium
    chromium=$(command -v chromium || command -v chromium-browser) ||
        { echo "skip: chromium not installed: index.html's width at 1280 px not checked"; return 0; }
    # a copy of the page beside it (the images resolve), with a script that
    # measures after load and writes the verdict into the DOM
    local page=$dir/.width-check.html
    sed 's#</body>#<script>\
window.addEventListener("load", function () {\
  var de = document.documentElement, W = de.clientWidth, bad = [];\
  if (de.scrollWidth > W) bad.push("page " + de.scrollWidth + " px wide in a " + W + " px window");\
  var t = document.getElementsByTagName("table");\
  for (var i = 0; i < t.length; i++)\
    if (t[i].scrollWidth > t[i].clientWidth + 1 || t[i].getBoundingClientRect().right > W)\
      bad.push("table " + (i + 1) + " (" + t[i].rows[0].textContent.slice(0, 60) + ") " + t[i].scrollWidth + " px in " + t[i].clientWidth);\
  var im = document.getElementsByTagName("img");\
  for (var j = 0; j < im.length; j++)\
    if (im[j].getBoundingClientRect().right > W) bad.push("image " + im[j].getAttribute("src") + " past the window");\
  document.body.setAttribute("data-width", bad.length ? bad.join("; ") : "ok " + t.length + " tables");\
});\
</script></body>#' "$dir/index.html" >"$page"
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
        --user-data-dir="$TMP/width-profile" --window-size=1280,900 --virtual-time-budget=5000 \
        --dump-dom "file://$page" >"$TMP/width-dom.html" 2>"$TMP/width-chromium.err" ||
        { fail "chromium --dump-dom failed: $(tail -n 3 "$TMP/width-chromium.err")"; rm -f "$page"; return 0; }
    rm -f "$page"
    local verdict
    verdict=$(sed -n 's/.*data-width="\([^"]*\)".*/\1/p' "$TMP/width-dom.html" | head -n 1)
    case $verdict in
        ok*) echo "$dir/index.html at 1280 px: $verdict, none wider than its box" ;;
        "") fail "$dir/index.html: the width check did not run (no data-width)" ;;
        *) fail "$dir/index.html at 1280 px: $verdict" ;;
    esac
}

# mdflat FILE: the report's Markdown with each paragraph, finding and list
# item on one line again (the writer wraps prose at 190 characters, and a
# table too wide for a Markdown line becomes a list), for the tests' greps
# of whole sentences.
mdflat() {
    awk 'function flush() { if (buf != "") print buf; buf = "" }
        /^$/ { flush(); print; next }
        /^\|/ || /^#/ || /^<a id=/ || /^<\/?details/ || /^```/ { flush(); print; next }
        buf != "" && /^  / { sub(/^ +/, ""); buf = buf " " $0; next }
        buf ~ /^> / && /^> / { sub(/^> /, ""); buf = buf " " $0; next }
        buf != "" && buf !~ /^> / && buf !~ /^- / && !/^> / && !/^- / && !/^!\[/ && buf !~ /^!\[/ { buf = buf " " $0; next }
        { flush(); buf = $0 }
        END { flush() }' "$1"
}

# md_row FLAT FIRST REST: the flat Markdown (mdflat) has a two-column row
# FIRST, REST: as a table row, or as the list item a table too wide for a
# Markdown line becomes ("- **FIRST**: HEADER REST").
md_row() { grep -qF "| $2 | $3 |" "$1" || grep -qE "^- \*\*$(printf '%s' "$2" | sed 's/[.[\*^$]/\\&/g')\*\*: [a-z ]+ $(printf '%s' "$3" | sed 's/[.[\*^$/]/\\&/g')( |;|$)" "$1"; }

# bundled_report DIR: the report of the bundled reference data
# (scripts/report.sh --no-gpu), copied into DIR, and the script's stderr in
# DIR.err; BUNDLED_OUT is the --out it was written to, and the exit status is
# the script's.  The render compares both GPUs' sector tables with the model
# (about 20 s of CPU), and two tests read it (report.sh, report_browser.sh):
# under tests/run.sh, which gives each run of the suite a new folder
# WARPLAT_TEST_SHARED, it is rendered once a run, by the first test that asks,
# while the others wait for it (flock).  A test run alone renders its own.
# Each test gets a copy, so nothing one test writes beside the report (the
# width check's page) is seen by another.
bundled_report() {
    local dest=$1 base=$TMP rc
    [ -n "${WARPLAT_TEST_SHARED:-}" ] && [ -d "$WARPLAT_TEST_SHARED" ] && command -v flock >/dev/null 2>&1 &&
        base=$WARPLAT_TEST_SHARED
    BUNDLED_OUT=$base/bundled_report
    {
        [ "$base" = "$TMP" ] || flock 9
        if [ ! -f "$BUNDLED_OUT.rc" ]; then
            bash "$ROOT/scripts/report.sh" --no-gpu --out "$BUNDLED_OUT" 2>"$BUNDLED_OUT.err"
            echo $? >"$BUNDLED_OUT.rc"
        fi
    } 9>"$BUNDLED_OUT.lock"
    rc=$(cat "$BUNDLED_OUT.rc")
    cp "$BUNDLED_OUT.err" "$dest.err"
    if [ "$BUNDLED_OUT" != "$dest" ] && [ -d "$BUNDLED_OUT" ]; then cp -r "$BUNDLED_OUT" "$dest"; fi
    return "$rc"
}

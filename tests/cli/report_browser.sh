#!/usr/bin/env bash
# tests/cli/report_browser.sh - open the no-GPU report in a real browser
# (headless Chromium): every image must load (the page's own script sets
# data-images-ok="LOADED/TOTAL" on <body> after load) and a screenshot must
# be drawn.  Skipped (77), not passed, where chromium is not installed
# (Debian package: chromium).  WARPLAT_SCREENSHOT=FILE keeps the screenshot.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser) || skip "chromium not installed (apt-get install chromium)"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed"
ls -d data/reference/*/ >/dev/null 2>&1 || skip "no bundled reference data in data/reference/"

# (rendered once a run of the suite, report.sh reads it too: tests/lib.sh)
bundled_report "$TMP/report" || {
    cat "$TMP/report.err" >&2; fail "scripts/report.sh --no-gpu failed"; done_testing; }
url=file://$TMP/report/index.html
# a private profile: no state from, or to, the user's browser
browse() { timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$TMP/profile" --virtual-time-budget=5000 "$@" 2>>"$TMP/chromium.err"; }

browse --dump-dom "$url" >"$TMP/dom.html" || fail "chromium --dump-dom failed: $(tail -n 3 "$TMP/chromium.err")"
ok=$(grep -o 'data-images-ok="[0-9]*/[0-9]*"' "$TMP/dom.html" | head -n 1 | sed 's/.*="\(.*\)"/\1/')
[ -n "$ok" ] || fail "the page did not set data-images-ok (script not run?)"
loaded=${ok%/*} total=${ok#*/}
imgs=$(grep -o '<img ' "$TMP/report/index.html" | wc -l)
[ "${total:-0}" -gt 0 ] || fail "the page has no images"
[ "$loaded" = "$total" ] || fail "only $ok images loaded"
[ "$total" = "$imgs" ] || fail "the browser counted $total images, index.html has $imgs"

shot=${WARPLAT_SCREENSHOT:-$TMP/report.png}
browse --window-size=1400,2400 --screenshot="$shot" "$url" >/dev/null || fail "chromium --screenshot failed"
[ -s "$shot" ] && [ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "no PNG screenshot at $shot"
echo "images loaded: $ok; screenshot: $shot"
done_testing

#!/usr/bin/env bash
# tests/cli/report_width.sh - the report fits its page (issue 38): no line
# of index.md outside a code block longer than 200 characters, and, where
# chromium is installed, index.html at 1280 px no wider than the window and
# no table wider than its box (report_width in tests/lib.sh).  First the
# check itself must fail on a page that breaks each rule; then the report
# of the synthetic results folder (tests/cli/report_synthetic.sh's fixtures),
# without charts.  The bundled report (H100 and H200 side by side) is held
# to the same check by tests/cli/report.sh, which draws it anyway.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin bin/report

# the check can fail: a long Markdown line, a wide table, a wide page
B=$TMP/bad
mkdir -p "$B"
long=$(printf 'x%.0s' $(seq 1 230))
printf '# r\n\n%s\n\n```\n%s\n```\n' "$long" "$long" >"$B/index.md"
printf '<!DOCTYPE html><html><head><style>table { display: block; max-width: 100%%; overflow-x: auto; }</style></head><body><table><tr><td>%s</td></tr></table></body></html>\n' \
    "$(printf 'wide_cell_without_a_space_%.0s' $(seq 1 80))" >"$B/index.html"
before=$nfail
report_width "$B" >"$TMP/bad.out" 2>&1
md_fails=$(grep -c "lines longer than 200" "$TMP/bad.out")
[ "$md_fails" = 1 ] || fail "a 230-character line outside code was not caught: $(cat "$TMP/bad.out")"
grep -q "(7 chars)\|^FAIL.* 7 (" "$TMP/bad.out" && fail "a line inside a code block was counted"
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    grep -q "table 1 " "$TMP/bad.out" || fail "a table wider than its box was not caught: $(cat "$TMP/bad.out")"
    printf '<!DOCTYPE html><html><body><div style="width:2000px">wide</div></body></html>\n' >"$B/index.html"
    : >"$B/index.md"
    report_width "$B" >"$TMP/bad2.out" 2>&1
    grep -q "page 2" "$TMP/bad2.out" || fail "a page wider than the window was not caught: $(cat "$TMP/bad2.out")"
fi
nfail=$before

# the synthetic results folder (as tests/cli/report_synthetic.sh lays it out)
F=tests/fixtures/report
S=$TMP/in/synth
mkdir -p "$S"
cp "$F"/run5/readonly_1e8_wpb*.tsv "$F"/run5/overhead.tsv "$F"/run5/latency_stats_1e8_wpb4.tsv "$S/"
cp "$F/device.tsv" "$F/sweep_readonly_baseline_4.tsv" "$F/sectors_readonly.tsv" "$S/"
for f in "$F"/copy_1e8_wpb*.tsv; do cp "$f" "$S/widecopy_${f##*/copy_}"; done
cp tests/fixtures/ladder/h100_real_ca.tsv "$S/latency_ca.tsv"
expect_exit 0 bash scripts/report.sh --data "$TMP/in" --out "$TMP/synth" --no-charts
report_width "$TMP/synth"

done_testing

#!/usr/bin/env bash
# scripts/report.sh with a TAB, a newline, a quote and a space in --out and
# in the log's path (issue 35): every chart job gets its paths whole (the
# jobs are argv arrays run by bin/report run-plan, never split shell text),
# so the charts are drawn, the final line says "failed parts: none", and
# nothing is written outside --out.  A chart that fails is counted: it is
# named under "failed parts" and in the report.
# A fake gnuplot (it writes a small SVG) keeps this fast and independent of
# the gnuplot installed; the charts' own code runs as usual.
source "$(dirname "$0")/../lib.sh"
require_bin bin/mklog bin/verdict bin/report bin/latency_stats bin/plot_latency bin/plot_warps
mkdir -p "$TMP/fake"
printf '#!/bin/sh\ncase "$2" in -e) exit 0 ;; esac\nprintf "<svg></svg>\\n" >"$4"\n' >"$TMP/fake/gnuplot"
chmod +x "$TMP/fake/gnuplot"

odd=$'a b\tc\nd"e\'f'
LD="$TMP/log $odd"
PARENT="$TMP/out $odd"
mkdir -p "$LD" "$PARENT"
L="$LD/k $odd.bin"
bin/mklog "$L" --kernel spmv --experiment user --regions gather,reduce --region-bytes 6144,0 --wpb 2 \
    --blocks-per-sm 2 --overhead-pct 1.25 <tests/fixtures/regions.tsv || fail "mklog could not write the log"
O="$PARENT/r $odd"
before=$(ls -A)

PATH=$TMP/fake:$PATH expect_exit 0 bash scripts/report.sh --log "$L" --out "$O"
expect_says "failed parts: none"
case $OUTTXT in *"command not found"*|*"unbound variable"*) fail "a path was run as a command: $OUTTXT" ;; esac
for r in gather reduce; do
    for k in latency warps; do
        [ -s "$O/charts/${k}_$r.svg" ] || fail "chart ${k}_$r.svg was not drawn in --out"
        [ -s "$O/charts/${k}_$r.gp" ] || fail "chart ${k}_$r.gp (its script) is not beside it"
    done
    grep -q "^## Region $r" "$O/index.md" || fail "no section for region $r"
done
grep -q '](charts/latency_gather.svg)' "$O/index.md" || fail "index.md does not show the gather chart"
[ "$(grep -c '^chart: ' "$O/logs/steps.tsv")" = 4 ] || fail "steps.tsv does not hold the 4 chart jobs: $(cat "$O/logs/steps.tsv")"
[ "$(tail -n +2 "$O/logs/failures.tsv" | wc -l)" = 0 ] || fail "failures.tsv is not empty: $(cat "$O/logs/failures.tsv")"
# steps.tsv stays a table: every row has its four fields
awk -F'\t' 'NF != 4 { exit 1 }' "$O/logs/steps.tsv" || fail "steps.tsv has a split row: $(cat -A "$O/logs/steps.tsv")"
# nothing outside --out: the parent holds the report alone, the log's folder the log alone
[ "$(ls -A "$PARENT")" = "r $odd" ] || fail "files beside --out: $(ls -A "$PARENT" | cat -A)"
[ "$(ls -A "$LD")" = "k $odd.bin" ] || fail "files beside the log: $(ls -A "$LD" | cat -A)"
[ "$(ls -A)" = "$before" ] || fail "files appeared in the checkout: $(diff <(echo "$before") <(ls -A))"

# again over the same report (the swap), and with --no-charts: each chart is
# "not drawn", none is a failure
expect_exit 0 bash scripts/report.sh --log "$L" --out "$O" --no-charts
expect_says "failed parts: none"
[ "$(grep -c 'not drawn: the report was made with --no-charts' "$O/logs/failures.tsv")" = 4 ] ||
    fail "--no-charts: failures.tsv does not say 4 charts were not drawn: $(cat "$O/logs/failures.tsv")"
[ -z "$(find "$O" -name '*.svg')" ] || fail "--no-charts drew charts"
[ "$(ls -A "$PARENT")" = "r $odd" ] || fail "files beside --out after the swap: $(ls -A "$PARENT" | cat -A)"

# a chart that fails is counted: gnuplot fails, every chart is named
mkdir -p "$TMP/bad"
printf '#!/bin/sh\ncase "$2" in -e) exit 0 ;; esac\necho "bad gnuplot: line 1: error" >&2\nexit 1\n' >"$TMP/bad/gnuplot"
chmod +x "$TMP/bad/gnuplot"
PATH=$TMP/bad:$PATH expect_exit 0 bash scripts/report.sh --log "$L" --out "$O"
expect_says "4 chart(s) failed"
expect_says "failed parts: 4: chart: region "
for r in gather reduce; do
    expect_says "chart: region $r: latency distribution; "
    expect_says "chart: region $r: per-warp timeline; "
done
[ "$(grep -c 'bad gnuplot: line 1: error' "$O/logs/failures.tsv")" = 4 ] ||
    fail "failures.tsv does not hold the 4 charts' error: $(cat "$O/logs/failures.tsv")"
grep -q 'bad gnuplot: line 1: error' "$O/index.md" || fail "the report does not name the failed charts' error"
[ "$(ls -A "$PARENT")" = "r $odd" ] || fail "files beside --out after failed charts: $(ls -A "$PARENT" | cat -A)"

# --data from a folder with those bytes, into such an --out: the results are
# found and copied (bin/report gpus --nul), every job runs, and a chart that
# fails is shown in the report with its error (failures.tsv holds the TAB
# and the newline of --out as \x09 and \x0a; render finds them so)
D="$TMP/data $odd"
mkdir -p "$D/h200"
tar -C data/reference/h200 --exclude=./sectors_readonly.tsv --exclude=./logs_1e6 --exclude=./ncu -cf - . |
    tar -C "$D/h200" -xf -
O2="$PARENT/d $odd"
PATH=$TMP/bad:$PATH expect_exit 0 bash scripts/report.sh --data "$D" --out "$O2"
case $OUTTXT in *"command not found"*|*"unbound variable"*|*"no results"*) fail "--data: $OUTTXT" ;; esac
[ -s "$O2/data/h200/readonly_1e8_wpb4.tsv" ] || fail "--data: the results were not copied: $(ls "$O2/data" | cat -A)"
nbad=$(tail -n +2 "$O2/logs/failures.tsv" | grep -c .)
[ "$nbad" -ge 5 ] || fail "--data: only $nbad failed charts in failures.tsv: $(cat "$O2/logs/failures.tsv")"
expect_says "$nbad chart(s) failed"
nshown=$(grep -c 'bad gnuplot: line 1: error' "$O2/index.md")
[ "$nshown" -ge 5 ] || fail "--data: index.md names $nshown failed charts with their error (failures.tsv: $nbad)"
[ "$(find "$PARENT" -mindepth 1 -maxdepth 1 -printf x)" = xx ] || fail "files beside --out after --data: $(ls -A "$PARENT" | cat -A)"
done_testing

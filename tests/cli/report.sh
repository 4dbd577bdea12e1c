#!/usr/bin/env bash
# tests/cli/report.sh - scripts/report.sh without a GPU: the report of the
# bundled reference data is written, every image and link of index.html and
# index.md resolves, every section is there, and the top says the data are
# the bundled ones.  Then two GPUs side by side (a renamed copy of the
# reference), an empty data folder (exit 1), and usage errors (exit 2).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed: the report draws its charts with it"
for b in warplog report_facts plot_warps plot_latency plot_ladder plot_throughput sector_compare latency_stats; do
    require_bin "bin/$b"
done
ls -d data/reference/*/ >/dev/null 2>&1 || skip "no bundled reference data in data/reference/"
R=scripts/report.sh

# check_report DIR: the files exist, every local target resolves, sections present
check_report() {
    local d=$1 t
    [ -s "$d/index.html" ] || { fail "$d/index.html missing"; return; }
    [ -s "$d/index.md" ] || { fail "$d/index.md missing"; return; }
    local nimg
    nimg=$(grep -o '<img src="[^"]*"' "$d/index.html" | wc -l)
    [ "$nimg" -ge 10 ] || fail "$d/index.html has only $nimg images"
    # every src= and href= of the HTML that is not an in-page anchor
    while IFS= read -r t; do
        [ -e "$d/$t" ] || fail "index.html refers to $t, which does not exist"
    done < <(grep -oE '(src|href)="[^"#][^"]*"' "$d/index.html" | sed -E 's/^(src|href)="//; s/"$//')
    # every Markdown image and link target
    while IFS= read -r t; do
        [ -e "$d/$t" ] || fail "index.md refers to $t, which does not exist"
    done < <(grep -oE '\]\([^)]+\)' "$d/index.md" | sed -E 's/^\]\(//; s/\)$//')
    for t in 'id="device"' 'id="readonly"' 'id="timelines"' 'id="latency"' 'id="ladder"' 'id="sweeps"' 'id="sectors"' 'data-images-ok'; do
        grep -q "$t" "$d/index.html" || fail "index.html lacks $t"
    done
    for t in '## Device' '## Readonly kernels' '## Per-warp timelines' '## Latency distribution' \
             '## Latency ladder' '## Occupancy sweeps' '## What the hardware moves'; do
        grep -q "^$t" "$d/index.md" || fail "index.md lacks the section '$t'"
    done
    # no network resources and no script libraries
    grep -qE '(src|href)="(https?:)?//' "$d/index.html" && fail "index.html refers to the network"
    # each chart keeps its gnuplot script and data beside it
    for t in "$d"/charts/*/*.svg; do
        [ -f "${t%.svg}.gp" ] || fail "$t has no .gp beside it"
    done
    # no unformatted or failed numbers leaked into the tables
    grep -qE '\b(nan|inf)\b' "$d/index.md" && fail "index.md shows nan/inf: $(grep -m1 -E '\b(nan|inf)\b' "$d/index.md")"
}

# ---- the bundled reference, as CI sees it
expect_exit 0 bash "$R" --no-gpu --out "$TMP/report"
expect_says "[1/"
expect_says "wrote $TMP/report/index.html"
check_report "$TMP/report"
head -n 3 "$TMP/report/index.md" | grep -q 'this report shows the bundled reference results of NVIDIA' ||
    fail "the top of index.md does not say it shows the bundled data: $(head -n 3 "$TMP/report/index.md")"
grep -q 'class="top">[^<]*bundled reference results of NVIDIA[^<]*measured 20' "$TMP/report/index.html" ||
    fail "the top of index.html does not say it shows the bundled data"
# the interpretations are computed: the Little's-law sentence of the baseline
# at 4 warps per block uses that table's own median latency
ref=$(ls -d data/reference/*/ | head -n 1)
p50=$(awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next } $1 == "baseline" { printf "%.0f", $c["lat_p50_cycles"] }' "$ref/readonly_1e8_wpb4.tsv")
grep -q "baseline reaches [0-9]*% of peak at 4 warps per block; at the measured $p50-cycle median latency" "$TMP/report/index.md" ||
    fail "no computed Little's-law sentence with the measured p50 ($p50 cycles) at 4 warps per block"
# the report's own failures are listed only when there are some
grep -q 'failed:' "$TMP/report/index.md" && fail "the reference report has failed parts: $(grep -m3 'failed:' "$TMP/report/index.md")"
# missing optional results give a note, not a failure (no sweeps bundled today)
if ! compgen -G "$ref/sweep_*.txt" >/dev/null; then
    grep -q 'not available: no occupancy sweeps' "$TMP/report/index.md" || fail "no 'not available' note for the sweeps"
fi

# ---- two GPUs side by side: the reference and a renamed copy, with a sweep
# and without the sector table, through --data
mkdir -p "$TMP/ref"
cp -r "$ref" "$TMP/ref/aaa_gpu"
cp -r "$ref" "$TMP/ref/zzz_gpu"
rm -f "$TMP/ref/zzz_gpu"/sectors*.tsv
cp tests/fixtures/post/sweep_baseline_4.tsv "$TMP/ref/zzz_gpu/sweep_readonly_baseline_4.txt"
expect_exit 0 bash "$R" --data "$TMP/ref" --out "$TMP/two"
check_report "$TMP/two"
grep -q '<th colspan="[0-9]*" class="group">aaa_gpu</th><th colspan="[0-9]*" class="group">zzz_gpu</th>' "$TMP/two/index.html" ||
    fail "the readonly tables have no column group per GPU"
grep -q '| kernel | aaa_gpu: ms |' "$TMP/two/index.md" || fail "the Markdown tables do not name the GPU of each column"
[ -s "$TMP/two/charts/ladder_all.svg" ] && [ -s "$TMP/two/charts/ladder_all.gp" ] || fail "no combined ladder chart of both GPUs"
grep -q 'src="charts/ladder_all.svg"' "$TMP/two/index.html" || fail "the combined ladder is not in the report"
grep -q 'charts/zzz_gpu/throughput_readonly_baseline_4.svg' "$TMP/two/index.html" || fail "the sweep of the second GPU is not drawn"
grep -q 'zzz_gpu: no sector table' "$TMP/two/index.md" || fail "no note for the GPU without a sector table"
grep -q 'zzz_gpu: baseline: the highest bandwidth is 760.1 GB/s' "$TMP/two/index.md" ||
    fail "the sweep's computed finding is missing (the fixture's best point is 760.1 GB/s)"
# the charts can be redrawn from their scripts
(cd "$TMP/two/charts/aaa_gpu" && gnuplot -c warps_baseline_4.gp "$TMP/redraw.svg" >/dev/null 2>&1) &&
    [ -s "$TMP/redraw.svg" ] || fail "gnuplot -c warps_baseline_4.gp did not redraw the chart"

# ---- a failing part: a corrupt log is named, the rest of the report stays
mkdir -p "$TMP/bad"; cp -r "$ref" "$TMP/bad/gpu"
printf 'not a log' >"$TMP/bad/gpu/logs_1e6/readonly_float4_8.bin"
expect_exit 0 bash "$R" --data "$TMP/bad/gpu" --out "$TMP/badrep"
expect_says "failed: chart charts/gpu/warps_float4_8.svg"
check_report "$TMP/badrep"
grep -q 'failed: chart charts/gpu/warps_float4_8.svg' "$TMP/badrep/index.md" || fail "the failed chart is not named in the report"
grep -q 'charts/gpu/warps_baseline_8.svg' "$TMP/badrep/index.html" || fail "the charts that worked are missing"

# ---- nothing to report: exit 1; usage errors: exit 2
mkdir -p "$TMP/empty"
expect_exit 1 bash "$R" --data "$TMP/empty" --out "$TMP/none"
expect_says "no results"
[ -e "$TMP/none/index.html" ] && fail "an index.html was written without results"
expect_exit 2 bash "$R" --frobnicate
expect_says "unknown argument '--frobnicate'"
expect_exit 2 bash "$R" --out
expect_says "--out needs a value"
expect_exit 2 bash "$R" --device x
expect_exit 0 bash "$R" --help
expect_says "--no-gpu"

done_testing

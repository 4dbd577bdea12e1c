#!/usr/bin/env bash
# tests/cli/report.sh - scripts/report.sh without a GPU, on the bundled
# reference data (data/reference/h100 and h200).
#
# 1. The report is written; every image and link of index.html and index.md
#    resolves; every section is there; the top says the data are bundled;
#    the progress never goes quiet for more than 10 s.
# 2. Its findings against figures computed here another way, from the data
#    files with bin/latency_stats, bin/tsv and bin/plot_ladder (never from
#    the report's own code), so that each bug of issue 11 fails a check:
#      - the occupancy section holds every bundled sweep of both GPUs, with
#        its best point (bug 1: the sweeps were looked for under other names);
#      - the sector summary counts the rows sector_compare judged
#        only (bug 2: the trailing "# gathers" block was read as 7 more rows);
#      - the timeline finding uses the median p50, not p5 (bug 3).
# 3. Every file a complete results folder has and the bundled ones lack is
#    named with the command that makes it.
# 4. Two GPUs side by side (--data), a corrupt log (the chart is named as
#    failed, the rest is there), an empty folder (exit 1), usage (exit 2).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed: the report draws its charts with it"
require_bin bin/report bin/latency_stats bin/tsv bin/plot_ladder bin/sector_compare
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
    while IFS= read -r t; do
        [ -e "$d/$t" ] || fail "index.html refers to $t, which does not exist"
    done < <(grep -oE '(src|href)="[^"#][^"]*"' "$d/index.html" | sed -E 's/^(src|href)="//; s/"$//')
    while IFS= read -r t; do
        case $t in
            '#'*) grep -qF "<a id=\"${t#\#}\"></a>" "$d/index.md" || fail "index.md links to $t, which is no anchor of it" ;;
            *) [ -e "$d/$t" ] || fail "index.md refers to $t, which does not exist" ;;
        esac
    done < <(grep -oE '\]\([^)]+\)' "$d/index.md" | sed -E 's/^\]\(//; s/\)$//')
    while IFS= read -r t; do
        grep -q "<section id=\"$t\">" "$d/index.html" || fail "index.html links to #$t, which is no section of it"
    done < <(grep -oE 'href="#[^"]*"' "$d/index.html" | sed -E 's/^href="#//; s/"$//' | sort -u)
    for t in device family-readonly overhead timelines latency ladder sweeps sectors files; do
        grep -q "<section id=\"$t\">" "$d/index.html" || fail "index.html lacks the section $t"
    done
    for t in '## Device' '## readonly: summaries' '## What the probes cost' '## Per-warp timelines' \
             '## Latency distribution' '## Latency ladder' '## Occupancy sweeps' '## What the hardware moves' '## Files'; do
        grep -q "^$t" "$d/index.md" || fail "index.md lacks the section '$t'"
    done
    grep -q 'data-images-ok' "$d/index.html" || fail "index.html lacks the image counter of the browser test"
    grep -qE '(src|href)="(https?:)?//' "$d/index.html" && fail "index.html refers to the network"
    for t in "$d"/charts/*/*.svg "$d"/charts/*.svg; do
        [ -f "$t" ] || continue
        [ -f "${t%.svg}.gp" ] || fail "$t has no .gp beside it"
    done
    grep -qE '\b(nan|inf)\b' "$d/index.md" && fail "index.md shows nan/inf: $(grep -m1 -E '\b(nan|inf)\b' "$d/index.md")"
}
# quiet_gaps ERRFILE: the longest time between two progress lines, in s
quiet_gaps() {
    grep -o '^report.sh: \[[0-9.]* s\]' "$1" | tr -d '[]a-z.:' | tr -s ' ' |
        awk '{ t = $1 / 10; if (NR > 1 && t - p > m) m = t - p; p = t } END { printf "%.1f", m + 0 }'
}
# ratio A B: B / A with two decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b / a }'; }
r0() { awk -v a="$1" 'BEGIN { printf "%.0f", a }'; }

# ---- 1. the bundled reference, as a fresh clone without a GPU sees it
# (rendered once a run of the suite, report_browser.sh reads it too: tests/lib.sh)
t0=$SECONDS
bundled_report "$TMP/report"
rc=$?
[ $rc -eq 0 ] || fail "scripts/report.sh --no-gpu exited $rc: $(tail -n 5 "$TMP/report.err")"
echo "report of the bundled data: $((SECONDS - t0)) s (rendered, or waited for and copied)"
grep -qF "wrote $BUNDLED_OUT/index.html" "$TMP/report.err" || fail "no 'wrote' line on stderr"
grep -q '\[1/5\] build the tools' "$TMP/report.err" || fail "no numbered progress lines"
grep -q 'draw the charts: done (' "$TMP/report.err" || fail "a step's end is not printed with its time"
gap=$(quiet_gaps "$TMP/report.err")
awk -v g="$gap" 'BEGIN { exit !(g <= 10) }' || fail "the progress was silent for $gap s (at most 10 s allowed)"
check_report "$TMP/report"
D=$TMP/report
report_width "$D"
# the Markdown's sentences on one line each (the writer wraps them: tests/lib.sh)
DM=$TMP/flat.md
mdflat "$D/index.md" >"$DM"
head -n 3 "$DM" | grep -q 'No GPU used (--no-gpu): this report shows the bundled reference results of NVIDIA' ||
    fail "the top of index.md does not say it shows the bundled data: $(head -n 3 "$DM")"
grep -q 'class="top">[^<]*bundled reference results of NVIDIA[^<]*measured 20' "$D/index.html" ||
    fail "the top of index.html does not say it shows the bundled data"
grep -q 'failed:' "$DM" && fail "the reference report has failed parts: $(grep -m3 'failed:' "$DM")"

# ---- the answers first: the first screen, and summary.json beside it
[ "$(grep -m1 '^## ' "$D/index.md")" = "## At a glance" ] || fail "the report does not open with its first screen"
grep -q '<section id="glance">' "$D/index.html" || fail "index.html has no first screen"
if command -v python3 >/dev/null 2>&1; then
    python3 -m json.tool "$D/summary.json" >/dev/null || fail "summary.json is not JSON"
    # jget GPU PATH: one value of summary.json (PATH: keys and indexes, dot-separated)
    jget() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
g = [x for x in d["gpus"] if x["label"] == sys.argv[2]][0]
for k in sys.argv[3].split("."):
    g = g[int(k)] if isinstance(g, list) else g[k]
print("%.6g" % g if isinstance(g, float) else g)' "$D/summary.json" "$1" "$2"; }
    near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }
    for g in data/reference/*/; do
        [ -f "$g/device.tsv" ] || continue   # a fleet's folder of folders (data/reference/fleet-*)
        g=$(basename "$g") ref=data/reference/$g
        [ "$(jget "$g" device.name)" = "$(bin/tsv meta "$ref/readonly_1e8_wpb4.tsv" device_name)" ] ||
            fail "$g: summary.json's device is not the summary's"
        near "$(jget "$g" device.dram_peak.value)" "$(bin/tsv meta "$ref/readonly_1e8_wpb4.tsv" peak_dram_GBps | cut -d' ' -f1)" 0.05 ||
            fail "$g: summary.json's DRAM peak is not the summaries' peak_dram_GBps"
        [ "$(jget "$g" device.dram_peak.unit)" = GB/s ] || fail "$g: the DRAM peak's unit is not GB/s"
        near "$(jget "$g" ceiling.read.value)" "$(bin/tsv get "$ref/ceiling.tsv" bw_GBps --where operation=read)" 0.001 ||
            fail "$g: summary.json's ceiling is not ceiling.tsv's read"
        near "$(jget "$g" ladder.DRAM.cycles.value)" "$(bin/plot_ladder "$ref/latency_ca.tsv" --dram-latency | cut -f1)" 0.5 ||
            fail "$g: summary.json's DRAM latency is not the ladder's plateau"
        [ "$(jget "$g" ladder.DRAM.time.unit)" = ns ] || fail "$g: the ladder's time is not in ns"
        best=$(paste <(bin/tsv get "$ref/readonly_1e8_wpb4.tsv" bw_GBps) <(bin/tsv get "$ref/readonly_1e8_wpb4.tsv" kernel) | sort -g | tail -n 1)
        ro=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
g = [x for x in d["gpus"] if x["label"] == sys.argv[2]][0]
f = [x for x in g["families"] if x["family"] == "readonly"][0]
print(f["kernel"], f["bandwidth"]["value"], f["bandwidth"]["unit"])' "$D/summary.json" "$g")
        read -r rk rv ru <<<"$ro"
        [ "$rk $ru" = "${best#*	} GB/s" ] && near "$rv" "${best%	*}" 0.05 ||
            fail "$g: summary.json's readonly headline is '$ro', not '${best#*	} ${best%	*} GB/s'"
        if [ -f "$ref/overhead.tsv" ]; then
            hi=$(bin/tsv get "$ref/overhead.tsv" overhead_pct | sort -g | tail -n 1)
            near "$(jget "$g" probe_overhead_max.value)" "$hi" 0.001 || fail "$g: summary.json's largest overhead is not overhead.tsv's $hi"
        fi
        [ "$(jget "$g" drift.verdict)" = "not measured: this report shows results already on disk" ] ||
            fail "$g: a report of bundled results gives a drift verdict"
        mc=$ref/model_check/seed2025/model_check_summary.tsv
        if [ -s "$mc" ]; then
            [ "$(jget "$g" model_check.0.agree)" = "$(bin/tsv get "$mc" agree --where family=all)" ] ||
                fail "$g: summary.json's model check is not seed 2025's agreement"
            grep -qF "Model check on random configurations: $(bin/tsv get "$mc" agree --where family=all) of $(bin/tsv get "$mc" rows --where family=all) rows agree" "$DM" ||
                fail "$g: the first screen does not give the model check's agreement"
        fi
    done
else
    echo "skip: python3 not installed: summary.json not read back"
fi

# ---- the random model check and its repeats, from the tables' own numbers
mc=data/reference/h100/model_check/seed2025
if [ -s "$mc/model_check_summary.tsv" ]; then
    ag=$(bin/tsv get "$mc/model_check_summary.tsv" agree --where family=all)
    grep -q "h100: On random configurations nobody picked (scripts/model_check.sh; seed 2025, 100 configurations): $ag of 600 rows agree" "$DM" ||
        fail "the sector section does not give seed 2025's agreement ($ag of 600)"
    rows=0 over=0 nf=0
    for t in "$mc"/model_check_repeat_*.tsv; do
        [ -s "$t" ] || continue
        rows=$((rows + $(bin/tsv get "$t" rows --where quantity=any_judged)))
        over=$((over + $(bin/tsv get "$t" over_5pct --where quantity=any_judged)))
        nf=$((nf + 1))
    done
    [ $nf -eq 0 ] || grep -q "h100: The same batches profiled again (--repeat, $nf families): $over of $rows rows moved a judged count by more than 5%" "$DM" ||
        fail "the sector section does not give the repeats ($over of $rows rows, $nf families)"
    # the judged rule of issue 36 beside it: every judged quantity at once,
    # under it and under the strict rule, and the worst row's rerun args
    ts=$mc/model_check_tol_summary.tsv
    if [ -s "$ts" ]; then
        a=$(bin/tsv get "$ts" agree --where family=all --where quantity=every)
        j=$(bin/tsv get "$ts" judged --where family=all --where quantity=every)
        p=$(bin/tsv get "$ts" agree_pct --where family=all --where quantity=every)
        grep -q "h100: The judged rule (.*): $a of $j rows agree on every judged quantity ($p%)" "$DM" ||
            fail "the sector section does not give the judged rule's agreement ($a of $j, $p %)"
        w=$(bin/tsv get "$mc/model_check_worst.tsv" args | head -n 1)
        grep -qF "$w" "$DM" || fail "the sector section does not name the worst row's args ($w)"
    fi
fi

GPUS=()
for g in data/reference/*/; do g=${g%/}; [ -f "$g/device.tsv" ] && GPUS+=("$(basename "$g")"); done
[ ${#GPUS[@]} -ge 2 ] || fail "expected two bundled GPUs, found ${#GPUS[@]}"

# ---- the page stays readable: no raw 40-column table; the raw sector
# tables are linked, not copied in
wide=$(awk -F'|' '/^\|/ && NF - 2 > 30 { n++ } END { print n + 0 }' "$DM")
[ "$wide" -eq 0 ] || fail "index.md has $wide table rows of more than 30 columns"
for f in data/reference/*/sectors_*.tsv; do
    g=$(basename "$(dirname "$f")")
    grep -qF "(data/$g/$(basename "$f"))" "$DM" || fail "index.md does not link $f"
done
# ---- like for like: where one GPU's summary times the clean twin (it has
# instr_ms) and another's the instrumented kernel, the table says so
s1=data/reference/${GPUS[0]}/readonly_1e8_wpb4.tsv s2=data/reference/${GPUS[1]}/readonly_1e8_wpb4.tsv
if [ -f "$s1" ] && [ -f "$s2" ]; then
    c1=0 c2=0
    bin/tsv get "$s1" instr_ms >/dev/null 2>&1 && c1=1
    bin/tsv get "$s2" instr_ms >/dev/null 2>&1 && c2=1
    if [ "$c1" != "$c2" ]; then
        grep -q '| time of |' "$DM" || fail "the readonly summaries time different kernels but have no 'time of' column"
        grep -q '^> Not like for like: .* times the clean twin (ms, GB/s).* times the instrumented kernel (ms, GB/s)' "$DM" ||
            fail "the readonly summaries time different kernels and no finding says so"
    fi
fi

for g in "${GPUS[@]}"; do
    ref=data/reference/$g
    # ---- bug 1: every bundled sweep is drawn, tabled, and its best point found
    nsw=0
    for f in "$ref"/sweep_*.tsv; do
        [ -f "$f" ] || continue
        nsw=$((nsw + 1))
        b=$(basename "$f" .tsv); b=${b#sweep_}
        grep -q "src=\"charts/$g/throughput_$b.svg\"" "$D/index.html" || fail "$g: the sweep $f is not drawn in the report"
        [ -s "$D/charts/$g/throughput_$b.svg" ] || fail "$g: charts/$g/throughput_$b.svg was not written"
        best=$(bin/tsv get "$f" bw_GBps | sort -g | tail -n 1)
        v=$(bin/tsv meta "$f" kernel)
        grep -q "^> $g: $v: the highest bandwidth is $(awk -v a="$best" 'BEGIN { printf "%.1f", a }') GB/s" "$DM" ||
            fail "$g: no finding with the best point of $f ($best GB/s)"
    done
    [ $nsw -ge 4 ] || fail "$g: only $nsw bundled sweeps"
    grep -q "not available: $g: no occupancy sweeps" "$DM" && fail "$g: the sweeps are said to be missing"

    # ---- bug 2: the sector summary counts the main table only
    cmp=$D/tables/$g/sectors_readonly_compare.tsv
    if [ -f "$ref/sectors_readonly.tsv" ]; then
        [ -s "$cmp" ] || fail "$g: no comparison table $cmp"
        nrow=$(bin/tsv get "$ref/sectors_readonly.tsv" pattern | wc -l)
        [ "$(bin/tsv get "$cmp" variant | wc -l)" = "$nrow" ] || fail "$g: sector_compare has not one row per measured pattern"
        agree=$(bin/tsv get "$cmp" agree | grep -c '^yes$')
        judged=$(bin/tsv get "$cmp" agree | grep -vc '^-$')
        [ "$judged" -ge 1 ] || fail "$g: sector_compare judged no row"
        grep -q "^> $g: $agree of $judged rows agree with the model" "$DM" ||
            fail "$g: the sector summary is not '$agree of $judged rows agree': $(grep -m1 "rows agree" "$DM")"
        [ -s "$D/charts/$g/sectors_readonly.svg" ] || fail "$g: no sector chart"
    fi

    # ---- bug 3: the timeline finding uses the median (p50) of bin/latency_stats
    bin/latency_stats "$ref"/logs_1e6/readonly_*.bin >"$TMP/ls_$g.tsv" 2>/dev/null || fail "$g: latency_stats failed"
    for v in baseline float4 nondiverging random_access; do
        wpbs=$(bin/tsv get "$TMP/ls_$g.tsv" wpb --where kernel=$v | sort -n)
        lo=$(head -n 1 <<<"$wpbs") hi=$(tail -n 1 <<<"$wpbs")
        a=$(bin/tsv get "$TMP/ls_$g.tsv" p50_cycles --where kernel=$v --where wpb=$lo)
        b=$(bin/tsv get "$TMP/ls_$g.tsv" p50_cycles --where kernel=$v --where wpb=$hi)
        want="$v: median warp latency $(r0 "$a") cycles at $lo warps per block, $(r0 "$b") at $hi (x$(ratio "$a" "$b"))"
        grep -F "> $g: " "$DM" | grep -qF "$want" || fail "$g: the timeline finding lacks '$want'"
    done

    # ---- the Little's-law sentence uses the table's own median latency
    p50=$(r0 "$(bin/tsv get "$ref/readonly_1e8_wpb4.tsv" lat_p50_cycles --where kernel=baseline)")
    grep -q "^> $g: baseline reaches [0-9]*% of peak at 4 warps per block; at the measured $p50-cycle median latency" "$DM" ||
        fail "$g: no Little's-law sentence with the measured p50 ($p50 cycles) at 4 warps per block"
    # ---- the fastest kernel of each WPB
    for f in "$ref"/readonly_1e8_wpb*.tsv; do
        w=$(bin/tsv get "$f" warps_per_block | head -n 1)
        best=$(paste <(bin/tsv get "$f" bw_GBps) <(bin/tsv get "$f" kernel) | sort -g | tail -n 1)
        grep -q "^> $g: Fastest kernel at $w warps per block: ${best#*	}, ${best%	*} GB/s" "$DM" ||
            fail "$g: the fastest kernel at WPB $w is not ${best#*	} (${best%	*} GB/s)"
    done
    # ---- the ladder's DRAM plateau, as bin/plot_ladder finds it
    dram=$(bin/plot_ladder "$ref/latency_ca.tsv" --dram-latency | cut -f1)
    grep -q "^> $g: .* and DRAM $(r0 "$dram") cycles" "$DM" || fail "$g: the ladder finding lacks DRAM $(r0 "$dram") cycles"

    # ---- 3. every missing file is named, with the command that makes it
    bin/report expected "$ref" >"$TMP/exp_$g.tsv" || fail "$g: bin/report expected failed"
    n=0
    while IFS=$'\t' read -r file cmd; do
        [ "$file" = file ] && continue
        n=$((n + 1))
        [ -e "$ref/$file" ] && fail "$g: $file is listed as missing but is there"
        case $cmd in "scripts/"*"$ref"*) ;; *) fail "$g: the command for $file does not name a script and $ref: $cmd" ;; esac
        md_row "$DM" "$file" "$cmd" || fail "$g: the report does not name the missing $file with '$cmd'"
    done <"$TMP/exp_$g.tsv"
    grep -q "^latency_ca.tsv" "$TMP/exp_$g.tsv" && fail "$g: latency_ca.tsv is listed as missing"
    # a set without overhead.tsv (the H200's predates it) is told the command;
    # one with it (the H100's) shows its largest overhead instead
    if [ -f "$ref/overhead.tsv" ]; then
        grep -qF "not available: $g: overhead.tsv" "$DM" && fail "$g: overhead.tsv is there but called not available"
    else
        [ $n -ge 1 ] || fail "$g: nothing listed as missing (the set predates overhead.tsv)"
        grep -qF "*not available: $g: overhead.tsv* (made by \`scripts/reference.sh $ref --only overhead\`)" "$DM" ||
            fail "$g: the probes' section does not say which command makes overhead.tsv"
    fi
done

# ---- 4. two GPUs through --data: copies of the reference, one with the
# engine's sweep fixture, neither with a sector table (the model walk is slow)
ref=data/reference/${GPUS[0]}
mkdir -p "$TMP/ref"
cp -r "$ref" "$TMP/ref/aaa_gpu"
cp -r "$ref" "$TMP/ref/zzz_gpu"
rm -f "$TMP/ref"/*/sectors_*.tsv "$TMP/ref/zzz_gpu"/sweep_*.tsv
cp tests/fixtures/report/sweep_readonly_baseline_4.tsv "$TMP/ref/zzz_gpu/"
expect_exit 0 bash "$R" --data "$TMP/ref" --out "$TMP/two"
check_report "$TMP/two"
# one summary table per GPU, each named (side by side they did not fit a page)
grep -q '<p>aaa_gpu (NVIDIA[^<]*):</p>' "$TMP/two/index.html" && grep -q '<p>zzz_gpu (NVIDIA[^<]*):</p>' "$TMP/two/index.html" ||
    fail "the summary tables are not one per GPU, each named"
grep -A2 '^aaa_gpu (NVIDIA.*):$' "$TMP/two/index.md" | grep -q '^| kernel | blocks per SM | time (ms) | GB/s |' ||
    fail "the Markdown's summary tables do not follow the GPU they are of"
report_width "$TMP/two"
TM=$TMP/two_flat.md
mdflat "$TMP/two/index.md" >"$TM"
[ -s "$TMP/two/charts/ladder_all.svg" ] && [ -s "$TMP/two/charts/ladder_all.gp" ] || fail "no combined ladder chart of both GPUs"
grep -q 'src="charts/ladder_all.svg"' "$TMP/two/index.html" || fail "the combined ladder is not in the report"
grep -q 'src="charts/zzz_gpu/throughput_readonly_baseline_4.svg"' "$TMP/two/index.html" || fail "the sweep of the second GPU is not drawn"
grep -qF '*not available: zzz_gpu: sectors_readonly.tsv (needs Nsight Compute)* (made by `scripts/ncu_profile.sh --out' "$TM" ||
    fail "no note for the GPU without a sector table"
grep -qF '*not available: zzz_gpu: sweep_readonly_float4_4.tsv* (made by `scripts/occupancy_profile.sh readonly_float4 4 --out' "$TM" ||
    fail "no note for the missing sweep of the second GPU"
best=$(bin/tsv get tests/fixtures/report/sweep_readonly_baseline_4.tsv bw_GBps | sort -g | tail -n 1)
grep -q "zzz_gpu: baseline: the highest bandwidth is $best GB/s" "$TM" ||
    fail "the sweep's computed finding is missing (the fixture's best point is $best GB/s)"
(cd "$TMP/two/charts/aaa_gpu" && gnuplot -c warps_readonly_baseline_4.gp "$TMP/redraw.svg" >/dev/null 2>&1) &&
    [ -s "$TMP/redraw.svg" ] || fail "gnuplot -c warps_readonly_baseline_4.gp did not redraw the chart"

# ---- a failing part: a corrupt log is named, the rest of the report stays
mkdir -p "$TMP/bad"
cp -r "$ref" "$TMP/bad/gpu"
rm -f "$TMP/bad/gpu"/sectors_*.tsv
printf 'not a log' >"$TMP/bad/gpu/logs_1e6/readonly_float4_8.bin"
expect_exit 0 bash "$R" --data "$TMP/bad/gpu" --out "$TMP/badrep"
expect_says "FAILED: gpu: timeline logs_1e6/readonly_float4_8.bin"
check_report "$TMP/badrep"
grep -q 'failed: chart charts/gpu/warps_readonly_float4_8.svg: plot_warps' "$TMP/badrep/index.md" ||
    fail "the failed chart is not named in the report with its error"
grep -q 'failed: logs_1e6/readonly_float4_8.bin' "$TMP/badrep/index.md" || fail "the unreadable log is not named in the timeline findings"
grep -q 'charts/gpu/warps_readonly_baseline_8.svg' "$TMP/badrep/index.html" || fail "the charts that worked are missing"

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
expect_exit 2 bin/report
expect_exit 2 bin/report render
expect_exit 2 bin/report frobnicate "$TMP"
expect_exit 1 bin/report render "$TMP/empty"
expect_exit 0 bin/report --help

done_testing

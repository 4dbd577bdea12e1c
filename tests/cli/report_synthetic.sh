#!/usr/bin/env bash
# tests/cli/report_synthetic.sh - the report of a results folder in the
# layout the experiment engine and scripts/reference.sh write (docs/naming.md,
# tests/fixtures/report/README.md): real summaries of an H100 run, a device
# table, an engine sweep, a sector table with an `agree` column, a second
# family the report has no entry for, and per-warp logs written here with
# chosen latencies.  Some files are left out on purpose.  The second family
# is the copy fixture under a name the report has no entry for (widecopy):
# copy itself has a section of its own now.  Checks: every
# family has its section (found from the summaries, not from a list); the
# engine's columns are shown (instrumented time, overhead); each finding
# against a figure computed here from the files; each missing file named
# with the command that makes it; the rows the sector model flags named.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed: the report draws its charts with it"
require_bin bin/report bin/mklog bin/latency_stats bin/tsv
F=tests/fixtures/report
S=$TMP/in/synth
mkdir -p "$S/logs_1e6"
cp "$F"/run5/readonly_1e8_wpb*.tsv "$F"/run5/overhead.tsv "$F"/run5/latency_stats_1e8_wpb4.tsv "$S/"
cp "$F/device.tsv" "$F/sweep_readonly_baseline_4.tsv" "$F/sectors_readonly.tsv" "$S/"
for f in "$F"/copy_1e8_wpb*.tsv; do cp "$f" "$S/widecopy_${f##*/copy_}"; done
cp tests/fixtures/ladder/h100_real_ca.tsv "$S/latency_ca.tsv"
# left out: sampling.tsv, latency_cg.tsv, the other sweeps, sass_*.txt, nvidia_smi.csv

# logs: W warps per block, latencies LO..LO+99 cycles, 8 SMs
mklog() {   # mklog VARIANT WPB LO
    awk -v w="$2" -v lo="$3" 'BEGIN { for (i = 0; i < 800; i++) { b = int(i / w); s = 1000 + i * 3
        printf "%d %d %d %d %d %d\n", s, s + lo + i % 100, 5000 + i, b, i % w, b % 8 } }' |
        bin/mklog "$S/logs_1e6/readonly_$1_$2.bin" --kernel "$1" --wpb "$2" --n 1000000 \
            --max-threads-per-sm 2048 --date 2026-11-23T12:00:00Z >/dev/null ||
        fail "bin/mklog $1 $2 failed"
}
mklog baseline 4 300
mklog baseline 8 420
mklog random_access 4 1000
mklog random_access 8 2600

expect_exit 0 bash scripts/report.sh --data "$TMP/in" --out "$TMP/out"
D=$TMP/out
[ -s "$D/index.md" ] && [ -s "$D/index.html" ] || fail "no report written"
report_width "$D"
# the Markdown's sentences and list items on one line each (tests/lib.sh)
M=$TMP/flat.md
mdflat "$D/index.md" >"$M"
grep -q 'failed:' "$M" && fail "parts failed: $(grep -m3 'failed:' "$M")"
for t in device family-widecopy family-readonly overhead timelines latency ladder sweeps sectors files; do
    grep -q "<section id=\"$t\">" "$D/index.html" || fail "no section $t"
done

# the device, from device.tsv
grep -q '| name | NVIDIA H100 80GB HBM3 |' "$M" || fail "the device name does not come from device.tsv"
grep -q 'not available: device.tsv' "$M" && fail "device.tsv is said to be missing"

# the second family: its section, its table, its chart, no entry needed
grep -q '^## widecopy: summaries at N = 1e8' "$M" || fail "no section for the family widecopy"
grep -q '^| plain | 16 | 0.4793 | 834.6 |' "$M" || fail "the widecopy table does not show the plain row"
[ -s "$D/charts/synth/bandwidth_widecopy.svg" ] || fail "no bandwidth chart of the family widecopy"
grep -q "^> Fastest kernel at 4 warps per block: wide, $(bin/tsv get "$F/copy_1e8_wpb4.tsv" bw_GBps --where kernel=wide) GB/s" "$M" ||
    fail "no fastest-kernel finding for widecopy"

# the engine's columns: instrumented time and overhead, and no old-format note
grep -q '| kernel | blocks per SM | time (ms) | GB/s | % of peak | median latency (cycles) | probe overhead % | recorded: 1 block in K |' "$M" ||
    fail "the readonly tables lack the engine's columns: $(grep -m1 '^| kernel' "$M")"
grep -q 'written before the engine timed a clean twin' "$M" && fail "new-format summaries are called old"
grep -q '^### 32 warps per block' "$M" || fail "no table at 32 warps per block"
# each WPB's overhead finding: the smallest and largest overhead_pct of its table
for w in 2 4 8 16 32; do
    f=$S/readonly_1e8_wpb$w.tsv
    lo=$(paste <(bin/tsv get "$f" overhead_pct) <(bin/tsv get "$f" kernel) | sort -g | head -n 1)
    hi=$(paste <(bin/tsv get "$f" overhead_pct) <(bin/tsv get "$f" kernel) | sort -g | tail -n 1)
    want=$(awk -v a="${lo%	*}" -v b="${hi%	*}" -v ka="${lo#*	}" -v kb="${hi#*	}" -v w=$w \
        'BEGIN { printf "Instrumentation overhead at %d warps per block: from %+.2f%% (%s) to %+.2f%% (%s)", w, a, ka, b, kb }')
    grep -qF "$want" "$M" || fail "no overhead finding '$want'"
done
# overhead.tsv: its table and its range
grep -q '^### overhead.tsv' "$M" || fail "overhead.tsv is not shown"
lo=$(bin/tsv get "$S/overhead.tsv" overhead_pct | sort -g | head -n 1)
hi=$(bin/tsv get "$S/overhead.tsv" overhead_pct | sort -g | tail -n 1)
grep -q "The probes cost from $(awk -v a="$lo" 'BEGIN { printf "%+.2f", a }')% .* to $(awk -v a="$hi" 'BEGIN { printf "%+.2f", a }')%" "$M" ||
    fail "the overhead range is not $lo .. $hi"

# missing files, each with its command (the source folder is $S)
for f in sampling.tsv latency_cg.tsv; do
    sec=$(bin/names command "$S" "$f")
    md_row "$M" "$f" "$sec" || fail "$f is not listed as missing with '$sec'"
done
grep -qF "*not available: sampling.tsv* (made by \`scripts/reference.sh $S --only sampling\`)" "$M" ||
    fail "the probes' section does not name the missing sampling.tsv"
grep -qF "*not available: sweep_readonly_float4_4.tsv* (made by \`scripts/occupancy_profile.sh readonly_float4 4 --out $S" "$M" ||
    fail "the missing float4 sweep is not named"
md_row "$M" sass_widecopy.txt "scripts/reference.sh $S --only sass" || fail "the missing SASS of widecopy is not listed"
# scripts/reference.sh runs the families other than readonly at WPB 4 only
grep -qF -e "| widecopy_1e8_wpb2.tsv |" -e "**widecopy_1e8_wpb2.tsv**" "$M" && fail "a summary reference.sh does not write is listed as missing"
md_row "$M" copy_1e8_wpb4.tsv "scripts/reference.sh $S --only summaries" ||
    fail "copy (a family this checkout builds) is not listed as missing"
grep -qF -e "| readonly_1e8_wpb4.tsv |" -e "**readonly_1e8_wpb4.tsv**" "$M" && fail "a summary that is there is listed as missing"

# the timelines: p50 of each log (bin/latency_stats) at the smallest and largest WPB
bin/latency_stats "$S"/logs_1e6/*.bin >"$TMP/ls.tsv" 2>/dev/null
for v in baseline random_access; do
    a=$(bin/tsv get "$TMP/ls.tsv" p50_cycles --where kernel=$v --where wpb=4)
    b=$(bin/tsv get "$TMP/ls.tsv" p50_cycles --where kernel=$v --where wpb=8)
    want=$(awk -v a="$a" -v b="$b" -v v=$v 'BEGIN { printf "%s: median warp latency %.0f cycles at 4 warps per block, %.0f at 8 (x%.2f)", v, a, b, b / a }')
    grep -qF "$want" "$M" || fail "the timeline finding lacks '$want'"
done
[ -s "$D/charts/synth/warps_readonly_random_access_8.svg" ] || fail "no timeline chart of a synthetic log"

# the sweep: its best point, and the bound of each point equals the table's own
best=$(bin/tsv get "$S/sweep_readonly_baseline_4.tsv" bw_GBps | sort -g | tail -n 1)
grep -q "^> baseline: the highest bandwidth is $best GB/s" "$M" || fail "the sweep's best point is not $best GB/s"
# (the table's bound has one decimal: the report's whole number is within 1 of it)
for b in $(bin/tsv get "$S/sweep_readonly_baseline_4.tsv" bound_GBps); do
    grep -qE "$(awk -v a="$b" 'BEGIN { printf "\\| (%d|%d) \\| [0-9]+ \\|$", int(a), int(a) + 1 }')" "$M" ||
        fail "the bound $b GB/s of the sweep table is not in the report"
done

# the sweep recorded every block: Little's law closed by measurement, in
# numbers (src/lib/inflight.h), and the summary's Little's-law finding says
# what limits baseline with the sweep's slot at its 16 blocks per SM
grep -qF "> Measured in flight (every block recorded), Little's law closes within 3.1% at every point (from -3.1% to -1.5%). At 1 block per SM the load holds a slot 731 of every 1261 cycles; the other 531 are launch and retire, so 4 resident warps keep 2.32 in flight. What does not close is launch and drain (1.2% of the kernel's time there) and SMs idle while others finish (0.3%)." "$M" ||
    fail "the sweep's in-flight finding: $(grep -m1 'Measured in flight' "$M")"
grep -qF "the load holds a slot 761 of every 2476 cycles; the other 1715 are launch and retire, so only 31% of the resident warps have a load in flight, and with the warps measured in flight Little's law closes to -3.1% (occupancy sweep at 16 blocks per SM)." "$M" ||
    fail "baseline's Little's-law finding lacks the sweep's slot: $(grep -m1 'baseline reaches' "$M")"
grep "baseline reaches [0-9]*% of peak at 4 warps per block" "$M" | grep -q "time between blocks" &&
    fail "the sentence without numbers is still there for baseline at 4 warps per block"
# ... while at 8 warps per block, which has no sweep, the words stay
grep "baseline reaches [0-9]*% of peak at 8 warps per block" "$M" | grep -q "time between blocks and the tail" ||
    fail "baseline at 8 warps per block (no sweep) lost its sentence"

# the sector table with an agree column: counted and the flagged row named
grep -q '^> 2 of 3 rows agree with the model. Rows that do not: strided_float4 stride 64.' "$M" ||
    fail "the flagged sector row is not named: $(grep -m1 'rows agree' "$M")"
[ -e "$D/tables/synth/sectors_readonly_compare.tsv" ] && fail "sector_compare was run on a table that has the model's verdict"

# ---- the GPU path, with stand-ins: nvidia-smi lists a GPU, ./readonly "is
# built", and scripts/reference.sh writes the synthetic folder where it is told
printf '#!/usr/bin/env bash\ncase "$*" in *-L*) echo "GPU 0: Stand-in GPU (UUID: GPU-0)" ;; *name*) echo "Stand-in GPU" ;; esac\n' >"$TMP/smi"
printf '#!/usr/bin/env bash\necho "reference.sh $*" >>"%s"\nmkdir -p "$1" && cp -r "%s"/. "$1"/\n' "$TMP/calls" "$S" >"$TMP/ref.sh"
chmod +x "$TMP/smi" "$TMP/ref.sh"
# the sector tables: a stand-in of ncu_profile.sh records its arguments and
# hands them to the real script, with no ncu on PATH: the real script must
# get past its argument checks (exit 1 "ncu ... is not on PATH", not the
# usage error 2 that make report on a real GPU once hit)
mkdir -p "$TMP/fakebin"
printf '#!/bin/sh\nexit 0\n' >"$TMP/fakebin/ncu"
printf '#!/usr/bin/env bash\necho "ncu_profile.sh $*" >>"%s"\nPATH=/usr/bin:/bin bash "%s/scripts/ncu_profile.sh" "$@"\necho "exit $?" >>"%s"\nexit 1\n' \
    "$TMP/ncucalls" "$ROOT" "$TMP/ncucalls" >"$TMP/ncu.sh"
chmod +x "$TMP/smi" "$TMP/ref.sh" "$TMP/fakebin/ncu" "$TMP/ncu.sh"
PATH=$TMP/fakebin:$PATH NVIDIA_SMI=$TMP/smi READONLY=/bin/true REFERENCE_SCRIPT=$TMP/ref.sh NCU_SCRIPT=$TMP/ncu.sh \
    expect_exit 0 bash scripts/report.sh --quick --device 0 --out "$TMP/gpu"
expect_says "[2/5] measure GPU 0 (scripts/reference.sh): done"
expect_says "a sector table failed"
expect_says "failed parts: 1: measure: the sector tables (scripts/ncu_profile.sh all)"
# the results were measured into the report being built, which then took
# the final name: no staging folder is left
case $(cat "$TMP/calls") in
    "reference.sh $TMP/gpu.new."??????"/data/stand_in_gpu --device 0 --quick") ;;
    *) fail "reference.sh got: $(cat "$TMP/calls")" ;;
esac
ls -d "$TMP"/gpu.new.* "$TMP"/gpu.old.* 2>/dev/null && fail "a staging folder was left"
case $(head -n 1 "$TMP/ncucalls") in
    "ncu_profile.sh all --out $TMP/gpu.new."??????"/data/stand_in_gpu --quick") ;;
    *) fail "ncu_profile.sh got: $(head -n 1 "$TMP/ncucalls")" ;;
esac
grep -qx "exit 1" "$TMP/ncucalls" || fail "the real ncu_profile.sh refused its arguments: $(cat "$TMP/ncucalls")"
[ "$(bin/tsv get "$TMP/gpu/logs/steps.tsv" status --where "step=measure: the sector tables (scripts/ncu_profile.sh all)")" = failed ] ||
    fail "the run log does not record the failed sector tables"
grep -q "^\*\*This report shows the study run on this machine's NVIDIA H100 80GB HBM3" "$TMP/gpu/index.md" ||
    fail "the top of a GPU report does not say it ran here: $(sed -n 3p "$TMP/gpu/index.md")"
grep -qF "(made by \`scripts/reference.sh $TMP/gpu/data/stand_in_gpu --only sampling\`)" "$TMP/gpu/index.md" ||
    fail "a GPU report does not name the command for its own folder"

done_testing

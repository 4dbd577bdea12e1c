#!/usr/bin/env bash
# tests/cli/report_families.sh - the families' own sections of the report
# (copy, patterns, stencil, tiling, the ceiling) against the bundled H100
# files, each figure computed here another way (bin/tsv, awk, bin/plot_ladder),
# never by the report's code; and the files the families' scripts write,
# against bin/report expected.
#
# 1. Expected files: scripts/stencil.sh, tiling.sh and ceiling.sh run (full
#    and --quick) with stand-ins for the GPU programs and ncu; what they
#    write is exactly what bin/report expected lists for those families.
#    names_family_script agrees with scripts/<family>.sh.
# 2. The H100's report (a copy without the readonly sector table, whose
#    model walk is slow): ceiling, copy, patterns, stencil, tiling.
# 3. The same set without ceiling.tsv: said so with its command, no line.
# 4. A stencil table with a deriv0_halo row: the halo finding.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin bin/report bin/tsv bin/names bin/ceiling bin/ncu_extract bin/plot_ladder
H=data/reference/h100
[ -d "$H" ] || skip "no bundled H100 set"
r1() { awk -v a="$1" 'BEGIN { printf "%.1f", a }'; }

# ---- 1. the scripts' files against bin/report expected
for fam in $(bin/names families); do
    if [ -f "scripts/$fam.sh" ]; then
        [ "$(bin/names script "$fam")" = "scripts/$fam.sh" ] || fail "names_family_script($fam) is not scripts/$fam.sh"
    else
        bin/names script "$fam" >/dev/null && fail "names_family_script($fam) names a script that does not exist"
    fi
done
T=$TMP/tree
mkdir -p "$T/scripts" "$T/stub"
cp scripts/*.sh "$T/scripts/"
ln -s "$ROOT/bin" "$T/bin"
# a program: writes a small table where --table says (the ceiling: a real
# search table, which bin/ceiling reads); with --batch-file, a row per line
# of it with the line's number (batch_line), as the engine does
cat >"$T/prog" <<STUB
#!/usr/bin/env bash
table="" batch=""
while [ \$# -gt 0 ]; do
    case \$1 in --table) table=\$2 ;; --batch-file) batch=\$2 ;; esac
    shift
done
[ -n "\$table" ] || exit 0
case \$0 in
    *ceiling) cp "$ROOT/$H/ceiling_search/step1.tsv" "\$table" ;;
    *) if [ -n "\$batch" ]; then
           awk 'BEGIN { print "# batch\t" ARGV[1]; print "kernel\tconfig\tbatch_line" }
                !/^[[:space:]]*(#|\$)/ { print "x\t-\t" FNR }' "\$batch" >"\$table"
       else
           printf 'kernel\tconfig\nx\t-\n' >"\$table"
       fi ;;
esac
STUB
chmod +x "$T/prog"
for p in stencil tiling tiling_profile ceiling; do ln -s "$T/prog" "$T/$p"; done
# ncu: runs the program and leaves the recorded tiling log
printf '#!/usr/bin/env bash\nlog=""\nwhile [ $# -gt 0 ]; do case $1 in --log-file) log=$2; shift 2 ;; --metrics|--kernel-name|--print-units|--clock-control|--cache-control) shift 2 ;; --csv) shift ;; *) break ;; esac; done\n"$@" && cp "%s" "$log"\n' \
    "$ROOT/$H/ncu/tiling_8192.csv" >"$T/stub/ncu"
chmod +x "$T/stub/ncu"
# --ncu-only without ncu: a sentence and exit 1, not 0 with nothing written
if ! PATH=/usr/bin:/bin command -v ncu >/dev/null 2>&1; then
    expect_exit 1 env PATH=/usr/bin:/bin bash "$T/scripts/tiling.sh" "$TMP/ncu_only" --ncu-only
    expect_says "--ncu-only needs Nsight Compute"
    [ ! -e "$TMP/ncu_only" ] || fail "tiling.sh --ncu-only without ncu created $TMP/ncu_only"
fi
for mode in full quick; do
    out=$TMP/out_$mode
    q=()
    [ $mode = quick ] && q=(--quick)
    PATH=$T/stub:$PATH bash "$T/scripts/stencil.sh" "$out" "${q[@]}" 2>/dev/null || fail "$mode: stencil.sh failed"
    PATH=$T/stub:$PATH bash "$T/scripts/tiling.sh" "$out" "${q[@]}" 2>/dev/null || fail "$mode: tiling.sh failed"
    bash "$T/scripts/ceiling.sh" "$out" --ladder "$ROOT/$H/latency_ca.tsv" "${q[@]}" 2>/dev/null || fail "$mode: ceiling.sh failed"
    (cd "$out" && find . -maxdepth 1 -type f -printf '%f\n' | sort) >"$TMP/wrote_$mode"
    # the set's N says --quick (readonly's 1e7) to bin/report expected
    mkdir -p "$TMP/empty_$mode"
    [ $mode = quick ] && printf 'kernel\nx\n' >"$TMP/empty_$mode/readonly_1e7_wpb4.tsv"
    bin/report expected "$TMP/empty_$mode" --families ceiling,stencil,tiling | cut -f1 |
        grep -E '^(stencil|tiling|ceiling)[_.]' | grep -v '^sass_' | sort >"$TMP/expect_$mode"
    diff "$TMP/expect_$mode" "$TMP/wrote_$mode" >&2 || fail "$mode: the scripts' files and bin/report expected differ (< expected, > written)"
    # stencil: step 1's table and 9 sizes, one of which is step 1's at the full
    # size; tiling: two DSIZEs and the ncu table; ceiling.tsv
    n=$(wc -l <"$TMP/wrote_$mode") want=13
    [ $mode = quick ] && want=14
    [ "$n" -eq $want ] || fail "$mode: the scripts wrote $n files, not $want"
done
grep -qx 'stencil_1024x97656_wpb4.tsv' "$TMP/wrote_full" || fail "stencil.sh did not write its all-variant table"
grep -qx 'tiling_ncu_2048.tsv' "$TMP/wrote_quick" || fail "tiling.sh --quick did not write tiling_ncu_2048.tsv"
# the H100 set is complete; a set with nothing of a family lists its files
bin/report expected "$H" >"$TMP/exp_h100.tsv"
[ "$(wc -l <"$TMP/exp_h100.tsv")" = 1 ] || fail "the H100 set lacks: $(tail -n +2 "$TMP/exp_h100.tsv" | cut -f1 | paste -sd' ')"
# (a copy of the H200 set less everything of the copy, ceiling, stencil and
# tiling families)
PART=$TMP/partial
mkdir -p "$PART"
tar -C data/reference/h200 --exclude='./copy_*' --exclude='./ceiling*' --exclude='./stencil_*' \
    --exclude='./tiling*' --exclude=./logs_1e6 --exclude=./ncu --exclude=./runlogs -cf - . | tar -C "$PART" -xf -
bin/report expected "$PART" --families ceiling,stencil,tiling >"$TMP/exp_h200.tsv"
[ "$(grep -c '^stencil_' "$TMP/exp_h200.tsv")" = 9 ] || fail "the partial set does not lack 9 stencil tables"
grep -qF "ceiling.tsv	scripts/ceiling.sh $PART --ladder $PART/latency_ca.tsv" "$TMP/exp_h200.tsv" ||
    fail "ceiling.tsv is not listed with scripts/ceiling.sh"
grep -qF "tiling_ncu_8192.tsv	scripts/tiling.sh $PART --ncu-only" "$TMP/exp_h200.tsv" || fail "the tiling's ncu table is not listed"
grep -qE '^(ceiling_1e8|stencil_1e8|sass_ceiling)' "$TMP/exp_h200.tsv" && fail "a file no script writes is expected"

# ---- 2. the H100's report
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed: the report's checks are skipped"; done_testing; }
mkdir -p "$TMP/in"
cp -r "$H" "$TMP/in/h100"
rm -f "$TMP/in/h100/sectors_readonly.tsv"
bash scripts/report.sh --data "$TMP/in" --out "$TMP/rep" 2>"$TMP/rep.err" || fail "the report failed: $(tail -n 3 "$TMP/rep.err")"
C=$TMP/rep/charts/h100
[ -s "$TMP/rep/index.md" ] || { fail "no index.md"; done_testing; }
# the Markdown's sentences on one line each (tests/lib.sh)
M=$TMP/rep/flat.md
mdflat "$TMP/rep/index.md" >"$M"
grep -q 'failed:' "$M" && fail "parts failed: $(grep -m3 'failed:' "$M")"
for t in ceiling copy patterns stencil tiling family-copy family-patterns family-stencil family-tiling; do
    grep -q "<section id=\"$t\">" "$TMP/rep/index.html" || fail "no section $t"
done
# the ceiling comes before the families it is the reference of
# (after the first screen, "At a glance", and the device)
[ "$(grep -n '^## ' "$M" | sed -n 3p | cut -d' ' -f2-)" = "The achievable ceiling: how close a tuned kernel gets" ] ||
    fail "the ceiling is not the section after the device"

# -- the ceiling: its table, the best read among the device facts and as a line
CT=$H/ceiling.tsv
rd=$(bin/tsv get "$CT" bw_GBps --where operation=read) rp=$(bin/tsv get "$CT" pct_theoretical --where operation=read)
cp_=$(bin/tsv get "$CT" bw_GBps --where operation=copy)
grep -qF "| achievable read (ceiling.tsv) | $rd GB/s, $rp% of the theoretical peak |" "$M" || fail "the device facts lack the best read $rd GB/s"
grep -qF "| read | $rd | $rp | $(bin/tsv get "$CT" config --where operation=read) |" "$M" || fail "the ceiling table lacks its read row"
grep -q "^> The best read reaches $rd GB/s, $rp% of the theoretical peak of 3352 GB/s" "$M" || fail "no ceiling finding with $rd GB/s"
grep -qF "cudaMemcpy $(bin/tsv get "$CT" bw_GBps --where operation=memcpy) GB/s" "$M" || fail "the ceiling finding lacks cudaMemcpy"
for f in "$C"/throughput_*.gp; do
    grep -qF "achievable ceiling $rd GB/s (ceiling.tsv)" "$f" || fail "$(basename "$f") has no ceiling line at $rd GB/s"
done
grep -qF "achievable ceiling $rd GB/s" "$C/bandwidth_readonly.gp" || fail "the WPB chart has no ceiling line"
for k in copy_stride copy_batch copy_vector; do
    grep -qF "achievable ceiling, copy $cp_ GB/s" "$C/$k.gp" || fail "$k.gp has no copy ceiling at $cp_ GB/s"
done
# the stencil's and the patterns' bandwidths span their own axis (within a few
# percent of each other, they would draw as one band from 0 to the peak): the
# peak and the ceiling, far above it, are named in the title
grep -qF "copy ceiling $(awk -v a="$cp_" 'BEGIN { printf "%.0f", a }') GB/s: above this axis" "$C/stencil_sweep.gp" ||
    fail "stencil_sweep.gp does not name the copy ceiling ($cp_ GB/s)"
grep -qF "read ceiling $(awk -v a="$rd" 'BEGIN { printf "%.0f", a }') GB/s: above this axis" "$C/patterns_offset.gp" ||
    fail "patterns_offset.gp does not name the read ceiling"

# -- copy: strides, from the summary and the sector table
S=$H/copy_1e8_wpb4.tsv SC=$H/sectors_copy.tsv
bw() { bin/tsv get "$S" bw_GBps --where kernel="$1" --where config="$2"; }
spr() { bin/tsv get "$SC" sectors_per_request_meas --where variant="$1" --where op="$2" --where config="stride=$3"; }
# the first stride whose sectors per request is within 1% of the largest
sat=$(for x in 1 2 3 4 5 6 7 8 16 32 64 128; do printf '%s\t%s\n' "$x" "$(spr stride ld $x)"; done |
      awk '{ x[NR] = $1; y[NR] = $2; if ($2 > m) m = $2 } END { for (i = 1; i <= NR; i++) if (y[i] >= 0.99 * m) { printf "%.1f (x%.1f) from stride %d", y[i], y[i] / y[1], x[i]; exit } }')
a=$(bw stride stride=1) b=$(bw stride stride=128)
want="stride (strided loads): $(r1 "$(spr stride ld 1)") sectors per request at stride 1, $sat on; $a GB/s at stride 1, $b GB/s at stride 128 ($(awk -v a="$a" -v b="$b" 'BEGIN { printf "x%.2f", b / a }'))."
grep -qF "$want" "$M" || fail "no stride finding '$want'"
# the chart's data: the strided loads' bandwidth at every stride
sed -n '/^# stride: strided loads/,/^$/p' "$C/copy_stride.dat" | tail -n +2 | cut -f2 | sed '/^$/d' >"$TMP/chart_bw"
for x in 1 2 3 4 5 6 7 8 16 32 64 128; do bw stride stride=$x; done | awk '{ printf "%.10g\n", $1 }' >"$TMP/table_bw"
diff -q "$TMP/chart_bw" "$TMP/table_bw" >/dev/null || fail "copy_stride.dat's strided loads are not the summary's bw_GBps"
grep -q "^# stride_store: stores, measured" "$C/copy_sectors.dat" || fail "copy_sectors.dat has no measured stores"
# batches against cudaMemcpy
mem=$(bin/tsv get "$S" bw_GBps --where kernel=memcpy)
br=$(bw batch_restrict batch=4)
grep -qF "| 4 | $(bw batch batch=4) GB/s ($(awk -v a="$(bw batch batch=4)" -v m="$mem" 'BEGIN { printf "%.1f", 100 * a / m }')%) |" "$M" ||
    fail "the batch table's row 4 is not batch's GB/s and % of cudaMemcpy"
grep -qF "batch_restrict (batch=4) $br GB/s ($(awk -v a="$br" -v m="$mem" 'BEGIN { printf "%.1f", 100 * a / m }')%)" "$M" ||
    fail "the best batch_restrict is not batch=4 at $br GB/s"
grep -qF "vector4 $(bin/tsv get "$S" bw_GBps --where kernel=vector4) GB/s" "$M" || fail "no vector4 in the vector widths"
# the labs' figures: every figure of the lab column counted, the one that differs named
nfig=$(bin/tsv get "$SC" lab | grep -o '\[' | wc -l)
grep -q "^> NVIDIA H100 80GB HBM3 measures the lab's figure in [0-9]* of $nfig" "$M" || fail "the copy lab finding does not count $nfig figures"
wf=$(paste <(bin/tsv get "$SC" wavefronts_meas --where variant=stride --where op=ld --where config=stride=16) \
           <(bin/tsv get "$SC" l1_requests_meas --where variant=stride --where op=ld --where config=stride=16) |
     awk '{ printf "%.4g", $1 / $2 }')
grep -qF "wavefronts/request of stride ld (stride=16): lab 4 [000], model 4, measured $wf" "$M" ||
    fail "the stride-16 wavefronts ($wf per request) are not named as differing from the lab's 4"

# -- patterns: the lecture's table, misalignment, AoS and SoA
P=$H/patterns_1e8_wpb4.tsv SP=$H/sectors_patterns.tsv
u() { bin/tsv get "$SP" "$1" --where variant="$2" --where op=ld --where config=offset=1 | awk '{ printf "%.4g", $1 }'; }
lab_c=$(bin/tsv get "$SP" lab --where variant=offset_ca --where config=offset=1 | sed -E 's/.* % ([0-9.]+) \[001\].*/\1/')
lab_u=$(bin/tsv get "$SP" lab --where variant=offset_cg --where config=offset=1 | sed -E 's/.* % ([0-9.]+) \[001\].*/\1/')
want="| offset (offset=1) | $lab_c | $lab_u | 001 | $(u l1_util_pct_pred offset_ca) / $(u l1_util_pct_pred offset_cg) / $(u l1_util_pct_pred offset_nc) | $(u l1_util_pct_meas offset_ca) | $(u l1_util_pct_meas offset_cg) | $(u l1_util_pct_meas offset_nc) |"
grep -qF "$want" "$M" || fail "the utilization table's offset row is not '$want'"
# offset_ca: the bandwidth's range, and its mean where L1 utilization is highest against the others
paste <(for o in $(seq 0 32); do bin/tsv get "$P" bw_GBps --where kernel=offset_ca --where config=offset=$o; done) \
      <(for o in $(seq 0 32); do bin/tsv get "$SP" l1_util_pct_meas --where variant=offset_ca --where op=ld --where config=offset=$o; done) >"$TMP/off"
want=$(awk '{ b[NR] = $1; u[NR] = $2; if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1; if ($2 > top) top = $2 }
            END { for (i = 1; i <= NR; i++) if (u[i] >= top - 0.05) { sa += b[i]; na++ } else { sb += b[i]; nb++ }
                  printf "over offsets 0-32 the bandwidth stays within %.1f-%.1f GB/s (%.1f%% apart); the L1 utilization measured is", lo, hi, 100 * (hi - lo) / lo
                  printf "|mean bandwidth is %.1f GB/s at %d offsets with %.0f%%, %.1f GB/s at the %d others (x%.3f)", sa / na, na, top, sb / nb, nb, (sb / nb) / (sa / na) }' "$TMP/off")
grep -F "offset_ca: ${want%%|*}" "$M" | grep -qF "${want#*|}" || fail "the offset_ca finding is not '$want'"
grep -q "^# offset_nc: L1 utilization % (measured)" "$C/patterns_offset.dat" || fail "the offset chart has no utilization of offset_nc"
x=$(bin/tsv get "$P" bw_GBps --where kernel=aos8_one) y=$(bin/tsv get "$P" bw_GBps --where kernel=soa8_one)
grep -qF "one field of 8 floats: AoS $x, SoA $y GB/s ($(awk -v a="$x" -v b="$y" 'BEGIN { printf "x%.2f", b / a }'))" "$M" ||
    fail "no AoS/SoA finding for one field of 8"
grep -qF "| write_strided (stride=8) | $(bin/tsv get "$P" kernel_ms --where kernel=write_strided --where config=stride=8) |" "$M" ||
    fail "the write table lacks write_strided stride=8"

# -- stencil: the lab's cases, the sweep, the over-fetch, the halo
SS=$H/sectors_stencil.tsv
l2=$(bin/tsv get "$SS" l2_requests_meas --where variant=deriv_copy --where op=ld --where config=n0=64,n1=1,r=1,lead=0,ld=66)
grep -qF "L2 requests of deriv_copy ld (n0=64,n1=1,r=1,lead=0,ld=66): lab 4 [000], model 4, measured $l2" "$M" ||
    fail "the stencil lab finding does not name the measured $l2 L2 requests of n0=64"
# a lab case: the four quantities as lab / model / measured; the L2 bracket of
# the row's note (misses joining a request in flight, or not)
cs=n0=32,n1=2,r=1,lead=0,ld=34
g() { bin/tsv get "$SS" "$1" --where variant=deriv_copy --where op=ld --where config=$cs; }
br=$(g note | sed -nE 's/.*L2 requests ([0-9]+) if every miss.*joins that request, ([0-9]+) if none does.*/\1..\2/p')
# (where the table is wider than a page its last columns follow in a second
# slice that repeats the first column)
want="| deriv_copy | ld | $cs | 10 / $(g l1_sectors_pred) / $(g l1_sectors_meas) | 1 / $(g l1_hits_pred) / $(g l1_hits_meas) |"
hitc="| - / $(g l1_hit_pct_pred) / $(g l1_hit_pct_meas) |" l2c="| 3 / $br / $(g l2_requests_meas) |"
grep -qF "$want" "$M" || fail "the lab case row does not start '$want'"
grep '^| deriv_copy |' "$M" | grep -qF "$hitc" || fail "no lab case row has the hit rate '$hitc'"
grep '^| deriv_copy |' "$M" | grep -qF "$l2c" || fail "no lab case row has the L2 requests '$l2c'"
nl=$(bin/tsv get "$SS" lab | grep -cE '(sectors|L1 hits|L1 hit rate %|L2 requests) [0-9.]+ \[')
grep -q "^> Measured inside the model's prediction (its bracket where it has one): L1 sectors in [0-9]* of $nl," "$M" ||
    fail "the lab cases' finding does not count the $nl rows with a lab figure"
# over-fetch of lead padding alone at 1024 x 97656: row i1 starts at 32 + 1026 i1 floats
of=$(awk 'BEGIN { for (i = 0; i < 97656; i++) { s = 32 + 1026 * i; sec += (s % 8 ? 5 : 4) } printf "%.1f", 100 * (sec / (97656 * 4) - 1) }')
st() { bin/tsv get "$H/stencil_1024x97656_wpb4.tsv" bw_GBps --where kernel="$1" --where config="1024x97656,R=1,lead=$2,padld=$3"; }
grep -qF "| 1024 | with the lead pad | $of | $(st deriv_copy 1 0) | $(st deriv0 1 0) | $(st deriv1 1 0) |" "$M" ||
    fail "the sweep table's 1024 row with the lead pad is not over-fetch $of% and its three bandwidths"
grep -qF "| 1024 | without padding | 25.0 | $(st deriv_copy 0 0) |" "$M" || fail "the unpadded 1024 row is not 25% over-fetch"
# both pads against none, over every size and the three variants
for f in "$H"/stencil_*_wpb4.tsv; do paste <(bin/tsv get "$f" config) <(bin/tsv get "$f" bw_GBps); done >"$TMP/sweep"
d=$(awk -F'\t' '/lead=0,padld=0/ { a += $2; na++ } /lead=1,padld=1/ { b += $2; nb++ } END { printf "%+.1f", 100 * ((b / nb) / (a / na) - 1) }' "$TMP/sweep")
grep -qF "Both pads against none: $d% bandwidth for 25.0% less over-fetch." "$M" || fail "the sweep finding is not $d% for both pads"
low=$(sort -t$'\t' -k2 -g "$TMP/sweep" | head -n 1 | cut -f2)
grep -qF "The lowest point: deriv1 at N0 = 32 with the padded leading dimension, $low GB/s." "$M" || fail "the sweep's lowest point is not $low GB/s"
grep -qF "not available: stencil_1024x97656_wpb4.tsv with a deriv0_halo row" "$M" || fail "the missing halo probe is not said"

# -- tiling: bytes, ratios, Little's law, GFLOP/s not GB/s
TS=$H/tiling_8192_wpb4.tsv TN=$H/tiling_ncu_8192.tsv
n() { bin/tsv get "$TN" "$2" --where kernel="$1"; }
hit=$(awk -v h="$(n tiling_naive l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum)" -v s="$(n tiling_naive l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" 'BEGIN { printf "%.1f", 100 * h / s }')
xi=$(awk -v b="$(n tiling_naive dram__bytes_read.sum)" 'BEGIN { printf "x%.0f", b / (2 * 8192 * 8192 * 4) }')
grep -qE "^\| naive \| 32 \| 32 \| 2 \| $(bin/tsv get "$TS" kernel_ms --where kernel=naive | awk '{ printf "%.3f", $1 }') \| $(bin/tsv get "$TS" gflops --where kernel=naive) \| .* \| $hit \| .* \| $xi \|$" "$M" ||
    fail "the tiling table's naive row lacks its time, GFLOP/s, L1 hit rate $hit% and DRAM $xi the ideal"
tn=$(bin/tsv get "$TS" kernel_ms --where kernel=naive) tt=$(bin/tsv get "$TS" kernel_ms --where kernel=tiled32)
want=$(awk -v a="$tn" -v b="$tt" 'BEGIN { printf "tiled32 takes %.4g ms against naive'"'"'s %.4g ms: x%.2f faster.", b, a, a / b }')
grep -qF "$want" "$M" || fail "no speed-up sentence '$want'"
for lv in "L1 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" "DRAM dram__bytes_read.sum"; do
    r=$(awk -v a="$(n tiling_naive "${lv#* }")" -v b="$(n tiling_tiled32 "${lv#* }")" 'BEGIN { printf "x%.2f", a / b }')
    grep -F "tiled32 takes" "$M" | grep -q "${lv%% *} [^,]* against [^,]* ($r)" || fail "the ${lv%% *} ratio of naive to tiled32 is not $r"
done
gbs=$(awk -v b="$(n tiling_naive dram__bytes_read.sum)" -v t="$(n tiling_naive gpu__time_duration.sum)" 'BEGIN { printf "%.1f", b / t }')
grep -q "^> naive reads DRAM at $gbs GB/s" "$M" || fail "naive's DRAM throughput is not $gbs GB/s"
best=$(paste <(bin/tsv get "$TS" gflops) <(bin/tsv get "$TS" kernel) | sort -g | tail -n 1)
grep -qF "> Fastest kernel: ${best#*	} (dsize=8192,tile=32), at its 32 warps per block, ${best%	*} GFLOP/s" "$M" ||
    fail "the fastest tiling kernel is not ${best#*	} at ${best%	*} GFLOP/s"
sed -n '/^## tiling: summaries/,/^## tiling: why/p' "$M" >"$TMP/tiling_summ.md"
grep -qE '\| (GB/s|% of peak) \|' "$TMP/tiling_summ.md" && fail "the tiling summaries show GB/s"
grep -q 'Fastest kernel at ' "$TMP/tiling_summ.md" && fail "a tiling fact speaks of the file's WPB"
grep -q '| kernel | warps per block | blocks per SM | time (ms) | GFLOP/s |' "$TMP/tiling_summ.md" || fail "the tiling table lacks warps per block and GFLOP/s"
grep -qF "from $(bin/tsv get "$TS" overhead_pct --where kernel=tiled8 | awk '{ printf "%+.2f", $1 }')% (tiled8, 2 warps per block)" "$TMP/tiling_summ.md" ||
    fail "the tiling overhead does not name tiled8's own 2 warps per block"
sed -n '/^# tiled: time/,/^$/p' "$C/tiling_8192.dat" | sed -n 2p | grep -q "^8	$(bin/tsv get "$TS" kernel_ms --where kernel=tiled8)" ||
    fail "the tiling chart's first point is not tiled8's time"

# chart-family: usage errors exit 2, a folder without the data exits 1 and leaves nothing
expect_exit 2 bin/report chart-family "$TMP/x.svg" nope "$H";           expect_says "unknown chart 'nope'"
expect_exit 2 bin/report chart-family "$TMP/x.svg" tiling "$H";         expect_says "chart-family tiling needs N"
expect_exit 2 bin/report chart-family "$TMP/x.svg" copy_stride;         expect_says "chart-family needs OUT.svg KIND DIR"
expect_exit 1 bin/report chart-family "$TMP/x.svg" copy_stride "$PART"; expect_says "no copy summary"
ls "$TMP"/x.* >/dev/null 2>&1 && fail "a failed chart-family left files"

# ---- 3. without ceiling.tsv: said so, with the command; no line anywhere
rm -f "$TMP/in/h100/ceiling.tsv"
bash scripts/report.sh --data "$TMP/in" --out "$TMP/rep2" 2>/dev/null || fail "the report without ceiling.tsv failed"
grep -qF "*not available: ceiling.tsv (the achievable bandwidth: this GPU's charts draw no ceiling line)* (made by \`scripts/ceiling.sh $TMP/in/h100 --ladder $TMP/in/h100/latency_ca.tsv" <(mdflat "$TMP/rep2/index.md") ||
    fail "the missing ceiling.tsv is not said with its command"
grep -qF "| achievable read (ceiling.tsv) | n/a: no ceiling.tsv |" <(mdflat "$TMP/rep2/index.md") || fail "the device facts do not say there is no ceiling"
grep -l 'achievable ceiling' "$TMP/rep2/charts/h100/"*.gp >/dev/null 2>&1 && fail "a chart draws a ceiling without ceiling.tsv"

# ---- 4. a halo probe: its median latency against the ladder's L1 plateau
l1=$(bin/plot_ladder "$H/latency_ca.tsv" | awk -F'\t' '$1 == "L1" { print $4 }')
[ -n "$l1" ] || fail "no L1 plateau in the ladder"
f=$TMP/in/h100/stencil_1024x97656_wpb4.tsv
# the deriv0 row of the all-layout table as a deriv0_halo row, its median set to 40 cycles
awk -F'\t' -v OFS='\t' '/^#/ { print; next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
     { print } $c["kernel"] == "deriv0" && !done { $c["kernel"] = "deriv0_halo"; $c["lat_p50_cycles"] = 40; print; done = 1 }' "$f" >"$f.new" && mv "$f.new" "$f"
bash scripts/report.sh --data "$TMP/in" --out "$TMP/rep3" 2>/dev/null || fail "the report with a halo row failed"
want=$(awk -v l="$l1" 'BEGIN { printf "deriv0_halo: the halo load'"'"'s median latency is 40 cycles, x%.2f the L1 plateau of %.0f cycles", 40 / l, l }')
grep -qF "$want" <(mdflat "$TMP/rep3/index.md") || fail "no halo finding '$want'"
done_testing

#!/usr/bin/env bash
# tests/cli/fleet.sh - bin/fleet, bin/tsv_scale and the Slurm scripts without
# Slurm: usage errors, the figures of the bundled reference sets (against
# bin/plot_ladder and the summaries, read by column name), a fleet with a
# perturbed copy flagged, the folder search, the folder key, a replay task
# run by hand, and submit.sh --dry-run.  tests/cli/slurm.sh runs the same
# pipeline through a real Slurm.
. "$(dirname "$0")/../lib.sh"
require_bin bin/fleet bin/tsv_scale bin/tsv bin/plot_ladder

H100=data/reference/h100 H200=data/reference/h200
close() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# ---- usage
expect_exit 2 bin/fleet;                                 expect_says "Try 'fleet --help'."
expect_exit 0 bin/fleet --help;                          expect_says "fleet report DIR..."
expect_exit 2 bin/fleet report $H100;                    expect_says "--out"
expect_exit 2 bin/fleet frobnicate;                      expect_says "unknown command 'frobnicate'"
expect_exit 2 bin/fleet report $H100 --out "$TMP/x" --min-group 2;  expect_says "--min-group"
expect_exit 2 bin/fleet report $H100 --out "$TMP/x" --k 0;          expect_says "--k"
expect_exit 2 bin/fleet report $H100 --out "$TMP/x" --chart c.txt;  expect_says ".svg, .png or .pdf"
expect_exit 2 bin/fleet collect a b;                     expect_says "one ROOT"
expect_exit 2 bin/fleet key;                             expect_says "one DIR"
[ ! -e "$TMP/x" ] || fail "a usage error wrote $TMP/x"

# ---- not results
mkdir -p "$TMP/empty"
expect_exit 1 bin/fleet report "$TMP/empty" --out "$TMP/x"; expect_says "holds no GPU results"
expect_exit 1 bin/fleet report /nonexistent --out "$TMP/x";  expect_says "not a folder"
expect_exit 1 bin/fleet collect "$TMP/empty";                expect_says "no results folder under"
expect_exit 1 bin/fleet report $H100 --out /nonexistent/deep/out; expect_says "cannot create"

# ---- the two bundled sets: one GPU of each model, nobody judged
expect_exit 0 bin/fleet report $H100 $H200 --out "$TMP/two"
expect_says "not judged: NVIDIA H100 80GB HBM3 (1 GPU"
expect_says "0 flagged"
F=$TMP/two/fleet.tsv
get() { bin/tsv get "$1" "$4" --where gpu="$2" --where figure="$3"; }
for g in h100 h200; do
    lad=$(bin/plot_ladder data/reference/$g/latency_ca.tsv --dram-latency)
    close "$(get "$F" $g dram_lat_cycles value)" "$(echo "$lad" | cut -f1)" 0.06 || fail "$g DRAM cycles differ from plot_ladder"
    close "$(get "$F" $g dram_lat_ns value)" "$(echo "$lad" | cut -f2)" 0.06 || fail "$g DRAM ns differ from plot_ladder"
    l2=$(bin/plot_ladder data/reference/$g/latency_ca.tsv | awk -F'\t' '$1 == "L2-near" { print $4 }')
    close "$(get "$F" $g l2_near_lat_cycles value)" "$l2" 0.06 || fail "$g L2-near differs from plot_ladder ($l2)"
    # the read bandwidth: the ceiling's read row where the set has ceiling.tsv,
    # else the float4 summary row, said to be the fallback
    if [ -f data/reference/$g/ceiling.tsv ]; then
        bw=$(bin/tsv get data/reference/$g/ceiling.tsv bw_GBps --where operation=read)
        close "$(get "$F" $g read_bw_GBps value)" "$bw" 0.001 || fail "$g read bandwidth is not the ceiling's read row $bw"
        case $(get "$F" $g read_bw_GBps source) in "ceiling.tsv read"*) ;; *) fail "$g bandwidth does not name ceiling.tsv" ;; esac
    else
        bw=$(bin/tsv get data/reference/$g/readonly_1e8_wpb4.tsv bw_GBps --where kernel=float4)
        close "$(get "$F" $g read_bw_GBps value)" "$bw" 0.001 || fail "$g read bandwidth is not the float4 row's $bw"
        case $(get "$F" $g read_bw_GBps source) in *"float4 (fallback"*) ;; *) fail "$g bandwidth does not say it is the fallback" ;; esac
    fi
    # the largest overhead of overhead.tsv, or nan and a note where it is missing
    if [ -f data/reference/$g/overhead.tsv ]; then
        mx=$(bin/tsv get data/reference/$g/overhead.tsv overhead_pct | sort -g | tail -n 1)
        close "$(get "$F" $g overhead_max_pct value)" "$mx" 0.001 || fail "$g overhead is not overhead.tsv's largest $mx"
    else
        [ "$(get "$F" $g overhead_max_pct value)" = nan ] || fail "$g has an overhead without overhead.tsv"
        case $(get "$F" $g overhead_max_pct source) in *"no overhead.tsv"*) ;; *) fail "$g does not say overhead.tsv is missing" ;; esac
    fi
    [ "$(get "$F" $g dram_lat_cycles flagged)" = "-" ] || fail "$g judged alone"
done
[ "$(bin/tsv get "$F" name --where gpu=h200 --where figure=sm_clock_MHz)" = "NVIDIA H200" ] || fail "h200 name"
[ "$(bin/tsv meta "$F" k_mads)" = 3 ] || fail "k_mads metadata"
[ "$(bin/tsv meta "$F" model_count)" = 2 ] || fail "model_count metadata"
ls "$TMP/two"/*.tmp >/dev/null 2>&1 && fail "a .tmp file was left"

# ---- tsv_scale: the perturbed copy
expect_exit 2 bin/tsv_scale $H100/latency_ca.tsv --factor 2 --out "$TMP/s.tsv"; expect_says "--columns"
expect_exit 1 bin/tsv_scale $H100/latency_ca.tsv --columns nope --factor 2 --out "$TMP/s.tsv"; expect_says "no column 'nope'"
[ ! -e "$TMP/s.tsv" ] && ! compgen -G "$TMP/s.tsv*.tmp" >/dev/null || fail "tsv_scale left a file after failing"
expect_exit 0 bin/tsv_scale $H100/latency_ca.tsv --columns cycles_per_load --factor 2 --rows-from bytes=67108864 \
    --out "$TMP/s.tsv"
orig=$(bin/tsv get $H100/latency_ca.tsv cycles_per_load --where bytes=67108864)
[ "$(bin/tsv get "$TMP/s.tsv" cycles_per_load --where bytes=67108864)" = "$(awk -v v="$orig" 'BEGIN { printf "%.2f", 2 * v }')" ] ||
    fail "tsv_scale did not double the 64 MiB row ($orig)"
[ "$(bin/tsv get "$TMP/s.tsv" cycles_per_load --where bytes=5760)" = "$(bin/tsv get $H100/latency_ca.tsv cycles_per_load --where bytes=5760)" ] ||
    fail "tsv_scale touched a row below --rows-from"
[ "$(bin/tsv get "$TMP/s.tsv" ns_per_load --where bytes=67108864)" = "$(bin/tsv get $H100/latency_ca.tsv ns_per_load --where bytes=67108864)" ] ||
    fail "tsv_scale touched a column not named"
case $(bin/tsv meta "$TMP/s.tsv" scaled) in *"not a measurement"*) ;; *) fail "the copy is not marked" ;; esac
[ "$(bin/tsv meta "$TMP/s.tsv" device_name)" = "NVIDIA H100 80GB HBM3" ] || fail "tsv_scale lost the metadata"

# ---- a fleet: three H100s (one with a 15 % slower DRAM), three H200s, under a root
R=$TMP/root
mkdir -p "$R/node-a" "$R/node-b" "$R/.task-1_0"
cp -R $H100 "$R/node-a/gpu0"; cp -R $H100 "$R/node-a/gpu1"; cp -R $H100 "$R/node-b/gpu0"
cp -R $H200 "$R/node-a/gpu2"; cp -R $H200 "$R/node-b/gpu1"; cp -R $H200 "$R/node-b/gpu2"
cp -R $H100 "$R/.task-1_0/gpu9"       # unfinished: never collected
bin/tsv_scale $H100/latency_ca.tsv --columns cycles_per_load,ns_per_load --factor 1.15 \
    --rows-from bytes=67108864 --out "$R/node-a/gpu1/latency_ca.tsv" 2>/dev/null || fail "tsv_scale"
expect_exit 0 bin/fleet collect "$R" --list
[ "$(printf '%s\n' "$OUTTXT" | wc -l)" -eq 6 ] || fail "collect --list found: $OUTTXT"
case $OUTTXT in *".task-"*) fail "collect --list shows an unfinished folder" ;; esac
expect_exit 0 bin/fleet collect "$R" --depth 1 --list
[ -z "$OUTTXT" ] || fail "--depth 1 should find nothing two levels down: $OUTTXT"
# the chart needs gnuplot: without it, collect is checked without the chart
chart=()
command -v gnuplot >/dev/null 2>&1 && gnuplot -d -e exit >/dev/null 2>&1 && chart=(--chart "$TMP/chart.svg")
expect_exit 0 bin/fleet collect "$R" "${chart[@]}"
expect_says "flagged: node-a/gpu1 (NVIDIA H100 80GB HBM3): dram_lat_cycles"
expect_says "1 flagged"
F=$R/fleet.tsv
[ "$(get "$F" node-a/gpu1 dram_lat_cycles flagged)" = 1 ] || fail "the slow copy is not flagged"
[ "$(get "$F" node-a/gpu1 dram_lat_ns flagged)" = 1 ] || fail "the slow copy's ns are not flagged"
[ "$(get "$F" node-a/gpu1 l2_near_lat_cycles flagged)" = 0 ] || fail "the slow copy's L2 is flagged"
for g in node-a/gpu0 node-b/gpu0 node-a/gpu2 node-b/gpu1 node-b/gpu2; do
    [ "$(bin/tsv get "$R/fleet_summary.tsv" verdict --where gpu=$g)" = ok ] || fail "$g is not ok"
done
d=$(get "$F" node-a/gpu1 dram_lat_cycles distance_mads)
# 15 % above the median, in floors of 1 % of the median: 15 MADs
close "$d" 15 0.05 || fail "the slow copy is $d MADs away, expected 15"
[ ${#chart[@]} -eq 0 ] || [ -s "$TMP/chart.svg" ] || fail "no chart"
# a looser rule lets it pass
expect_exit 0 bin/fleet collect "$R" --out "$TMP/loose" --k 20
expect_says "0 flagged"
# 15 % is within 3 MADs when the floor is 10 % of the median
expect_exit 0 bin/fleet collect "$R" --out "$TMP/floor" --floor-pct 10
expect_says "0 flagged"

# ---- the second rule: read bandwidth more than 5 % below the median is
# flagged whatever the MAD rule says.  Seven H100s of a fleet that spreads
# by a few percent (device.tsv and ceiling.tsv each, the read row scaled):
# one card 6 % slow, within 3 MADs of the spread but flagged by the 5 %
# rule, and one 3 % slow, flagged by neither.
P=$TMP/pct
i=0
for f in 0.94 0.97 0.975 1.00 1.01 1.025 1.03; do
    d=$P/gpu$i; mkdir -p "$d"
    sed "s/^device_uuid.*/device_uuid\tGPU-0000000$i-0000-0000-0000-000000000000/" $H100/device.tsv >"$d/device.tsv"
    bin/tsv_scale $H100/ceiling.tsv --columns bw_GBps --factor $f --out "$d/ceiling.tsv" 2>/dev/null || fail "tsv_scale $f"
    i=$((i + 1))
done
base=$(bin/tsv get $H100/ceiling.tsv bw_GBps --where operation=read)
slow6=$(bin/tsv get "$P/gpu0/ceiling.tsv" bw_GBps --where operation=read)
slow3=$(bin/tsv get "$P/gpu1/ceiling.tsv" bw_GBps --where operation=read)
# (tsv_scale keeps the column's one decimal)
close "$slow6" "$(awk -v b="$base" 'BEGIN { print 0.94 * b }')" 0.06 || fail "the 6 % card reads $slow6 GB/s"
expect_exit 0 bin/fleet collect "$P"
expect_says "flagged: gpu0 (NVIDIA H100 80GB HBM3): read_bw_GBps $slow6 GB/s against a median of $base"
expect_says "rule pct_below_median)"
expect_says "1 flagged"
F=$P/fleet.tsv
[ "$(get "$F" gpu3 read_bw_GBps median)" = "$base" ] || fail "the median is not the unscaled card's $base"
# MAD: the deviations 6, 3, 2.5, 0, 1, 2.5, 3 % -> 2.5 % of the median; the
# 6 % card is -2.4 MADs out (the MAD rule lets it pass) and -6 % (flagged)
close "$(get "$F" gpu0 read_bw_GBps mad)" "$(awk -v b="$base" 'BEGIN { print 0.025 * b }')" 0.1 || fail "the MAD is not 2.5 %"
close "$(get "$F" gpu0 read_bw_GBps distance_mads)" -2.4 0.006 || fail "the 6 % card is $(get "$F" gpu0 read_bw_GBps distance_mads) MADs out"
close "$(get "$F" gpu0 read_bw_GBps pct_from_median)" -6 0.006 || fail "the 6 % card is $(get "$F" gpu0 read_bw_GBps pct_from_median) % off"
[ "$(get "$F" gpu0 read_bw_GBps flagged)" = 1 ] || fail "the 6 % slow card is not flagged"
[ "$(get "$F" gpu0 read_bw_GBps rule)" = pct_below_median ] || fail "the 6 % card's rule: $(get "$F" gpu0 read_bw_GBps rule)"
close "$(get "$F" gpu1 read_bw_GBps pct_from_median)" -3 0.006 || fail "the 3 % card is $(get "$F" gpu1 read_bw_GBps pct_from_median) % off"
[ "$(get "$F" gpu1 read_bw_GBps flagged)" = 0 ] || fail "the 3 % slow card is flagged"
[ "$(get "$F" gpu1 read_bw_GBps rule)" = - ] || fail "the 3 % card has a rule"
[ "$(bin/tsv get "$P/fleet_summary.tsv" flagged_figures --where gpu=gpu0)" = "read_bw_GBps -2.4 (pct_below_median)" ] ||
    fail "the summary of the 6 % card: $(bin/tsv get "$P/fleet_summary.tsv" flagged_figures --where gpu=gpu0)"
for g in gpu1 gpu2 gpu3 gpu4 gpu5 gpu6; do
    [ "$(bin/tsv get "$P/fleet_summary.tsv" verdict --where gpu=$g)" = ok ] || fail "$g is not ok"
done
# the chart's band: its low end 5 % below the median, above the MADs' band
close "$(bin/tsv get "$P/fleet_chart.tsv" band_lo --where gpu=gpu0 --where figure=read_bw_GBps)" \
    "$(awk -v b="$base" 'BEGIN { print 0.95 * b }')" 0.01 || fail "the chart's band does not end 5 % below"
[ "$(bin/tsv get "$P/fleet_chart.tsv" rule --where gpu=gpu0 --where figure=read_bw_GBps)" = pct_below_median ] ||
    fail "the chart's rule column"
[ "$(bin/tsv meta "$F" pct_below)" = 5 ] || fail "pct_below metadata"
# the rule off, or looser than 6 %: nobody flagged
expect_exit 0 bin/fleet collect "$P" --out "$TMP/pct0" --pct-below 0;   expect_says "0 flagged"
expect_exit 0 bin/fleet collect "$P" --out "$TMP/pct7" --pct-below 7;   expect_says "0 flagged"
expect_exit 2 bin/fleet collect "$P" --pct-below 60;                     expect_says "--pct-below"

# ---- concurrent: one GPU alone against the same GPU with all running
C=$TMP/conc; mkdir -p "$C"; cp -R $H100 "$C/all"
bin/tsv_scale $H100/latency_ca.tsv --columns cycles_per_load,ns_per_load --factor 1.10 \
    --rows-from bytes=67108864 --out "$C/all/latency_ca.tsv" 2>/dev/null || fail "tsv_scale"
expect_exit 2 bin/fleet concurrent $H100 "$C/all";        expect_says "--alone-s and --all-s"
expect_exit 2 bin/fleet concurrent $H100 --alone-s 1 --all-s 1; expect_says "ALONE and ALL"
expect_exit 1 bin/fleet concurrent $H100 "$TMP/empty" --alone-s 1 --all-s 1; expect_says "holds no GPU results"
expect_exit 0 bin/fleet concurrent $H100 "$C/all" --alone-s 100 --all-s 120 --out "$C/c.tsv"
expect_says "cycles: OUTSIDE (+10.00%, tolerance 5%)"
expect_says "read_bw_GBps: alone $base, with all GPUs $base GB/s: within (+0.00%, tolerance 5%)"
expect_says "wall time: alone 100.0 s, all GPUs at once 120.0 s: 1.200 x (limit 1.15 x): OUTSIDE"
[ "$(bin/tsv get "$C/c.tsv" verdict --where figure=dram_lat_cycles)" = outside ] || fail "DRAM 10 % slower is within 5 %"
close "$(bin/tsv get "$C/c.tsv" diff_pct --where figure=dram_lat_cycles)" 10 0.02 || fail "DRAM is not 10 % apart"
[ "$(bin/tsv get "$C/c.tsv" verdict --where figure=read_bw_GBps)" = within ] || fail "the same bandwidth is not within"
[ "$(bin/tsv meta "$C/c.tsv" wall_ratio)" = 1.200 ] || fail "wall_ratio"
[ "$(bin/tsv meta "$C/c.tsv" wall_verdict)" = outside ] || fail "wall_verdict"
expect_exit 0 bin/fleet concurrent $H100 "$C/all" --alone-s 100 --all-s 114 --out "$C/c.tsv"
[ "$(bin/tsv meta "$C/c.tsv" wall_verdict)" = within ] || fail "1.14 x is not within 1.15 x"

# ---- devices: the GPUs of nvidia-smi -L that a --device names (what
# scripts/report.sh and reference.sh --device LIST|all measure)
L4=$(for k in 0 1 2 3; do echo "GPU $k: NVIDIA H100 80GB HBM3 (UUID: GPU-${k}0000000-0000-0000-0000-000000000000)"; done)
[ "$(bin/fleet devices all <<<"$L4" | paste -sd,)" = 0,1,2,3 ] || fail "devices all"
[ "$(bin/fleet devices 3,1 <<<"$L4" | paste -sd,)" = 3,1 ] || fail "devices 3,1"
[ "$(bin/fleet devices all <<<"GPU 0: NVIDIA H200 (UUID: GPU-1)" | paste -sd,)" = 0 ] || fail "devices all of one GPU"
expect_exit 1 bin/fleet devices 4 <<<"$L4";    expect_says "this host has no GPU 4 (nvidia-smi lists 0, 1, 2, 3)"
expect_exit 1 bin/fleet devices all </dev/null; expect_says "nvidia-smi lists no GPU"
expect_exit 2 bin/fleet devices 1-2 </dev/null; expect_says "'1-2' is not all, an ordinal or a list"
expect_exit 2 bin/fleet devices;               expect_says "devices takes one SPEC"
# reference.sh --device LIST refuses before it measures anything
mkdir -p "$TMP/smi"
printf '#!/usr/bin/env bash
case "$*" in *-L*) printf "%%s\\n" "GPU 0: A (UUID: x)" "GPU 1: A (UUID: y)" ;; esac\n' >"$TMP/smi/nvidia-smi"
chmod +x "$TMP/smi/nvidia-smi"
expect_exit 1 env PATH="$TMP/smi:$PATH" bash scripts/reference.sh "$TMP/refout" --device 0,5
expect_says "this host has no GPU 5 (nvidia-smi lists 0, 1)"
expect_exit 2 env PATH="$TMP/smi:$PATH" bash scripts/reference.sh "$TMP/refout" --device 0,,1
[ -z "$(ls -A "$TMP/refout")" ] || fail "reference.sh wrote into $TMP/refout for GPUs the host lacks"

# ---- the folder key
expect_exit 0 bin/fleet key $H100 --ordinal 3
uuid8=$(bin/tsv get $H100/device.tsv value --where key=device_uuid | sed 's/^GPU-//' | cut -c1-8)
[ "$OUTTXT" = "gpu3-$uuid8-nvidia-h100-80gb-hbm3" ] || fail "key of h100: $OUTTXT"
expect_exit 0 bin/fleet key $H200 --ordinal 3
uuid8=$(bin/tsv get $H200/device.tsv value --where key=device_uuid | sed 's/^GPU-//' | cut -c1-8)
[ "$OUTTXT" = "gpu3-$uuid8-nvidia-h200" ] || fail "key of h200: $OUTTXT"
# a folder without device.tsv: the name from the ladder, no UUID
mkdir -p "$TMP/nodev"
grep -v "^# device_uuid" $H200/latency_ca.tsv >"$TMP/nodev/latency_ca.tsv"
expect_exit 0 bin/fleet key "$TMP/nodev" --ordinal 3
[ "$OUTTXT" = gpu3-nouuid-nvidia-h200 ] || fail "key of a folder without device.tsv: $OUTTXT"
mkdir -p "$TMP/dev"
cp $H200/latency_ca.tsv "$TMP/dev/"
printf 'key\tvalue\ndevice_name\tNVIDIA H200\ndevice_uuid\tGPU-1ab6f806-59e0-1d99-da3f-a7d19c88934d\n' >"$TMP/dev/device.tsv"
expect_exit 0 bin/fleet key "$TMP/dev"
[ "$OUTTXT" = gpu0-1ab6f806-nvidia-h200 ] || fail "key with a UUID: $OUTTXT"

# ---- a replay task by hand (what Slurm runs), and its failure
RES=$TMP/results
expect_exit 0 env WARPLAT_ROOT="$ROOT" WARPLAT_FLEET_RESULTS="$RES" WARPLAT_FLEET_REPLAY="$ROOT/$H100:$ROOT/$H200" \
    SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_JOB_ID=77 SLURMD_NODENAME=nodex bash scripts/slurm/fleet_task.sh
[ -f "$RES/nodex-gpu1-$uuid8-nvidia-h200/latency_ca.tsv" ] || fail "the replay task did not publish: $(ls -a "$RES")"
cmp -s "$RES/nodex-gpu1-$uuid8-nvidia-h200/latency_ca.tsv" $H200/latency_ca.tsv || fail "the replay changed a file"
expect_exit 1 env WARPLAT_ROOT="$ROOT" WARPLAT_FLEET_RESULTS="$RES" WARPLAT_FLEET_REPLAY="$ROOT/$H100" \
    SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_JOB_ID=77 bash scripts/slurm/fleet_task.sh
expect_says "task 4 has no folder to replay"
[ -z "$(find "$RES" -maxdepth 1 -name '.task-*')" ] || fail "a failed task left its unfinished folder"

# ---- submit.sh without Slurm: --dry-run prints what it would submit
expect_exit 2 bash scripts/slurm/submit.sh --replay $H100;            expect_says "--results DIR is missing"
expect_exit 2 bash scripts/slurm/submit.sh --results "$TMP/r" --replay /nonexistent; expect_says "no such folder"
expect_exit 2 bash scripts/slurm/submit.sh --results "$TMP/r" --replay $H100 --tasks 3; expect_says "one task per folder"
expect_exit 2 bash scripts/slurm/submit.sh --results "$TMP/r" --per rack --tasks 2; expect_says "gpu or node"
expect_exit 0 bash scripts/slurm/submit.sh --dry-run --results "$TMP/r" --replay $H100 --replay $H200 --replay $H100 \
    -- --partition=gpu
expect_says "--array=0-2"
expect_says "--dependency=afterok:ARRAY"
expect_says "--partition=gpu"
expect_says "scripts/slurm/fleet_collect.sh"
expect_exit 0 bash scripts/slurm/submit.sh --dry-run --results "$TMP/r" --replay $H100 --collect-after any
expect_says "--dependency=afterany:ARRAY"
if [ -x ./readonly ] && [ -x ./latency ]; then
    expect_exit 0 bash scripts/slurm/submit.sh --dry-run --results "$TMP/r" --tasks 4 --per node --gpus-per-node 4
    expect_says "--exclusive --gres=gpu:4"
else
    expect_exit 1 bash scripts/slurm/submit.sh --dry-run --results "$TMP/r" --tasks 4
    expect_says "run make (with nvcc)"
fi
done_testing

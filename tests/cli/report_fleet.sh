#!/usr/bin/env bash
# tests/cli/report_fleet.sh - make report on a host with several GPUs,
# without a GPU: a stand-in nvidia-smi lists four H100s, a stand-in
# scripts/reference.sh writes one results folder per GPU as --device LIST
# would (copies of the bundled H100 set: GPU 1's read bandwidth 6.5 %
# below, GPU 3's DRAM latency 15 % above), and the real bin/fleet compares
# them.  Checks: which GPUs reference.sh was asked for (all, or the ones
# --device names), the fleet table on the first screen with its median,
# the flags and the rule of each, a drift table per GPU against the
# bundled H100, each GPU's log in logs/, the refusals of --device; and the
# report of a one-GPU host: the same page as --device 0, no fleet.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin bin/report bin/fleet bin/tsv bin/tsv_scale
H100=$ROOT/data/reference/h100
[ -d "$H100" ] || skip "no bundled H100 results"

# the stand-ins
smi4=$TMP/smi4 smi1=$TMP/smi1
{
    printf '#!/usr/bin/env bash\ncase "$*" in\n*-L*) '
    for k in 0 1 2 3; do printf 'echo "GPU %d: NVIDIA H100 80GB HBM3 (UUID: GPU-%d0000000-0000-0000-0000-000000000000)"; ' $k $k; done
    printf ';;\n*name*) echo "NVIDIA H100 80GB HBM3" ;;\nesac\n'
} >"$smi4"
printf '#!/usr/bin/env bash\ncase "$*" in *-L*) echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-0000-0000-000000000000)" ;; *name*) echo "NVIDIA H100 80GB HBM3" ;; esac\n' >"$smi1"
# reference.sh OUT --device D [--quick]: one GPU writes OUT; a list writes
# OUT/gpu<k>-<uuid8>-nvidia-h100-80gb-hbm3/ and OUT/<that>.log per GPU
cat >"$TMP/ref.sh" <<EOS
#!/usr/bin/env bash
echo "reference.sh \$*" >>"$TMP/calls"
out=\$1 dev=\$3
bw() {   # bw DIR F
    "$ROOT/bin/tsv_scale" "$H100/ceiling.tsv" --columns bw_GBps --factor \$2 --out "\$1/c.tsv" &&
        "$ROOT/bin/tsv_scale" "\$1/c.tsv" --columns kernel_ms --factor \$(awk -v f=\$2 'BEGIN { print 1 / f }') \
            --out "\$1/ceiling.tsv" && rm "\$1/c.tsv"
}
one() {   # one DIR K
    mkdir -p "\$1"
    # (not sectors_readonly.tsv: its model prediction takes seconds a GPU, and
    # the fleet page does not depend on it)
    tar -C "$H100" --exclude=./runlogs --exclude=./legacy --exclude=./examples --exclude=./sectors_readonly.tsv \
        -cf - . | tar -C "\$1" -xf -
    sed -e "s/^device_ordinal.*/device_ordinal\t\$2/" -e "s/^device_uuid.*/device_uuid\tGPU-\${2}0000000-0000-0000-0000-000000000000/" \
        "$H100/device.tsv" >"\$1/device.tsv"
    case \$2 in   # the read bandwidth x f, its time / f: the launches move the same bytes
        1) bw "\$1" 0.935 ;;
        2) bw "\$1" 1.02 ;;
        3) bw "\$1" 0.98
           "$ROOT/bin/tsv_scale" "$H100/latency_ca.tsv" --columns cycles_per_load,ns_per_load --factor 1.15 \
               --rows-from bytes=67108864 --out "\$1/latency_ca.tsv" ;;
    esac 2>/dev/null
}
case \$dev in
    *,*) for k in \${dev//,/ }; do key=gpu\$k-\${k}0000000-nvidia-h100-80gb-hbm3; one "\$out/\$key" \$k; echo "log of \$k" >"\$out/\$key.log"; done ;;
    *) one "\$out" \$dev ;;
esac
EOS
chmod +x "$smi4" "$smi1" "$TMP/ref.sh"
f1() { awk -v v="$1" 'BEGIN { printf "%.1f", v }'; }   # as C's %.1f writes it
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 0.001 && d > -0.001) }'; }
run_report() {   # run_report SMI OUT ARGS...: the GPU path with the stand-ins (no charts: faster)
    local smi=$1 out=$2; shift 2
    : >"$TMP/calls"
    NVIDIA_SMI=$smi READONLY=/bin/true REFERENCE_SCRIPT=$TMP/ref.sh NCU_SCRIPT=/nonexistent \
        expect_exit "$WANT" bash scripts/report.sh --no-charts --out "$out" "$@"
}

# ---- four GPUs, every one measured (no --device: all)
WANT=0 run_report "$smi4" "$TMP/r4" --quick
expect_says "measure GPUs 0,1,2,3 at once (scripts/reference.sh --device 0,1,2,3), then compare them (bin/fleet): done"
case $(cat "$TMP/calls") in
    "reference.sh $TMP/r4.new."??????"/data --device 0,1,2,3 --quick") ;;
    *) fail "reference.sh got: $(cat "$TMP/calls")" ;;
esac
D=$TMP/r4
K=nvidia-h100-80gb-hbm3
for k in 0 1 2 3; do
    [ -f "$D/data/gpu$k-${k}0000000-$K/ceiling.tsv" ] || fail "no folder of GPU $k"
    [ "$(cat "$D/logs/reference_gpu$k-${k}0000000-$K.log" 2>/dev/null)" = "log of $k" ] || fail "GPU $k's log is not in logs/"
done
ls "$D"/data/*.log >/dev/null 2>&1 && fail "a GPU's log was left in data/"
for f in fleet.tsv fleet_summary.tsv fleet_chart.tsv; do [ -s "$D/data/$f" ] || fail "no data/$f"; done
[ "$(bin/tsv get "$D/logs/steps.tsv" status --where "step=compare the GPUs (bin/fleet collect)")" = ok ] ||
    fail "the run log has no fleet step"
M=$TMP/flat.md
mdflat "$D/index.md" >"$M"
# the fleet table: first in "At a glance", one row per GPU, the median
glance=$(awk '/^## At a glance/ { on = 1; next } on && /^## / { exit } on' "$M")
first=$(printf '%s\n' "$glance" | grep -m1 '^### ')
[ "$first" = "### The fleet: 4 GPUs measured at once" ] || fail "the first screen does not open with the fleet: $first"
F=$D/data/fleet.tsv
base=$(bin/tsv get $H100/ceiling.tsv bw_GBps --where operation=read)
for k in 0 1 2 3; do
    g=gpu$k-${k}0000000-$K
    bw=$(bin/tsv get "$F" value --where gpu=$g --where figure=read_bw_GBps)
    close "$bw" "$(bin/tsv get "$D/data/$g/ceiling.tsv" bw_GBps --where operation=read)" || fail "$g: fleet.tsv's bandwidth $bw"
    printf '%s\n' "$glance" | grep -q "^| $g | .*$(f1 "$bw")" || fail "no fleet row of $g with $bw GB/s"
done
med=$(bin/tsv get "$F" median --where gpu=gpu0-00000000-$K --where figure=read_bw_GBps)
# median of 1.00, 0.935, 1.02, 0.98 x base: (0.98 + 1.00) / 2 x base
awk -v m="$med" -v b="$base" 'BEGIN { d = m - 0.99 * b; exit !(d < 0.1 && d > -0.1) }' || fail "median $med, not 0.99 x $base"
printf '%s\n' "$glance" | grep -q "^| median |.* $(f1 "$med") |" || fail "no median row with $med"
# the flags and their rules: GPU 1's bandwidth by the 5 % rule alone (-5.6 %,
# -2.75 MADs), GPU 3's DRAM latency by the MADs (and not its bandwidth, -1 %)
[ "$(bin/tsv get "$F" rule --where gpu=gpu1-10000000-$K --where figure=read_bw_GBps)" = pct_below_median ] || fail "GPU 1's rule"
[ "$(bin/tsv get "$F" rule --where gpu=gpu3-30000000-$K --where figure=dram_lat_cycles)" = mad ] || fail "GPU 3's rule"
[ "$(bin/tsv get "$F" flagged --where gpu=gpu3-30000000-$K --where figure=read_bw_GBps)" = 0 ] || fail "GPU 3's bandwidth flagged"
bw1=$(bin/tsv get "$F" value --where gpu=gpu1-10000000-$K --where figure=read_bw_GBps)
pct1=$(bin/tsv get "$F" pct_from_median --where gpu=gpu1-10000000-$K --where figure=read_bw_GBps)
awk -v p="$pct1" 'BEGIN { exit !(p < -5.5 && p > -5.62) }' || fail "GPU 1 is $pct1 % from the median, expected -5.56"
grep -qF "> Flagged: gpu1-10000000-$K, read_bw_GBps $bw1 GB/s against the median $med ($(awk -v p="$pct1" 'BEGIN { printf "%+.2f", p }')%, " "$M" ||
    fail "the first screen does not name GPU 1's flag: $(grep -m2 'Flagged' "$M")"
grep -q "> Flagged: gpu1-10000000-$K, read_bw_GBps .*: rule pct_below_median\.$" "$M" || fail "GPU 1's flag does not name its rule"
grep -q "> Flagged: gpu3-30000000-$K, dram_lat_cycles .*: rule mad\.$" "$M" || fail "GPU 3's flag does not name its rule"
printf '%s\n' "$glance" | grep -q "^| gpu1-10000000-$K | .*$(f1 "$bw1") (flagged: pct_below_median)" ||
    fail "GPU 1's cell is not marked with its rule"
[ "$(printf '%s\n' "$glance" | grep -c '^> Flagged:')" -eq 3 ] || fail "not 3 flags (GPU 1's bandwidth, GPU 3's DRAM cycles and ns)"
# a drift table per GPU against the bundled H100: GPU 1's bandwidth outside 5 %
for k in 0 1 2 3; do
    grep -q "^### Drift of gpu$k-${k}0000000-$K against the bundled .*data/reference/h100$" "$M" || fail "no drift table of GPU $k"
    [ -f "$D/tables/drift_gpu$k-${k}0000000-$K.tsv" ] || fail "no drift TSV of GPU $k"
done
[ "$(bin/tsv get "$D/tables/drift_gpu1-10000000-$K.tsv" verdict --where figure=read_bw_GBps)" = outside ] || fail "GPU 1's drift"
[ "$(bin/tsv get "$D/tables/drift_gpu0-00000000-$K.tsv" verdict --where figure=read_bw_GBps)" = within ] || fail "GPU 0's drift"
grep -q "^\*\*This report shows the study run on this machine's .*devices 0,1,2,3 (4 GPUs at once), --quick (shorter runs)" "$M" ||
    fail "the top does not name the GPUs: $(sed -n 3p "$M")"

# ---- the GPUs --device names; two of a model are not judged
WANT=0 run_report "$smi4" "$TMP/r2" --device 3,1
case $(cat "$TMP/calls") in "reference.sh $TMP/r2.new."??????"/data --device 3,1") ;; *) fail "--device 3,1: $(cat "$TMP/calls")" ;; esac
[ "$(ls -d "$TMP"/r2/data/gpu*/ | wc -l)" -eq 2 ] || fail "--device 3,1 did not give two folders"
grep -q "> NVIDIA H100 80GB HBM3: not judged (2 GPUs of this model with this figure, the rule needs 3)\." "$TMP/r2/index.md" ||
    fail "two GPUs are not said to be not judged"
# one GPU of several: the run of one GPU, into data/<name>
WANT=0 run_report "$smi4" "$TMP/r1" --device 2
case $(cat "$TMP/calls") in "reference.sh $TMP/r1.new."??????"/data/nvidia_h100_80gb_hbm3 --device 2") ;; *) fail "--device 2: $(cat "$TMP/calls")" ;; esac
[ -e "$TMP/r1/data/fleet.tsv" ] && fail "one GPU got a fleet table"
# refused: a GPU the host lacks (after the build), a form that is no list
WANT=2 run_report "$smi4" "$TMP/bad" --device 0,7
expect_says "this host has no GPU 7 (nvidia-smi lists 0, 1, 2, 3)"
[ -s "$TMP/calls" ] && fail "reference.sh ran for a GPU the host lacks"
WANT=2 run_report "$smi4" "$TMP/bad" --device 1-2
expect_says "--device must be a GPU ordinal (0, 1, ...), a list (0,2) or all, not '1-2'"

# ---- one GPU on the host: no --device is --device 0, as it always was
WANT=0 run_report "$smi1" "$TMP/one"
case $(cat "$TMP/calls") in "reference.sh $TMP/one.new."??????"/data/nvidia_h100_80gb_hbm3 --device 0") ;; *) fail "one GPU: $(cat "$TMP/calls")" ;; esac
WANT=0 run_report "$smi1" "$TMP/zero" --device 0
[ -e "$TMP/one/data/fleet.tsv" ] && fail "a one-GPU host got a fleet table"
grep -q "The fleet" "$TMP/one/index.md" && fail "a one-GPU report shows a fleet"
# the same page, timings aside (the run log's seconds)
mask() { sed -E -e '/^\| .* \| (ok|failed|[0-9]+ failed) \| [0-9.]+ \|$/s/[0-9.]+ \|$/T |/' \
                -e 's/The run took [0-9.]+ s/The run took T s/' -e "s#$TMP/(one|zero)#OUT#g" "$1"; }
diff <(mask "$TMP/one/index.md") <(mask "$TMP/zero/index.md") >"$TMP/one.diff" ||
    fail "a one-GPU host's report differs from --device 0's: $(head -n 20 "$TMP/one.diff")"
grep -q "devices\|at once" "$TMP/one/index.md" && fail "a one-GPU report speaks of several GPUs"
grep -q "^\*\*This report shows the study run on this machine's NVIDIA H100 80GB HBM3, measured [0-9-]*, device 0\.\*\*" "$TMP/one/index.md" ||
    fail "a one-GPU report's top: $(sed -n 3p "$TMP/one/index.md")"
done_testing

#!/usr/bin/env bash
# Device run: the reference occupancy sweeps of docs/occupancy.md on the H100.
#
#   bash devruns/sweeps.sh          the five sweeps below (about 5 minutes)
#   bash devruns/sweeps.sh ncu      readonly_baseline, WPB 4, again with --ncu
#                                   (Nsight Compute at every point; 2-3 minutes)
#
# Run from the repository root.  Writes into data/reference/h100/:
#   readonly_{baseline,float4,nondiverging,random_access}_4.{txt,svg,png,gp,dat}
#   readonly_baseline_8.{txt,svg,png,gp,dat}
#   sweeps_wall_s.tsv         the wall time of each sweep (the bar: < 120 s for
#                             one kernel at WPB 4)
#   occupancy_ncu/readonly_baseline_4.*   (the "ncu" run)
# and copies them, with the console log, to $OUT (default /tmp/out) as
# sweeps.tgz.  Each sweep has its own timeout, and a sweep that would start
# after SWEEP_BUDGET_S seconds (default 480; the device allows 600 per
# command) is skipped and said so, so that the rest can be run again.
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O"
MODE=${1:-all}
exec > >(tee "$O/sweeps_log_$MODE.txt") 2>&1
T0=$SECONDS
BUDGET=${SWEEP_BUDGET_S:-480}
D=${REF_DIR:-data/reference/h100}
mkdir -p "$D"

make -j16 readonly readonly_profile tools 2>&1 | grep -E 'error|Error|skipped'
[ -x ./readonly ] && [ -x ./readonly_profile ] || { echo "build failed"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
command -v ncu >/dev/null || export PATH=$PATH:/usr/local/cuda/bin
./readonly --list-occupancy 1e8 0 4
./readonly --list-occupancy 1e8 0 8

# The unloaded DRAM latency for the charts: the L1-cached ladder of final_a.sh
# (the readonly kernels load through L1), if it is here.
LADDER=()
if [ -f "$D/latency_ca.tsv" ] && bin/plot_ladder "$D/latency_ca.tsv" --dram-latency; then
    LADDER=(--ladder "$D/latency_ca.tsv")
fi

WALL=$D/sweeps_wall_s.tsv
[ -f "$WALL" ] || printf 'kernel\twpb\toptions\texit\twall_s\n' >"$WALL"
# sweep KERNEL WPB OUTDIR [options...]: one sweep, N = 1e8, twin --reps 10
sweep() {
    local k=$1 w=$2 dir=$3; shift 3
    if [ $((SECONDS - T0)) -gt "$BUDGET" ]; then
        echo "== SKIPPED $k WPB $w $* (time budget: $((SECONDS - T0)) s used); run it again"
        return
    fi
    local t=$SECONDS
    echo "== sweep $k WPB $w${*:+ $*}"
    timeout 280 scripts/occupancy_profile.sh "$k" "$w" --n 1e8 --reps 10 --out "$dir" \
        ${LADDER[@]+"${LADDER[@]}"} "$@"
    local rc=$?
    local dt=$((SECONDS - t))
    echo "== wall $k WPB $w${*:+ $*}: $dt s (exit $rc)"
    printf '%s\t%s\t%s\t%s\t%s\n' "$k" "$w" "${*:--}" "$rc" "$dt" >>"$WALL"
    [ -f "$dir/${k}_$w.txt" ] && grep -v '^#' "$dir/${k}_$w.txt" | cut -f2,3,8,11,13,14,17
}

case $MODE in
    all)
        sweep readonly_baseline 4 "$D"
        sweep readonly_float4 4 "$D"
        sweep readonly_nondiverging 4 "$D"
        sweep readonly_random_access 4 "$D"
        sweep readonly_baseline 8 "$D"
        FILES=("$D"/readonly_*_[48].{txt,svg,png,gp,dat} "$WALL") ;;
    ncu)
        mkdir -p "$D/occupancy_ncu"
        sweep readonly_baseline 4 "$D/occupancy_ncu" --ncu
        FILES=("$D"/occupancy_ncu "$WALL") ;;
    *) echo "usage: bash devruns/sweeps.sh [all|ncu]"; exit 2 ;;
esac
cat "$WALL"
echo "total $((SECONDS - T0)) s"
KEEP=(); for f in "${FILES[@]}"; do [ -e "$f" ] && KEEP+=("$f"); done
tar czf "$O/sweeps_$MODE.tgz" "${KEEP[@]}"

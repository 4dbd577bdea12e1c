#!/usr/bin/env bash
# scripts/occupancy_profile.sh - occupancy sweep of one kernel: throughput
# and loaded latency at every number of resident blocks per SM, against the
# Little's-law bound, and its chart (docs/occupancy.md).
#
#   scripts/occupancy_profile.sh KERNEL WPB [options]
#   scripts/occupancy_profile.sh readonly_baseline 4
#
#   KERNEL          <family>_<variant> (readonly_float4) or a readonly variant
#                   (float4); ./<family> --list-kernels lists the variants
#   WPB             warps per block
#   --n N           elements (default 1e8)
#   --reps R        timed launches per point (default 10)
#   --points LIST   only these resident-blocks-per-SM values: 1,2,4 or 1-4,8
#   --ladder TSV    a latency ladder (./latency): the table records its DRAM
#                   plateau and the chart draws the bound at it
#   --sample K      record one block in K at each point (default 1: every
#                   block, which the in-flight columns need: warps measured in
#                   flight, the slot period, Little's law closed with them;
#                   auto: the engine's choice, and those columns are nan)
#   --ncu           also profile the clean twin at each point with Nsight
#                   Compute: achieved occupancy and DRAM read bandwidth
#   --device D      CUDA device ordinal (default 0)
#   --out DIR       where the results go (default data)
#   --keep-logs DIR keep each point's log (<family>_<variant>_<WPB>_b<B>.bin)
#   -h, --help      this text
#
# Writes DIR/sweep_<family>_<variant>_<WPB>.tsv (bin/names sweep) and its
# chart DIR/sweep_<family>_<variant>_<WPB>.svg (bin/plot_throughput, with its
# .gp and .dat).  The sweep itself, the bound and the closure error are the
# experiment's own (./<family> N 0 WPB --kernel V --sweep, in C); with --ncu,
# bin/sweep_ncu puts ncu's numbers into the table.  This script only
# sequences.  Progress: the experiment's line per point on stderr, and a line
# when each step starts and ends.  Programs can be replaced (the tests do):
# WARPLAT_EXPERIMENT (./<family>), WARPLAT_PROFILE (./<family>_profile),
# WARPLAT_NCU (ncu).  Exit status: 0 done, 1 runtime failure (no table
# written), 2 usage error.
set -uo pipefail
PROG=occupancy_profile.sh
CALLER_PWD=$PWD
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -uo/p' "$0" | sed -e '/^set -uo/d' -e 's/^# \{0,1\}//'; }
usage_error() { echo "$PROG: $*" >&2; echo "Try 'scripts/$PROG --help'." >&2; exit 2; }
die() { echo "$PROG: $*" >&2; exit 1; }
abspath() { case $1 in ''|/*) printf '%s' "$1" ;; *) printf '%s/%s' "$CALLER_PWD" "$1" ;; esac; }

N=1e8 REPS="" SAMPLE=1 POINTS="" LADDER="" NCU_ON=0 DEVICE="" OUTDIR=data KEEP="" pos=()
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --ncu) NCU_ON=1; shift ;;
        --n|--reps|--sample|--points|--ladder|--device|--out|--keep-logs)
            [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
            case $1 in
                --n) N=$2 ;; --reps) REPS=$2 ;; --sample) SAMPLE=$2 ;; --points) POINTS=$2 ;; --ladder) LADDER=$2 ;;
                --device) DEVICE=$2 ;; --out) OUTDIR=$2 ;; --keep-logs) KEEP=$2 ;;
            esac
            shift 2 ;;
        -?*) usage_error "unknown option '$1'" ;;
        *) pos+=("$1"); shift ;;
    esac
done
[ ${#pos[@]} -eq 2 ] || usage_error "expected KERNEL WPB (e.g. readonly_baseline 4), got ${#pos[@]} argument(s)"
KERNEL=${pos[0]} WPB=${pos[1]}
OUTDIR=$(abspath "$OUTDIR") KEEP=$(abspath "$KEEP") LADDER=$(abspath "$LADDER")

# <family>_<variant>, or a variant of readonly
FAM=${KERNEL%%_*} V=${KERNEL#*_}
if [ "$FAM" = "$KERNEL" ] || { [ ! -f "src/families/$FAM/$FAM.cu" ] && [ -z "${WARPLAT_EXPERIMENT:-}" ]; }; then
    FAM=readonly V=$KERNEL
fi
EXP=${WARPLAT_EXPERIMENT:-./$FAM}
PROFILE=${WARPLAT_PROFILE:-./${FAM}_profile}
NCU=${WARPLAT_NCU:-ncu}
[ -x "$EXP" ] || die "$EXP is missing: run make first"
[ -x bin/names ] && [ -x bin/plot_throughput ] && [ -x bin/sweep_ncu ] || make -s tools >&2 ||
    die "could not build bin/ (make tools)"
# the variants come from the program, never from a list here
"$EXP" --list-kernels 2>/dev/null | cut -f1 | grep -qxF -- "$V" ||
    usage_error "unknown kernel '$KERNEL': $FAM's variants are $("$EXP" --list-kernels 2>/dev/null | cut -f1 | paste -sd' ' -)"
NAME=$(bin/names sweep "$FAM" "$V" "$WPB") || usage_error "WPB must be a number of warps per block, 1..32 (got '$WPB')"

mkdir -p "$OUTDIR" && [ -w "$OUTDIR" ] || die "cannot write to --out $OUTDIR"
TABLE=$OUTDIR/$NAME
CHART=${TABLE%.tsv}.svg
WORK=$(mktemp -d "${TMPDIR:-/tmp}/occupancy_profile.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$WORK"' EXIT
LOGS=$WORK/logs
if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && [ -w "$KEEP" ] || die "cannot write to --keep-logs $KEEP"; LOGS=$KEEP; fi

now_us() { local t=${EPOCHREALTIME/[.,]/}; printf '%s' "$((10#$t))"; }
secs() { local d=$(( ($(now_us) - $1) / 100000 )); printf '%d.%d s' $((d / 10)) $((d % 10)); }
T0=$(now_us)
say() { echo "$PROG: $*" >&2; }

# ---- 1. the sweep: every point, the bound and the closure error, in C
args=("$N" 0 "$WPB" --kernel "$V" --sweep --sample "$SAMPLE" --out "$LOGS" --table "$TABLE")
[ -n "$REPS" ] && args+=(--reps "$REPS")
[ -n "$POINTS" ] && args+=(--points "$POINTS")
[ -n "$LADDER" ] && args+=(--ladder "$LADDER")
[ -n "$DEVICE" ] && args+=(--device "$DEVICE")
say "sweep of $FAM $V at WPB $WPB (N $N) ..."
"$EXP" "${args[@]}"
rc=$?
[ $rc -eq 0 ] || { say "the sweep failed (exit $rc); no table written"; exit $(( rc == 2 ? 2 : 1 )); }
[ -s "$TABLE" ] || die "$EXP wrote no $TABLE"
say "sweep done ($(secs "$T0")): $TABLE"

# ---- 2. optionally, what Nsight Compute sees at each point
if [ $NCU_ON = 1 ]; then
    t0=$(now_us)
    METRICS=sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum.per_second
    note="not found: $NCU"
    if ! command -v "$NCU" >/dev/null 2>&1; then
        say "--ncu: '$NCU' (Nsight Compute) is not on PATH: achieved_occupancy_pct and dram_read_GBps stay nan (add /usr/local/cuda/bin to PATH, or set WARPLAT_NCU)"
    elif [ ! -x "$PROFILE" ]; then
        note="not run: $PROFILE is missing"
        say "--ncu: $PROFILE is missing (make): no ncu values"
    else
        note=$NCU
        mkdir -p "$WORK/ncu"
        dev=()
        [ -n "$DEVICE" ] && dev=(--device "$DEVICE")
        i=0
        while IFS=$'\t' read -r b smem; do
            i=$((i + 1))
            say "--ncu: point $i, $b blocks/SM (SMEM $smem) ..."
            "$NCU" --csv --log-file "$WORK/ncu/b$b.csv" --print-units base --clock-control none \
                --kernel-name "${FAM}_$V" --metrics "$METRICS" \
                "$PROFILE" "$N" "$smem" "$WPB" --kernel "$V" --reps 1 --warmup 0 "${dev[@]}" \
                >"$WORK/ncu/b$b.out" 2>&1 || say "--ncu: ncu exited $? at $b blocks/SM"
            if grep -qs ERR_NVGPUCTRPERM "$WORK/ncu/b$b.csv" "$WORK/ncu/b$b.out"; then
                note="no counter permission (ERR_NVGPUCTRPERM)"
                say "--ncu: ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM): no ncu values (run as root, or see https://developer.nvidia.com/ERR_NVGPUCTRPERM)"
                break
            fi
        done < <(paste <(bin/tsv get "$TABLE" blocks_per_sm) <(bin/tsv get "$TABLE" smem_bytes))
    fi
    bin/sweep_ncu "$TABLE" --csv-dir "$WORK/ncu" --kernel "${FAM}_$V" --note "$note" ||
        die "bin/sweep_ncu could not add the ncu values to $TABLE"
    say "--ncu done ($(secs "$t0"))"
fi

# ---- 3. the chart
if command -v gnuplot >/dev/null 2>&1; then
    lad=()
    [ -n "$LADDER" ] && lad=(--ladder "$LADDER")
    WARPLAT_LADDER="" bin/plot_throughput "$TABLE" "$CHART" "${lad[@]}" >&2 ||
        die "the sweep is in $TABLE, but bin/plot_throughput could not draw $CHART"
else
    CHART="no chart: gnuplot is not installed (scripts/ensure_deps.sh; then bin/plot_throughput $TABLE $CHART)"
fi
say "done in $(secs "$T0"): $TABLE, $CHART"
exit 0

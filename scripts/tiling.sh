#!/usr/bin/env bash
# scripts/tiling.sh - the tiling family's reference runs into OUTDIR:
#
#   scripts/tiling.sh OUTDIR [--device D] [--quick] [--ladder TSV] [--ncu-only]
#
# 1. naive against tiles of 8, 16 and 32 at DSIZE 8192 (the seed's size;
#    2048 with --quick), validated against the closed form C = 6 DSIZE:
#    tiling_8192_wpb4.tsv (each variant fixes its own block: T x T threads);
# 2. the same at DSIZE 1024, validated exactly against the CPU's multiply:
#    tiling_1024_wpb4.tsv;
# 3. with Nsight Compute (where ncu is installed), the bytes each kernel
#    moves at L1, L2 and DRAM, the L1 hit rate, achieved occupancy and time:
#    tiling_ncu_<DSIZE>.tsv and the raw log ncu/tiling_<DSIZE>.csv.
# --ncu-only: step 3 alone.  Exit status: 0 ok, 1 a run failed, 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
OUTDIR="" DEVICE=0 DSIZE=8192 NCU_ONLY=0
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --ncu-only) NCU_ONLY=1; shift ;;
        --quick) DSIZE=2048; shift ;;
        --device|--ladder)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "tiling.sh: $1 needs a value" >&2; exit 2; }
            [ "$1" = --device ] && DEVICE=$2
            shift 2 ;;
        -*) echo "tiling.sh: unknown option '$1'" >&2; exit 2 ;;
        *) [ -z "$OUTDIR" ] || { echo "tiling.sh: one OUTDIR only" >&2; exit 2; }; OUTDIR=$1; shift ;;
    esac
done
[ -n "$OUTDIR" ] || { echo "tiling.sh: OUTDIR is missing (see --help)" >&2; exit 2; }
[ -x ./tiling ] && [ -x ./tiling_profile ] || { echo "tiling.sh: ./tiling is missing: run make" >&2; exit 1; }
# --ncu-only without ncu would do nothing and succeed: say so instead
if [ $NCU_ONLY = 1 ] && ! command -v ncu >/dev/null 2>&1; then
    echo "tiling.sh: --ncu-only needs Nsight Compute, and ncu is not on PATH (add /usr/local/cuda/bin): nothing written" >&2
    exit 1
fi
mkdir -p "$OUTDIR/ncu"
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/warplat-tiling.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
say() { echo "tiling.sh: [${SECONDS}s] $*" >&2; }

if [ $NCU_ONLY = 0 ]; then
    # both in one process over a --batch-file (one CUDA start, about 0.2 s,
    # issue 37), its table split per line (batch_line) into the two tables
    say "DSIZE $DSIZE, then DSIZE 1024, exact (one process)"
    printf '%s --reps 5 --out %s\n' "$DSIZE" "$SCRATCH/logs_1" 1024 "$SCRATCH/logs_2" >"$SCRATCH/tiling.batch"
    rc=0
    ./tiling --batch-file "$SCRATCH/tiling.batch" --device "$DEVICE" --table "$SCRATCH/tiling.tsv" -q || rc=1
    if [ -f "$SCRATCH/tiling.tsv" ]; then
        bin/tsv split "$SCRATCH/tiling.tsv" batch_line "1=$OUTDIR/$(bin/names summary tiling "$DSIZE" 4)" \
            "2=$OUTDIR/$(bin/names summary tiling 1024 4)" || rc=1
    else
        rc=1
    fi
    [ $rc = 0 ] || { say "failed"; exit 1; }
fi
if command -v ncu >/dev/null 2>&1; then
    M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
    M=$M,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    M=$M,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
    say "Nsight Compute, DSIZE $DSIZE"
    ncu --csv --log-file "$SCRATCH/ncu.csv" --print-units base --clock-control none --cache-control all \
        --kernel-name 'regex:^tiling_(naive|tiled8|tiled16|tiled32)$' --metrics "$M" \
        ./tiling_profile "$DSIZE" --reps 1 --warmup 0 --device "$DEVICE" \
        --table "$SCRATCH/runs.tsv" >"$SCRATCH/ncu.out" 2>&1 || { tail -n 20 "$SCRATCH/ncu.out" >&2; exit 1; }
    bin/ncu_extract "$SCRATCH/ncu.csv" --metrics "$M" --kernel '^tiling_' >"$SCRATCH/ncu.tsv"
    cp "$SCRATCH/ncu.csv" "$OUTDIR/ncu/tiling_$DSIZE.csv.tmp" && mv "$OUTDIR/ncu/tiling_$DSIZE.csv.tmp" "$OUTDIR/ncu/tiling_$DSIZE.csv"
    T=$OUTDIR/$(bin/names ncu-table tiling "$DSIZE")
    cp "$SCRATCH/ncu.tsv" "$T.tmp" && mv "$T.tmp" "$T"
else
    say "ncu not found: no byte counts ($(bin/names ncu-table tiling "$DSIZE") not written)"
fi
say "done"

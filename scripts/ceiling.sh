#!/usr/bin/env bash
# scripts/ceiling.sh - the achievable DRAM bandwidth of this GPU, searched in
# two steps, into OUTDIR/ceiling.tsv (and the searches' tables beside it).
#
#   scripts/ceiling.sh OUTDIR [--ladder TSV] [--device D] [--n N] [--quick]
#
# Step 1: every operation (read, write, copy, triad, dot) over access width
# (8, 16 B), accesses in flight per thread (1, 4, 16), cache hint (plain,
# streaming, read-only with L2 prefetch) and the grid (a grid-stride loop
# over the resident blocks, or one pass), at 8 warps per block; and
# cudaMemcpy.  Step 2: each operation's best over warps per block (4, 16, 32)
# and, for grid-stride loops, grid size (1, 2, 4 blocks per SM or all), in
# one process over OUTDIR/ceiling_search/step2.batch.
# bin/ceiling picks the best row of each operation over both steps and, with
# --ladder (the latency ladder, ./latency), the bytes in flight per SM that
# Little's law needs for it.  Every configuration is validated.  Progress:
# one line per configuration from ./ceiling, one per step from here.
# Exit status: 0 ok, 1 a step failed, 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
OUTDIR="" LADDER=() DEVICE=0 N=512M
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --quick) N=64M; shift ;;
        --ladder|--device|--n)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "ceiling.sh: $1 needs a value" >&2; exit 2; }
            case $1 in --ladder) LADDER=(--ladder "$2") ;; --device) DEVICE=$2 ;; --n) N=$2 ;; esac
            shift 2 ;;
        -*) echo "ceiling.sh: unknown option '$1'" >&2; exit 2 ;;
        *) [ -z "$OUTDIR" ] || { echo "ceiling.sh: one OUTDIR only" >&2; exit 2; }; OUTDIR=$1; shift ;;
    esac
done
[ -n "$OUTDIR" ] || { echo "ceiling.sh: OUTDIR is missing (see --help)" >&2; exit 2; }
[ -x ./ceiling ] && [ -x bin/ceiling ] || { echo "ceiling.sh: ./ceiling or bin/ceiling missing: run make" >&2; exit 1; }
mkdir -p "$OUTDIR/ceiling_search"
S=$OUTDIR/ceiling_search
say() { echo "ceiling.sh: [${SECONDS}s] $*" >&2; }

say "step 1: every width, unroll and hint at WPB 8"
./ceiling --n "$N" --wpb 8 --device "$DEVICE" --table "$S/step1.tsv"
# step 2 in one process (--batch-file: one device start, the validation
# buffers kept), one line per operation and WPB, every row in step2.tsv
rm -f "$S"/step2_*.tsv
bin/ceiling next "$S/step1.tsv" >"$S/next.tsv"
while IFS=$'\t' read -r op args; do
    for w in 4 16 32; do echo "--n $N --kernel $op $args --grid 1,2,4,0 --wpb $w"; done
done <"$S/next.tsv" >"$S/step2.batch"
say "step 2: each operation's best at WPB 4, 16, 32 ($S/step2.batch)"
./ceiling --batch-file "$S/step2.batch" --device "$DEVICE" --table "$S/step2.tsv" -q
rm -f "$S/next.tsv"
tables=("$S/step1.tsv" "$S/step2.tsv")
bin/ceiling best "${LADDER[@]}" --out "$OUTDIR/ceiling.tsv" "${tables[@]}"
say "done: $OUTDIR/ceiling.tsv"

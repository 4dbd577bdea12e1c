#!/usr/bin/env bash
# scripts/stencil.sh - the stencil family's reference runs into OUTDIR:
#
#   scripts/stencil.sh OUTDIR [--device D] [--quick] [--ladder TSV]
#
# 1. every variant in the four layouts (lead padding off/on, leading
#    dimension padded off/on) at N0 x N1 = 1024 x 97656 (about 1e8 floats):
#    stencil_1024x97656_wpb4.tsv;
# 2. the size sweep: bandwidth against N0 = 32 ... 8192 with N1 such that the
#    arrays hold about 1e8 floats (1e7 with --quick; N1 = floor(total / N0),
#    the sizes are listed in this script), deriv_copy, deriv0 and deriv1 in the four
#    layouts: stencil_<N0>x<N1>_wpb4.tsv each.  The size of step 1 is not run
#    again: its table holds those variants already, and rewriting it would
#    lose the others (deriv0_halo, the halo probe).
# The over-fetch of each layout is the sector model's (bin/sector_model); the
# lab's small cases are measured with Nsight Compute by scripts/ncu_profile.sh.
# Exit status: 0 ok, 1 a run failed, 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
OUTDIR="" DEVICE=0 QUICK=0
SIZES="32x3125000 64x1562500 128x781250 256x390625 512x195312 1024x97656 2048x48828 4096x24414 8192x12207"
SIZES_QUICK="32x312500 64x156250 128x78125 256x39062 512x19531 1024x9765 2048x4882 4096x2441 8192x1220"
MAIN=1024x97656
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --quick) QUICK=1; SIZES=$SIZES_QUICK; shift ;;
        --device|--ladder)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "stencil.sh: $1 needs a value" >&2; exit 2; }
            [ "$1" = --device ] && DEVICE=$2
            shift 2 ;;
        -*) echo "stencil.sh: unknown option '$1'" >&2; exit 2 ;;
        *) [ -z "$OUTDIR" ] || { echo "stencil.sh: one OUTDIR only" >&2; exit 2; }; OUTDIR=$1; shift ;;
    esac
done
[ -n "$OUTDIR" ] || { echo "stencil.sh: OUTDIR is missing (see --help)" >&2; exit 2; }
[ -x ./stencil ] || { echo "stencil.sh: ./stencil is missing: run make" >&2; exit 1; }
mkdir -p "$OUTDIR"
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/warplat-stencil.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
say() { echo "stencil.sh: [${SECONDS}s] $*" >&2; }

# every run in one process over a --batch-file, a line per table with its
# own --out; its table split per line (the column batch_line: the line's
# number) into the tables above.  As a process each, the ten were 8 s of the
# quick run on the H200 (issue 37): a size of the sweep ran 0.35 s after its
# 0.2 s start, and the process lasted about 1 s; a line pays no start or exit
B=$SCRATCH/stencil.batch ln=1
split=("1=$OUTDIR/$(bin/names summary stencil "$MAIN" 4)")
echo "${MAIN%x*} ${MAIN#*x} --all-layouts --out $SCRATCH/logs_1" >"$B"
for size in $SIZES; do
    [ "$size" = "$MAIN" ] && continue
    ln=$((ln + 1))
    echo "${size%x*} ${size#*x} --kernel deriv_copy,deriv0,deriv1 --all-layouts --reps 5 --out $SCRATCH/logs_$ln" >>"$B"
    split+=("$ln=$OUTDIR/$(bin/names summary stencil "$size" 4)")
done
say "every variant, four layouts, ${MAIN/x/ x }; the size sweep: ${SIZES//x/ x } ($ln runs, one process)"
rc=0
./stencil --batch-file "$B" --device "$DEVICE" --table "$SCRATCH/stencil.tsv" -q || rc=1
# the tables of the runs that ran, also when one failed (as before, when each was a process)
if [ -f "$SCRATCH/stencil.tsv" ]; then
    bin/tsv split "$SCRATCH/stencil.tsv" batch_line "${split[@]}" || rc=1
else
    rc=1
fi
[ $rc = 0 ] || { say "failed"; exit 1; }
say "done"

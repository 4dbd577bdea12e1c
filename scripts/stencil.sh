#!/usr/bin/env bash
# scripts/stencil.sh - the stencil family's reference runs into OUTDIR:
#
#   scripts/stencil.sh OUTDIR [--device D] [--quick] [--ladder TSV]
#
# 1. every variant in the four layouts (lead padding off/on, leading
#    dimension padded off/on) at N0 x N1 = 1024 x 97656 (about 1e8 floats):
#    stencil_1024x97656_wpb4.tsv;
# 2. the size sweep: bandwidth against N0 = 32 ... 8192 with N1 chosen so the
#    arrays hold about 1e8 floats (1e7 with --quick), deriv_copy, deriv0 and
#    deriv1 in the four layouts: stencil_<N0>x<N1>_wpb4.tsv each; the size of
#    step 1 is not run again (its table, with deriv0_halo, is that point).
# The over-fetch of each layout is the sector model's (bin/sector_model); the
# lab's small cases are measured with Nsight Compute by scripts/ncu_profile.sh.
# Exit status: 0 ok, 1 a run failed, 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
OUTDIR="" DEVICE=0 TOTAL=100000000 QUICK=0
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --quick) QUICK=1; TOTAL=10000000; shift ;;
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

say "every variant, four layouts, 1024 x 97656"
./stencil 1024 97656 --all-layouts --device "$DEVICE" --out "$SCRATCH/logs" \
    --table "$OUTDIR/$(bin/names summary stencil 1024x97656 4)" -q
for n0 in 32 64 128 256 512 1024 2048 4096 8192; do
    n1=$((TOTAL / n0))
    # step 1 wrote this size's table with every variant: keep it
    [ "${n0}x$n1" = 1024x97656 ] && continue
    say "size sweep: $n0 x $n1"
    ./stencil "$n0" "$n1" --kernel deriv_copy,deriv0,deriv1 --all-layouts --reps 5 --device "$DEVICE" \
        --out "$SCRATCH/logs" --table "$OUTDIR/$(bin/names summary stencil "${n0}x$n1" 4)" -q
done
say "done"

#!/usr/bin/env bash
# scripts/slurm/fleet_collect.sh - the fleet's collect step: once every task
# of the job array has ended (scripts/slurm/submit.sh makes it depend on the
# array), compare every GPU's results folder under the shared results folder:
# RESULTS/fleet.tsv, fleet_summary.tsv, fleet_chart.tsv (bin/fleet collect),
# and RESULTS/fleet.svg where gnuplot is installed.  docs/fleet.md says how
# to read them.
#
# Environment: WARPLAT_ROOT (the checkout), WARPLAT_FLEET_RESULTS (the shared
# results folder), WARPLAT_FLEET_OPTIONS (more options for bin/fleet, e.g.
# --k 4).  Exit status: bin/fleet's (0 written, also with GPUs flagged).
#SBATCH --job-name=warplat-fleet-collect
#SBATCH --ntasks=1
set -euo pipefail

ROOT=${WARPLAT_ROOT:-${SLURM_SUBMIT_DIR:-}}
[ -n "$ROOT" ] && [ -d "$ROOT" ] || { echo "fleet_collect: WARPLAT_ROOT is not set" >&2; exit 1; }
cd "$ROOT"
RESULTS=${WARPLAT_FLEET_RESULTS:?fleet_collect: WARPLAT_FLEET_RESULTS is not set}
chart=()
command -v gnuplot >/dev/null 2>&1 && chart=(--chart "$RESULTS/fleet.svg")
# shellcheck disable=SC2206  # the options are words, as on a command line
opts=(${WARPLAT_FLEET_OPTIONS:-})
echo "fleet_collect: bin/fleet collect $RESULTS" >&2
exec bin/fleet collect "$RESULTS" --out "$RESULTS" "${chart[@]}" "${opts[@]}"

#!/usr/bin/env bash
# The H200 reference set (for reports that put two GPUs side by side): the
# readonly references, SASS, GPU tests, ladder and ncu tables of final_a.sh,
# then the occupancy sweeps, into data/reference/h200/.
set -u
export REF_DIR=data/reference/h200 SWEEP_BUDGET_S=${SWEEP_BUDGET_S:-330}
bash devruns/final_a.sh
bash devruns/sweeps.sh all

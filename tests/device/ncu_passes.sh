#!/usr/bin/env bash
# tests/device/ncu_passes.sh - how many replay passes each of the model's
# Nsight Compute metrics costs (issue 37: a profiled launch costs about 50 ms
# a pass, so the passes, not the kernels, set ncu's time).  Profiles one copy
# launch per metric set, without --csv (which hides ncu's "N passes"):
# every metric alone, every group left out, and the whole list.
#
#   OUT=/some/dir bash tests/device/ncu_passes.sh [sets]
#
# sets: only the whole list and the candidate sets that keep the judged
# metrics (the per-metric and per-group runs skipped).
#
# Writes $OUT/ncu_passes.txt: "SET passes N" per line.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-/tmp/warplat-ncu-passes}
mkdir -p "$OUT"
R=$OUT/ncu_passes.txt
W=$(mktemp -d)
export PATH=$PATH:/usr/local/cuda/bin
M=$(bin/sector_model --metrics copy)
passes() {   # passes NAME METRICS: one profiled launch, its pass count into $R
    ncu --clock-control none --cache-control all --kernel-name regex:copy_stride --launch-count 1 --metrics "$2" \
        ./copy_profile 1e7 0 4 --kernel stride --stride 1 --reps 1 --warmup 0 -q --table "$W/t.tsv" >"$W/p.out" 2>&1
    echo "$1 passes $(grep -o '[0-9]* pass[es]*' "$W/p.out" | head -n 1 | cut -d' ' -f1)" >>"$R"
}
: >"$R"
passes all "$M"
[ "${1:-}" = sets ] || for m in ${M//,/ }; do passes "only:$m" "$m"; done
[ "${1:-}" = sets ] || for g in wavefronts lookup_hit lts__t_requests lts__t_sectors dram__ _op_st op_write _op_ld op_read; do
    passes "without:$g" "$(printf '%s\n' ${M//,/ } | grep -v -- "$g" | paste -sd,)"
done
# sets that keep what the model judges (issue 37: "collect only the metrics
# the model judges"): NAME:REGEX of the metrics left out
for s in 'judged:wavefronts|st_lookup_hit|dram__sectors_write' \
         'judged+ld_wavefronts:wavefronts_pipe_lsu_mem_global_op_st|st_lookup_hit|dram__sectors_write' \
         'no_st_hit:st_lookup_hit' 'no_dram_write:dram__sectors_write' 'no_st_wavefronts:wavefronts_pipe_lsu_mem_global_op_st' \
         'no_st_hit_dram_write:st_lookup_hit|dram__sectors_write' 'no_wavefronts_st_hit:wavefronts|st_lookup_hit' \
         'no_st_hit_st_wavefronts:st_lookup_hit|wavefronts_pipe_lsu_mem_global_op_st'; do
    passes "set:${s%%:*}" "$(printf '%s\n' ${M//,/ } | grep -Ev -- "${s#*:}" | paste -sd,)"
done
rm -rf "$W"
cat "$R"

#!/usr/bin/env bash
# tests/golden/sector_families.sh - the sector model of the copy, patterns and
# stencil families (bin/sector_model --family, --lab, --list, --metrics) and
# bin/sector_compare --family on fixture ncu logs, diffed against
# tests/golden/sectors/; then checks that do not depend on the golden files:
# the disagreeing fixture rows are flagged, the others agree, the lab's
# figures sit beside their rows.
# Regenerate a golden file only after checking the new output by eye:
#   UPDATE_GOLDEN=1 bash tests/golden/sector_families.sh
source "$(dirname "$0")/../lib.sh"
for b in bin/sector_model bin/sector_compare bin/ncu_extract bin/tsv; do
    [ -x "$b" ] || skip "$b was not built (make tools)"
done
G=tests/golden/sectors
F=tests/fixtures/ncu
Q=$F/query_metrics_h100.txt

# extract FAMILY CSV [QUERY]: what scripts/ncu_profile.sh does between ncu and sector_compare
extract() {
    local m
    m=$(bin/sector_model --metrics "$1" --ncu-query "${3:-$Q}" 2>/dev/null) || { fail "--metrics $1"; return 1; }
    bin/ncu_extract "$2" --metrics "$m" --kernel "^$1_" >"$TMP/$1.ncu.tsv" || fail "ncu_extract $2"
}

# --- the model's tables
golden fam_copy_n65536.tsv bin/sector_model --family copy --n 65536
golden fam_patterns_n65536.md bin/sector_model --family patterns --n 65536 --markdown
golden fam_readonly_n100003.tsv bin/sector_model --family readonly --n 100003 --wpb 7
golden fam_stencil_32x5_lead.tsv bin/sector_model --family stencil --n0 32 --n1 5 --lead-pad
golden fam_stencil_32x32_r2.md bin/sector_model --family stencil --n0 32 --n1 32 --radius 2 \
    --lead-pad --pad-leading-dim --markdown
golden lab.md bin/sector_model --lab --markdown
golden list.tsv bin/sector_model --list
golden metrics_copy.txt bin/sector_model --metrics copy --ncu-query "$F/query_metrics_no_tstage.txt"

# --- predicted against the fixture logs (made from the model, a few rows altered)
extract copy "$F/copy_ncu.csv"
golden compare_copy.tsv bin/sector_compare --family copy --runs "$F/copy_runs.tsv" --ncu "$TMP/copy.ncu.tsv"
extract patterns "$F/patterns_ncu.csv"
golden compare_patterns.md bin/sector_compare --family patterns --runs "$F/patterns_runs.tsv" \
    --ncu "$TMP/patterns.ncu.tsv" --markdown
extract stencil "$F/stencil_32x2_ncu.csv" "$F/query_metrics_no_tstage.txt"
golden compare_stencil_32x2.tsv bin/sector_compare --family stencil --n0 32 --n1 2 \
    --runs "$F/stencil_32x2_runs.tsv" --ncu "$TMP/stencil.ncu.tsv"
extract stencil "$F/stencil_32x32_aligned_ncu.csv"
golden compare_stencil_32x32_aligned.md bin/sector_compare --family stencil --n0 32 --n1 32 \
    --lead-pad --pad-leading-dim --runs "$F/stencil_32x32_aligned_runs.tsv" --ncu "$TMP/stencil.ncu.tsv" --markdown
# the readonly measured table from a run's table and the real H100 log, and its
# comparison in the families' table
M=gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__sectors_read.sum
bin/ncu_extract "$F/h100_real_default.csv" --metrics "$M" >"$TMP/ro.ncu.tsv" || fail "ncu_extract (readonly)"
golden readonly_measured_1e7.tsv bin/sector_compare --family readonly --runs "$F/readonly_runs_1e7.tsv" \
    --ncu "$TMP/ro.ncu.tsv" --measured
golden compare_readonly_1e7.tsv bin/sector_compare --family readonly --runs "$F/readonly_runs_1e7.tsv" \
    --ncu "$TMP/ro.ncu.tsv"

# --- checks that do not depend on the golden files
T=$TMP/compare_copy.tsv
[ "$(bin/tsv get "$T" config --where agree=no | tr '\n' ' ')" = "stride=16 " ] ||
    fail "copy fixture: exactly stride=16 (DRAM +10 %) should disagree (wavefronts are shown, not judged)"
bin/tsv get "$T" note --where variant=stride --where config=stride=5 --where op=ld | grep -q "wavefronts not judged" ||
    fail "copy fixture: stride=5's wavefronts (+1) should be named in its note"
[ "$(bin/tsv get "$T" l1_sectors_meas --where config=stride=4 --where op=ld)" = 131072 ] ||
    fail "copy fixture: stride=4 loads 131072 sectors"
[ "$(bin/tsv get "$T" lab --where variant=stride --where config=stride=5 --where op=ld)" = \
  "sectors/request 20 [000]; wavefronts/request 2 [000]" ] || fail "copy: the lab's stride-5 figures"
T=$TMP/compare_stencil_32x2.tsv
[ "$(bin/tsv get "$T" lab_vs_model --where variant=deriv_copy --where op=ld)" = \
  "differs: L2 requests lab 3 [000], model 4" ] || fail "stencil 32x2: the lab's 3 L2 requests beside the model's 4"
[ "$(bin/tsv get "$T" wavefronts_meas --where variant=deriv0 --where op=ld)" = NA ] ||
    fail "stencil 32x2: this ncu has no tag-stage wavefronts: NA"
bin/tsv get "$T" note --where variant=deriv0 --where op=ld | grep -q "not measured: wavefronts" ||
    fail "stencil 32x2: the note should say the wavefronts were not measured"
! bin/tsv get "$T" agree --where agree=no >/dev/null 2>&1 || fail "stencil 32x2: every row agrees"
# hits are judged at the in-block point (B2: neighbouring blocks never shared
# an SM's L1 on the H100, 177 of 177 bracketed rows): the fixture's 4 extra
# hits of a neighbour are a mismatch, its bracket only shown
grep -q "^| deriv1 | n0=32,n1=32,r=1,lead=31,ld=64 | ld | 64 / 64 | 256 / 256 | 64 / 64 | 96..124 / 100 |.*\*\*no\*\* (l1_hits" \
    "$TMP/compare_stencil_32x32_aligned.md" ||
    fail "stencil 32x32: deriv1's 100 measured hits are 4 above the model's in-block 96"
grep -q "^| offset_ca | offset=1 | ld | .* | \*\*no\*\* (l1_sectors) |$" "$TMP/compare_patterns.md" ||
    fail "patterns fixture: offset=1 is one sector off and must be flagged"
grep -q "^1 of 20 rows disagree.$" "$TMP/compare_patterns.md" || fail "patterns fixture: 1 of 20 rows disagree"
T=$TMP/fam_copy_n65536.tsv
[ "$(bin/tsv get "$T" wavefronts --where variant=stride --where config=stride=16 --where op=ld)" = 512 ] ||
    fail "copy stride 16 at N = 65536: 128 requests of 4 wavefronts"
grep -q "000 | copy | stride | stride=5 | ld | wavefronts/request | 2 | 2 | agrees |" "$TMP/lab.md" ||
    fail "lab table: stride 5 in 2 wavefronts"
[ "$(grep -c 'agrees |$' "$TMP/lab.md")" = 64 ] || fail "lab table: 64 of the 73 lab figures agree with the H100 model (9 differ, each with its reason)"
# readonly's generators on the real H100 log: the counts are exact, baseline's
# DRAM too; strided stride 4 read 19 % less from DRAM than its 5e6 sectors
T=$TMP/compare_readonly_1e7.tsv
[ "$(bin/tsv get "$T" agree --where variant=baseline)" = yes ] || fail "readonly baseline at 1e7 agrees"
[ "$(bin/tsv get "$T" mismatch --where variant=strided --where config=stride=4)" = dram_sectors ] ||
    fail "readonly strided 4 at 1e7: only its DRAM sectors disagree"
[ "$(bin/tsv get "$T" l1_sectors_pred --where variant=strided)" = 5000000 ] || fail "readonly strided 4: 5e6 sectors"
T=$TMP/fam_readonly_n100003.tsv
[ "$(bin/tsv get "$T" l1_requests --where variant=float4)" = 784 ] ||
    fail "readonly float4 at N = 100003: 25000 items in 112 blocks of 224 threads, 784 warps"
[ "$(bin/tsv get "$T" l1_requests --where variant=random_access)" = 6258 ] ||
    fail "readonly random_access at N = 100003: 447 blocks of 7 warps (a tail of clamped threads), 2 loads each: 6258"
# the readonly measured table is the input sector_compare reads
expect_exit 0 bin/sector_compare "$TMP/readonly_measured_1e7.tsv" --n 1e7
expect_says "1 of 2 rows disagree"
done_testing

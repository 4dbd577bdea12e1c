#!/usr/bin/env bash
# tests/cli/sector_tools.sh - bin/sector_model and bin/sector_compare refuse
# bad options with exit 2 and a sentence (numbers that overflow or wrap, NaN,
# Inf, a chart extension gnuplot cannot write, options of the wrong mode),
# fail with exit 1 on runtime errors, check every write, and leave no partial
# file behind (issue 12 item 5).
source "$(dirname "$0")/../lib.sh"
require_bin bin/sector_model bin/sector_compare
F=tests/fixtures/ncu
M=$F/measured_h100_1e7.tsv

# --- sector_model: numbers
expect_exit 2 bin/sector_model --dram-granularity 4294967360   # wrapped to 64 as unsigned before
expect_says "--dram-granularity must be between 32 and 128"
expect_exit 2 bin/sector_model --dram-granularity 96;  expect_says "32, 64 or 128"
expect_exit 2 bin/sector_model --n nan;                expect_says "--n is not a number"
expect_exit 2 bin/sector_model --n inf;                expect_says "--n is not a number"
expect_exit 2 bin/sector_model --n 1e400;              expect_says "--n is too large"
expect_exit 2 bin/sector_model --n 2.5;                expect_says "whole number"
expect_exit 2 bin/sector_model --n -3;                 expect_says "--n"
expect_exit 2 bin/sector_model --l2-bytes 0;           expect_says "--l2-bytes must be at least 1"
expect_exit 2 bin/sector_model --seed 18446744073709551616; expect_says "--seed is too large"
expect_exit 2 bin/sector_model --reuse all;            expect_says "unknown option '--reuse'"
expect_exit 2 bin/sector_model --wpb 33;               expect_says "--wpb must be between 1 and 32"
# --- sector_model: modes
expect_exit 2 bin/sector_model --family bogus;         expect_says "unknown family 'bogus'"
expect_exit 2 bin/sector_model --family copy --variant nope; expect_says "no variant 'nope'"
expect_exit 2 bin/sector_model --family copy --variant stride --config 0
expect_says "--config: copy stride: stride: stride 0 is not 1..N"
case $OUTTXT in *family*variant*) fail "the header was printed before the usage error";; esac
expect_exit 2 bin/sector_model --family copy --variant int4 --config 6; expect_says "multiple of 4"
expect_exit 2 bin/sector_model --family copy --n 1e9;  expect_says "at most 268435456"
expect_exit 2 bin/sector_model --family stencil --radius 5; expect_says "--radius must be between 1 and 4"
expect_exit 2 bin/sector_model --variant stride;       expect_says "readonly has no variant 'stride'"
expect_exit 2 bin/sector_model --variant strided --config 0; expect_says "stride 0 is not 1..N"
expect_exit 2 bin/sector_model --metrics nope;         expect_says "unknown family 'nope'"
expect_exit 2 bin/sector_model --ncu-query x.txt;      expect_says "go with --metrics"
expect_exit 2 bin/sector_model --list nope;            expect_says "unknown family 'nope'"
expect_exit 2 bin/sector_model stray;                  expect_says "unexpected argument 'stray'"
expect_exit 1 bin/sector_model --metrics copy --ncu-query "$TMP/missing.txt"; expect_says "cannot open"
printf 'nothing here\n' >"$TMP/q.txt"
expect_exit 1 bin/sector_model --metrics copy --ncu-query "$TMP/q.txt"; expect_says "names no metric"
printf 'Device X\ndram__bytes  # of bytes\n' >"$TMP/q.txt"
expect_exit 1 bin/sector_model --metrics copy --ncu-query "$TMP/q.txt"; expect_says "not the output of ncu --query-metrics"
expect_exit 0 bin/sector_model --metrics copy --proven
[ "$OUTTXT" = "gpu__time_duration.sum,launch__grid_size,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__sectors_read.sum" ] ||
    fail "--metrics copy --proven: the names seen in the real H100 captures, got $OUTTXT"
expect_exit 0 bin/sector_model --list copy;            expect_says "copy_stride16"
expect_exit 0 bin/sector_model --metrics readonly
expect_says "gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
# --- the families with a model, from the registry; each family's ncu recipe
# (a family has a model where its folder holds model.c: the registry's rule)
expect_exit 0 bin/sector_model --list-families
want=$(for m in src/families/*/model.c; do basename "$(dirname "$m")"; done | sort | paste -sd' ')
[ -n "$want" ] && [ "$(printf '%s\n' "$OUTTXT" | paste -sd' ')" = "$want" ] ||
    fail "--list-families: $want, got $OUTTXT"
expect_exit 2 bin/sector_model --quick;                 expect_says "go with --ncu-recipe"
expect_exit 2 bin/sector_model --ncu-recipe bogus;      expect_says "unknown family 'bogus'"
bin/sector_model --ncu-recipe stencil --quick --wpb 8 >"$TMP/r.tsv" || fail "--ncu-recipe stencil --quick failed"
[ "$(bin/tsv get "$TMP/r.tsv" run | paste -sd' ')" = "64x1 64x1_lead 1024x1 1024x1_lead" ] ||
    fail "--ncu-recipe stencil --quick: the lab's first four geometries, got $(cat "$TMP/r.tsv")"
printf 'stride\tx\nmemcpy\tx\n' >"$TMP/have.txt"
bin/sector_model --ncu-recipe copy --run-n 65536 --have "$TMP/have.txt" >"$TMP/r.tsv" 2>"$TMP/r.err"
grep -q "copy memcpy has no sector model" "$TMP/r.err" || fail "--ncu-recipe copy --have: memcpy not named"
[ "$(bin/tsv get "$TMP/r.tsv" args)" = "65536 0 4 --kernel stride" ] ||
    fail "--ncu-recipe copy --have: only the variant both have, got $(cat "$TMP/r.tsv")"
printf 'memcpy\tx\n' >"$TMP/have.txt"
expect_exit 1 bin/sector_model --ncu-recipe copy --have "$TMP/have.txt"; expect_says "no variant of the copy program"
# --- bounded work (issue 24): a small runs table asking a stencil of 2^28 points
#     (walked: the stencil has no count hook; the random gather that was here is
#     counted now, sf_count_loads) is refused at once with a sentence, not walked
#     for minutes
printf 'kernel\tconfig\tn\twarps_per_block\nderiv1\t16384x16384,R=4,lead=0,padld=0\t268435456\t4\n' >"$TMP/big_runs.tsv"
printf 'kernel\tid\nstencil_deriv1\t0\n' >"$TMP/big_ncu.tsv"
expect_exit 1 timeout 20 bin/sector_compare --family stencil --runs "$TMP/big_runs.tsv" --ncu "$TMP/big_ncu.tsv" --out "$TMP/big.tsv"
expect_says "more than its limit"
[ ! -e "$TMP/big.tsv" ] || fail "a refused comparison left $TMP/big.tsv"
# --- every output write is checked
if [ -w /dev/full ]; then
    expect_exit 1 bash -c 'bin/sector_model --family stencil >/dev/full';   expect_says "cannot write"
    expect_exit 1 bash -c 'bin/sector_model --n 1e4 >/dev/full';            expect_says "cannot write"
    expect_exit 1 bash -c "bin/sector_compare $M >/dev/full";              expect_says "cannot write"
    expect_exit 1 bash -c 'bin/sector_model --help >/dev/full'
fi

# --- sector_compare: numbers and modes
expect_exit 2 bin/sector_compare "$M" --wpb 4294967297      # wrapped to 1 as unsigned before
expect_says "--wpb must be between 1 and 32"
expect_exit 2 bin/sector_compare "$M" --dram-granularity 4294967360
expect_says "--dram-granularity must be between 32 and 128"
expect_exit 2 bin/sector_compare "$M" --n nan;          expect_says "--n is not a number"
expect_exit 2 bin/sector_compare "$M" --l2-bytes inf;   expect_says "--l2-bytes is not a number"
expect_exit 2 bin/sector_compare "$M" --seed -1;        expect_says "--seed"
# the chart's extension is checked at once, before the table is even read
expect_exit 2 bin/sector_compare "$TMP/nope.tsv" --chart "$TMP/c.jpg"
expect_says "--chart: '$TMP/c.jpg' must end in .svg, .png or .pdf"
expect_exit 2 bin/sector_compare "$M" --chart "$TMP/c";  expect_says "must end in .svg, .png or .pdf"
expect_exit 2 bin/sector_compare "$M" "$M";             expect_says "too many arguments"
expect_exit 2 bin/sector_compare --family copy;         expect_says "needs --runs RUNS.tsv and --ncu NCU.tsv"
expect_exit 2 bin/sector_compare --family copy --runs a --ncu b "$M"; expect_says "takes --runs and --ncu"
expect_exit 2 bin/sector_compare --family copy --runs a --ncu b --chart x.svg; expect_says "readonly measured table's"
expect_exit 2 bin/sector_compare --family copy --runs a --ncu b --n0 64; expect_says "are the stencil's"
expect_exit 2 bin/sector_compare --family nope --runs a --ncu b; expect_says "unknown family 'nope'"
expect_exit 2 bin/sector_compare "$M" --runs a;         expect_says "go with --family"
expect_exit 2 bin/sector_compare "$M" --measured;       expect_says "go with --family readonly"
expect_exit 2 bin/sector_compare --family readonly --runs a --ncu b --measured --l2-fetch-row 0; expect_says "one of --measured and --l2-fetch-row"
expect_exit 1 bin/sector_compare --family readonly --runs "$TMP/a.tsv" --ncu "$TMP/b.tsv"; expect_says "cannot open"
expect_exit 2 bin/sector_compare --family readonly --runs a --ncu b --l2-fetch-row 48; expect_says "0, 32, 64 or 128"
expect_exit 1 bin/sector_compare --family copy --runs "$TMP/a.tsv" --ncu "$TMP/b.tsv"; expect_says "cannot open"
# a runs table without the engine's columns, a config without the value
printf 'variant\tn\nstride\t10\n' >"$TMP/r.tsv"
printf 'kernel\tid\ncopy_stride\t0\n' >"$TMP/n.tsv"
expect_exit 1 bin/sector_compare --family copy --runs "$TMP/r.tsv" --ncu "$TMP/n.tsv"; expect_says "lacks kernel or config"
printf 'kernel\tn\twarps_per_block\tconfig\nstride\t4096\t4\ts=4\n' >"$TMP/r.tsv"
expect_exit 1 bin/sector_compare --family copy --runs "$TMP/r.tsv" --ncu "$TMP/n.tsv"; expect_says "no stride=VALUE in the config 's=4'"
printf 'kernel\tn\twarps_per_block\tconfig\nstride\t4096\t4294967297\tstride=4\n' >"$TMP/r.tsv"
expect_exit 1 bin/sector_compare --family copy --runs "$TMP/r.tsv" --ncu "$TMP/n.tsv"; expect_says "warps_per_block 4294967297 is not 1..32"
# a launch that is missing: the row is kept, NA, and does not agree
printf 'kernel\tn\twarps_per_block\tconfig\nstride\t4096\t4\tstride=4\nstride\t4096\t4\tstride=8\n' >"$TMP/r.tsv"
printf 'kernel\tid\tl1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\tl1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\ncopy_stride\t0\t32\t512\n' >"$TMP/n.tsv"
expect_exit 1 bin/sector_compare --family copy --runs "$TMP/r.tsv" --ncu "$TMP/n.tsv" --strict
expect_says "3 of 4 rows disagree"
bin/sector_compare --family copy --runs "$TMP/r.tsv" --ncu "$TMP/n.tsv" --out "$TMP/o.tsv" 2>/dev/null
[ "$(bin/tsv get "$TMP/o.tsv" agree --where config=stride=4 --where op=ld)" = yes ] ||
    fail "the stride=4 loads were measured as predicted and should agree"
bin/tsv get "$TMP/o.tsv" note --where config=stride=8 --where op=ld | grep -q "no launch of copy_stride" ||
    fail "the second row has no launch and should say so"
! compgen -G "$TMP/o.tsv*.tmp" >/dev/null || fail "--out left o.tsv.tmp behind"
# a row whose validation failed had no clean launch: the next row pairs with the first launch
printf 'kernel\tn\twarps_per_block\tvalid\tconfig\nstride\t4096\t4\tFAIL\tstride=2\nstride\t4096\t4\tok\tstride=4\n' >"$TMP/r.tsv"
bin/sector_compare --family copy --runs "$TMP/r.tsv" --ncu "$TMP/n.tsv" --out "$TMP/o.tsv" 2>/dev/null
[ "$(bin/tsv get "$TMP/o.tsv" agree --where config=stride=4 --where op=ld)" = yes ] ||
    fail "after a FAIL row, stride=4 should still pair with the first launch"
bin/tsv get "$TMP/o.tsv" note --where config=stride=2 --where op=ld | grep -q "validation FAILED" ||
    fail "the FAIL row should say its validation failed"
# two launches per row (the validation ran the clean kernel): the second is the measured one
printf 'kernel\tid\tl1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\tl1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\ncopy_stride\t0\t1\t1\ncopy_stride\t1\t32\t512\n' >"$TMP/n2.tsv"
printf 'kernel\tn\twarps_per_block\tconfig\nstride\t4096\t4\tstride=4\n' >"$TMP/r.tsv"
expect_exit 0 bin/sector_compare --family copy --runs "$TMP/r.tsv" --ncu "$TMP/n2.tsv" --out "$TMP/o.tsv"
expect_says "2 launches of copy_stride per row"
[ "$(bin/tsv get "$TMP/o.tsv" agree --where config=stride=4 --where op=ld)" = yes ] ||
    fail "with two launches per row the second should be paired"
# --out into a folder that does not exist: exit 1, nothing left
expect_exit 1 bin/sector_compare "$M" --out "$TMP/no/such/dir/x.tsv"; expect_says "cannot write"
# a metadata wpb that would wrap is refused too
sed 's/^# wpb\t4$/# wpb\t4294967297/' "$M" >"$TMP/m.tsv"
expect_exit 1 bin/sector_compare "$TMP/m.tsv";          expect_says "wpb 4294967297 is not 1..32"
done_testing

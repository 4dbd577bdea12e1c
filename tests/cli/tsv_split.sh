#!/usr/bin/env bash
# tests/cli/tsv_split.sh - bin/tsv split: one --batch-file run's table cut
# per line (column batch_line) into the tables the readers know, as
# scripts/reference.sh (readonly's WPBs), stencil.sh and tiling.sh do.
# Each file: the '#' lines and header as they were, only its line's rows;
# a value no row has: said, that file not written, the others still are,
# exit 1; a missing column or a malformed VALUE=FILE: nothing written.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin bin/tsv
cd "$TMP" || exit 1
printf '# batch\t/tmp/x.batch (3 runs)\n# device\tNVIDIA H200 (sm_90)\n# peak_dram_GBps\t4814.3 (words)\n# peak_dram_GBps\t4814.3\nkernel\twarps_per_block\tbatch_line\nbaseline\t2\t1\nfloat4\t2\t1\nbaseline\t4\t2\nfloat4\t4\t2\nbaseline\t8\t12\n' >all.tsv
expect_exit 0 "$ROOT/bin/tsv" split all.tsv batch_line 1=wpb2.tsv 2=wpb4.tsv 12=wpb8.tsv
printf '# batch\t/tmp/x.batch (3 runs)\n# device\tNVIDIA H200 (sm_90)\n# peak_dram_GBps\t4814.3 (words)\n# peak_dram_GBps\t4814.3\nkernel\twarps_per_block\tbatch_line\nbaseline\t4\t2\nfloat4\t4\t2\n' >want4.tsv
cmp -s want4.tsv wpb4.tsv || fail "wpb4.tsv is not line 2's table: $(diff want4.tsv wpb4.tsv)"
[ "$("$ROOT/bin/tsv" get wpb2.tsv warps_per_block | sort -u)" = 2 ] || fail "wpb2.tsv holds other lines' rows"
[ "$("$ROOT/bin/tsv" get wpb8.tsv kernel)" = baseline ] || fail "wpb8.tsv: not line 12's one row"
[ "$("$ROOT/bin/tsv" meta wpb8.tsv device)" = "NVIDIA H200 (sm_90)" ] || fail "wpb8.tsv lost the metadata"
# a line without rows (its run failed before any): said, not written; the others are
rm -f wpb*.tsv
expect_exit 1 "$ROOT/bin/tsv" split all.tsv batch_line 1=wpb2.tsv 3=wpb16.tsv
expect_says "no row of all.tsv has batch_line=3: wpb16.tsv not written"
[ -f wpb2.tsv ] || fail "line 1's table was not written beside a line without rows"
[ -e wpb16.tsv ] && fail "a table was written for a line without rows"
# no such column, or not VALUE=FILE: nothing written
rm -f wpb*.tsv
expect_exit 1 "$ROOT/bin/tsv" split all.tsv nope 1=wpb2.tsv
expect_says "has no column 'nope'"
expect_exit 2 "$ROOT/bin/tsv" split all.tsv batch_line 1=wpb2.tsv 2
expect_exit 2 "$ROOT/bin/tsv" split all.tsv batch_line =x.tsv
expect_exit 2 "$ROOT/bin/tsv" split all.tsv batch_line
[ -z "$(ls wpb*.tsv 2>/dev/null)" ] || fail "a refused split wrote $(ls wpb*.tsv)"
# the file is replaced whole (outfile): no temporary is left beside it
expect_exit 0 "$ROOT/bin/tsv" split all.tsv batch_line 1=wpb2.tsv
[ "$(ls)" = "$(printf 'all.tsv\nwant4.tsv\nwpb2.tsv')" ] || fail "left beside the tables: $(ls)"
done_testing

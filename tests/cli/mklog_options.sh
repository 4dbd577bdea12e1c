#!/usr/bin/env bash
# tests/cli/mklog_options.sh - mklog refuses what a log cannot hold instead
# of dropping it without a word (issue 35): a 17th region name, more
# --region-bytes than regions.  Usage errors: exit 2, one sentence, no file.
. "$(dirname "$0")/../lib.sh"
require_bin bin/mklog bin/warplog
B=$ROOT/bin
cd "$TMP" || exit 1
echo "1000 1100 0 0 0 0" >one.tsv
R16=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p

expect_exit 2 "$B/mklog" x.bin --regions $R16,q <one.tsv
expect_says "--regions: a log has at most 16 regions; $R16,q names more"
expect_exit 2 "$B/mklog" x.bin --regions a,b --region-bytes 64,128,256 <one.tsv
expect_says "--region-bytes: more byte counts than the 2 regions of --regions"
[ -z "$(ls -A)" ] || [ "$(ls -A)" = one.tsv ] || fail "a refused mklog left: $(ls -A)"

# what fits is written as before: 16 regions, byte counts for the first few
expect_exit 0 "$B/mklog" x.bin --regions $R16 --region-bytes 64,128 <one.tsv
expect_exit 0 "$B/warplog" info x.bin
expect_says "region_count	16"
expect_says "region_15	p"
expect_says "region_1_bytes_per_warp	128"
expect_exit 0 "$B/mklog" y.bin --regions a,b --region-bytes 64,128 <one.tsv
done_testing

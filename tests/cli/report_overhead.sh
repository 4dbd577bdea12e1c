#!/usr/bin/env bash
# tests/cli/report_overhead.sh - the report's overhead section names the rows
# whose probe overhead stayed above --max-overhead even at the sparsest
# sampling (overhead.tsv's overhead_met = 0, issue 37), and says so when
# every row is within it; a table without the column (the bundled ones
# before it) gets neither sentence.  With the launch count and the clean
# median's interval (launches, clean_ms_ci_lo, clean_ms_ci_hi), it gives the
# range of launches and the widest interval, naming its row.
source "$(dirname "$0")/../lib.sh"
require_bin bin/report bin/tsv
D=$TMP/h100
cp -r "$ROOT/data/reference/h100" "$D"
# the overhead section does not depend on the sector tables: without the
# readonly one each report skips its model prediction (seconds)
rm -f "$D/sectors_readonly.tsv"
bin/tsv get "$D/overhead.tsv" overhead_met >/dev/null 2>&1 && fail "the bundled overhead.tsv has overhead_met: this test's 'without' case is gone"
expect_exit 0 scripts/report.sh --data "$D" --out "$TMP/r0" --no-charts
grep -q "max-overhead" "$TMP/r0/index.md" && fail "a table without overhead_met: no sentence on it expected"
# every row met, then two rows not (strided at WPB 32, random_access at WPB 2)
awk 'BEGIN { FS = OFS = "\t" } /^#/ { print; next } !h { print $0, "overhead_met"; h = 1; next } { print $0, 1 }' \
    "$ROOT/data/reference/h100/overhead.tsv" >"$D/overhead.tsv"
expect_exit 0 scripts/report.sh --data "$D" --out "$TMP/r1" --no-charts
grep -q "Every row's overhead is within the run's --max-overhead" "$TMP/r1/index.md" ||
    fail "every row met: the report should say so"
awk 'BEGIN { FS = OFS = "\t" } /^#/ { print; next } !h { print $0, "overhead_met"; h = 1; next }
     { m = ($1 == "strided" && $2 == 32) || ($1 == "random_access" && $2 == 2) ? 0 : 1; print $0, m }' \
    "$ROOT/data/reference/h100/overhead.tsv" >"$D/overhead.tsv"
expect_exit 0 scripts/report.sh --data "$D" --out "$TMP/r2" --no-charts
line=$(grep "stayed above the run's --max-overhead" "$TMP/r2/index.md")
case $line in *"2 rows stayed above"*"random_access at WPB 2"*"strided at WPB 32"*) ;;
    *) fail "two rows unmet: expected both named in table order, got: $line" ;; esac
grep -q "Each clean median comes from" "$TMP/r2/index.md" && fail "no launches column: no sentence on precision expected"
# launches and the clean median's interval: 5 launches everywhere but
# float4 at WPB 8 (10), whose interval is the widest (+/- 1 % of 0.5 ms)
awk 'BEGIN { FS = OFS = "\t" } /^#/ { print; next }
     !h { for (i = 1; i <= NF; i++) c[$i] = i; print $0, "launches", "clean_ms_ci_lo", "clean_ms_ci_hi"; h = 1; next }
     { m = $c["clean_ms"]; w = ($1 == "float4" && $2 == 8) ? 0.01 : 0.001; l = w > 0.005 ? 10 : 5
       if ($1 == "float4" && $2 == 8) m = 0.5
       $c["clean_ms"] = m; print $0, l, m * (1 - w), m * (1 + w) }' \
    "$ROOT/data/reference/h100/overhead.tsv" >"$D/overhead.tsv"
expect_exit 0 scripts/report.sh --data "$D" --out "$TMP/r3" --no-charts
# the finding as one line (index.md wraps it)
line=$(sed 's/^> //' "$TMP/r3/index.md" | tr '\n' ' ' | grep -o "Each clean median comes from[^)]*)")
case $line in *"from 5 to 10 launches"*"+/-1.00% of its median (float4 at WPB 8)"*) ;;
    *) fail "launches 5-10, widest float4 at WPB 8 (+/-1.00%): got: $line" ;; esac
done_testing

#!/usr/bin/env bash
# tests/cli/ceiling.sh - bin/ceiling on the bundled H100 search: 'next' picks
# each operation's best step-1 configuration, 'best' rebuilds ceiling.tsv
# byte for byte from the search tables beside it (paths written from the
# table's folder, so the set reads the same wherever it lies), and bad input
# fails without leaving a file.
. "$(dirname "$0")/../lib.sh"
require_bin bin/ceiling bin/tsv

H100=data/reference/h100 S=data/reference/h100/ceiling_search

expect_exit 2 bin/ceiling;                         expect_says "usage: ceiling next TABLE"
expect_exit 1 bin/ceiling best /nonexistent.tsv;   expect_says "nonexistent.tsv"

# next: one line per operation that step 2 refines, with the options of the
# fastest step-1 row of that operation
expect_exit 0 bin/ceiling next "$S/step1.tsv"
[ "$(printf '%s\n' "$OUTTXT" | cut -f1 | paste -sd, -)" = "read,write,copy,triad,dot" ] \
    || fail "next lists: $OUTTXT"
best_copy=$(bin/tsv get "$S/step1.tsv" bw_GBps --where kernel=copy 2>/dev/null | sort -g | tail -n 1)
[ -n "$best_copy" ] || fail "no copy rows in step1.tsv"

# best: the committed ceiling.tsv is what the tool writes from the committed tables
mkdir -p "$TMP/set/ceiling_search"
cp "$S"/*.tsv "$TMP/set/ceiling_search/"
cp "$H100/latency_ca.tsv" "$TMP/set/"
tables=()
for f in "$TMP"/set/ceiling_search/*.tsv; do tables+=("$f"); done
expect_exit 0 bin/ceiling best --ladder "$TMP/set/latency_ca.tsv" --out "$TMP/set/ceiling.tsv" "${tables[@]}"
cmp -s "$TMP/set/ceiling.tsv" "$H100/ceiling.tsv" || {
    fail "ceiling.tsv rebuilt from the search differs from the committed one"
    diff "$TMP/set/ceiling.tsv" "$H100/ceiling.tsv" >&2; }
# every table it names is there, relative to ceiling.tsv
for t in $(bin/tsv get "$H100/ceiling.tsv" table); do
    [ -f "$H100/$t" ] || fail "ceiling.tsv names $t, which is not beside it"
done
[ "$(bin/tsv meta "$H100/ceiling.tsv" ladder)" = latency_ca.tsv ] || fail "ladder path is not relative"
# the best copy of the table is at least the best copy of step 1
awk -v a="$(bin/tsv get "$H100/ceiling.tsv" bw_GBps --where operation=copy)" -v b="$best_copy" \
    'BEGIN { exit !(a + 0 >= b + 0) }' || fail "best copy below step 1's best"

# a failure leaves no ceiling.tsv (nor its .tmp)
expect_exit 1 bin/ceiling best --ladder /nonexistent --out "$TMP/x.tsv" "$S/step1.tsv"
[ ! -e "$TMP/x.tsv" ] && ! compgen -G "$TMP/x.tsv*.tmp" >/dev/null || fail "a failed run left $TMP/x.tsv"
done_testing

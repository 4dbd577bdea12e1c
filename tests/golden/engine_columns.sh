#!/usr/bin/env bash
# The summary's columns are one table in the engine (src/engine/columns.c):
# it writes the header, every row and --list-columns.  This test reads that
# live list from the programs, not from a committed copy, and compares it
# with what exists:
#   - every family's program, both builds, lists the same columns, each with
#     a meaning;
#   - every column ./readonly had before it moved onto the engine
#     (tests/golden/engine/readonly_columns_v1.txt) is still there;
#   - every summary written so far (the engine's first H100 summary in
#     tests/fixtures/engine/ and every bundled summary in data/reference/)
#     has its columns in the live list, in the same order: new columns may be
#     added, none taken away or moved.
# The log header's keys are tests/golden/engine_log_keys.sh.
source "$(dirname "$0")/../lib.sh"
require_bin bin/tsv bin/names
require_bin readonly   # the live list comes from a CUDA program's --list-columns

live=$(./readonly --list-columns) || fail "./readonly --list-columns failed"
names=$(cut -f1 <<<"$live")
[ -n "$names" ] || fail "./readonly --list-columns listed nothing"
bad=$(awk -F'\t' 'NF != 2 || $1 == "" || $2 == ""' <<<"$live")
[ -z "$bad" ] || fail "--list-columns lines without a name and one meaning: $bad"
dup=$(sort <<<"$names" | uniq -d)
[ -z "$dup" ] || fail "--list-columns lists $dup more than once"
[ -z "$(./readonly --list-columns 2>&1 >/dev/null)" ] || fail "--list-columns wrote to stderr"

while read -r fam; do
    for b in "$fam" "${fam}_profile"; do
        [ -x "$b" ] || { fail "$b was not built"; continue; }
        [ "$(./"$b" --list-columns)" = "$live" ] || fail "$b --list-columns differs from ./readonly's"
    done
done < <(bin/names families)

while read -r k; do
    grep -qx -- "$k" <<<"$names" || fail "the summary lost the column '$k' (readonly_columns_v1.txt)"
done <tests/golden/engine/readonly_columns_v1.txt

# FILE: its columns are in the live list, in the live order
in_live_order() {
    local have want
    have=$(bin/tsv columns "$1") || { fail "bin/tsv columns $1 failed"; return; }
    want=$(grep -xF -f <(printf '%s\n' "$have") <<<"$names")
    [ "$have" = "$want" ] ||
        fail "$1: its columns are not all in --list-columns, in that order: $(diff <(printf '%s\n' "$have") <(printf '%s\n' "$want") | head -n 8)"
}
in_live_order tests/fixtures/engine/readonly_1e8_wpb4.tsv
nsum=0
for f in data/reference/*/*.tsv; do
    bin/names parse "$(basename "$f")" >"$TMP/parse.tsv" 2>/dev/null || continue
    [ "$(bin/tsv get "$TMP/parse.tsv" kind)" = summary ] || continue
    in_live_order "$f"
    nsum=$((nsum + 1))
done
[ "$nsum" -ge 1 ] || fail "no bundled summary found in data/reference/"
done_testing

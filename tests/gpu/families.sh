#!/usr/bin/env bash
# Every kernel family (bin/names families), every variant and
# configuration at a small size: validated against its CPU reference, timed,
# and where it has probes, a log that bin/warplog check accepts.
source "$(dirname "$0")/../lib.sh"
require_gpu
require_bin bin/warplog bin/tsv
for fam in $(bin/names families); do
    require_bin "$fam"
    # a small size for whatever the family's positionals are
    args=()
    for p in $(./"$fam" --list-positional); do
        case $p in
            N) args+=(--n 1000003) ;;    # not a multiple of 4: the remainders run
            N0) args+=(96) ;;
            N1) args+=(37) ;;
            DSIZE) args+=(256) ;;
        esac
    done
    expect_exit 0 ./"$fam" "${args[@]}" --reps 2 --warmup 1 --out "$TMP/$fam" --table "$TMP/$fam.tsv" -q
    [ -s "$TMP/$fam.tsv" ] || { fail "$fam wrote no table"; continue; }
    rows=$(bin/tsv get "$TMP/$fam.tsv" valid | wc -l)
    ok=$(bin/tsv get "$TMP/$fam.tsv" valid --where valid=ok 2>/dev/null | wc -l)
    [ "$rows" -ge 1 ] && [ "$rows" = "$ok" ] || fail "$fam: $ok of $rows rows valid"
    nlogs=0
    for f in "$TMP/$fam"/*.bin; do
        [ -f "$f" ] || continue
        nlogs=$((nlogs + 1))
        bin/warplog check "$f" --quiet >/dev/null 2>"$TMP/chk.err" || fail "warplog check $f: $(cat "$TMP/chk.err")"
    done
    echo "$fam: $rows rows valid, $nlogs logs checked"
done
done_testing

#!/usr/bin/env bash
# Without a GPU: every program (each family, and ./latency) refuses each
# number just past an option's accepted range, and a value outside an
# option's allowed set, with exit status 2 and a sentence naming the option,
# before it looks for a GPU; the ranges are the ones --list-options prints
# (read by column name), so that the fuzzer (tests/gpu/fuzz_options.sh) and
# the parser agree.  copy --batch takes every value 1-16 (each has a kernel).
source "$(dirname "$0")/../lib.sh"
require_bin bin/names bin/tsv latency

mapfile -t programs < <(bin/names families)
programs+=(latency)
for p in "${programs[@]}"; do
    require_bin "$p"
    "./$p" --list-options >"$TMP/$p.tsv" || { fail "$p --list-options"; continue; }
    mapfile -t names < <(bin/tsv get "$TMP/$p.tsv" option)
    mapfile -t kinds < <(bin/tsv get "$TMP/$p.tsv" kind)
    mapfile -t los < <(bin/tsv get "$TMP/$p.tsv" lo)
    mapfile -t his < <(bin/tsv get "$TMP/$p.tsv" hi)
    mapfile -t choices < <(bin/tsv get "$TMP/$p.tsv" choices)
    mapfile -t scopes < <(bin/tsv get "$TMP/$p.tsv" scope)
    [ ${#names[@]} -gt 3 ] || fail "$p lists ${#names[@]} options"
    for i in "${!names[@]}"; do
        o=${names[$i]} k=${kinds[$i]} lo=${los[$i]} hi=${his[$i]}
        case $k in u64|count|list) ;; *) continue ;; esac
        [ "${scopes[$i]}" = positional ] && continue   # below
        [ "$o" = --device ] && continue
        past=()
        [ "$k" != count ] && [ "$lo" != 0 ] && past+=($((lo - 1)))
        [ "$k" = count ] && past+=(0)
        [ "$hi" != 18446744073709551615 ] && past+=($((hi + 1)))
        for v in "${past[@]}"; do
            [ -n "$v" ] || continue
            expect_exit 2 "./$p" "$o" "$v"
            expect_says "$o"
        done
        if [ "${choices[$i]}" != - ]; then   # an allowed set: a value in range but not in it
            for ((v = lo; v <= hi; v++)); do
                case ",${choices[$i]}," in *",$v,"*) continue ;; esac
                expect_exit 2 "./$p" "$o" "$v"
                expect_says "must be one of ${choices[$i]//,/, }"
                break
            done
        fi
    done
done

# the positionals: WPB 0 and 33, SMEM past 2^30, N 0 and past 2^36
expect_exit 2 ./readonly 1000 0 33;            expect_says "WPB"
expect_exit 2 ./readonly 1000 0 0;             expect_says "WPB"
expect_exit 2 ./copy 1000 1073741825 4;        expect_says "SMEM"
expect_exit 2 ./copy 0 0 4;                    expect_says "N"
expect_exit 2 ./copy 68719476737 0 4;          expect_says "N"
expect_exit 2 ./tiling 0;                      expect_says "DSIZE"
# copy --batch: every value of 1-16 passes the parser (each has a kernel);
# without a GPU the run stops at the device, with exit status 1
for b in 1 3 5 7 9 11 12 13 15 16; do
    expect_exit 1 ./copy 1000 0 4 --batch "$b" --kernel batch_unrolled,batch_restrict,int4
    expect_says "GPU"
done
expect_exit 2 ./copy 1000 0 4 --batch 17;      expect_says "--batch must be between 1 and 16"
./copy --help | grep -q 'any of 1-16' || fail "copy --help does not say --batch takes any of 1-16"
done_testing

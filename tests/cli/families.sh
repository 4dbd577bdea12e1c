#!/usr/bin/env bash
# Every kernel family's program (src/families/NAME.cu -> ./NAME and
# ./NAME_profile), found by listing the families, not by naming them: the
# engine's command line behaves the same for all.  Usage errors exit 2 before
# a GPU is touched; --help and --list-kernels need no GPU; without a GPU a run
# exits 1 with "no CUDA device" and leaves no file.
source "$(dirname "$0")/../lib.sh"
fams=()
for f in src/families/*.cu; do fams+=("$(basename "$f" .cu)"); done
[ ${#fams[@]} -ge 1 ] || fail "no family in src/families"
for fam in "${fams[@]}"; do
    require_bin "$fam" "${fam}_profile"
    for b in "$fam" "${fam}_profile"; do
        expect_exit 0 ./$b --help;                 expect_says "usage: $b"
        expect_says "--list-kernels"; expect_says "--sample K|auto"
        [ -z "$(./$b --help 2>&1 >/dev/null)" ] || fail "$b --help wrote to stderr"
        expect_exit 0 ./$b --list-kernels
        n=$(./$b --list-kernels | wc -l)
        [ "$n" -ge 1 ] || fail "$b --list-kernels listed nothing"
        # every listed name is accepted by --kernel (the usage error would come first)
        first=$(./$b --list-kernels | cut -f1 | head -n 1)
        expect_exit 2 ./$b --kernel "$first" --bogus; expect_says "unknown option '--bogus'"
        expect_exit 2 ./$b --kernel nope;           expect_says "unknown kernel 'nope'"
        expect_exit 2 ./$b --reps 0;                expect_says "--reps must be between"
        expect_exit 2 ./$b --sample 0;              expect_says "--sample must be at least 1"
        expect_exit 2 ./$b --sample some;           expect_says "--sample is not a number"
        expect_exit 2 ./$b --max-overhead nan;      expect_says "--max-overhead is not a number"
        expect_exit 2 ./$b --max-overhead 1e999;    expect_says "--max-overhead is too large"
        expect_exit 2 ./$b --device -1;             expect_says "--device must not be negative"
        expect_exit 2 ./$b --out;                   expect_says "--out needs a value"
        expect_exit 2 ./$b --quiet=yes;             expect_says "takes no value"
        # --list-probed: a subset of the variants, none in the profile build,
        # and --help tells a family without probes that it writes no logs
        expect_exit 0 ./$b --list-probed
        while read -r pv; do
            ./$b --list-kernels | cut -f1 | grep -qxF -- "$pv" || fail "$b --list-probed lists '$pv', not a variant"
        done < <(./$b --list-probed)
        case $b in *_profile) [ -z "$(./$b --list-probed)" ] || fail "$b (no probes) lists probed variants" ;; esac
        if [ -z "$(./$b --list-probed)" ] && [ "${b%_profile}" = "$b" ]; then
            expect_exit 0 ./$b --help; expect_says "writes no per-warp logs"
        fi
        if [ "$n" -ge 2 ]; then
            expect_exit 2 ./$b --sweep;             expect_says "--sweep takes one variant"
        fi
    done
    if ! have_gpu; then
        expect_exit 1 ./$fam --out "$TMP/$fam-logs" --table "$TMP/$fam.tsv"; expect_says "no CUDA device"
        [ ! -e "$TMP/$fam-logs" ] || fail "$fam: a run without a GPU created $TMP/$fam-logs"
        ls "$TMP/$fam.tsv"* >/dev/null 2>&1 && fail "$fam: a run without a GPU wrote a table"
        expect_exit 1 ./${fam}_profile;             expect_says "no CUDA device"
    fi
done
done_testing

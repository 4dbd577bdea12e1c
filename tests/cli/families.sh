#!/usr/bin/env bash
# Every kernel family's program (src/families/NAME/NAME.cu -> ./NAME and
# ./NAME_profile), found by listing the families, not by naming them: the
# engine's command line behaves the same for all.  Usage errors exit 2 before
# a GPU is touched; --help and --list-kernels need no GPU; each program lists
# only the options that apply to it and refuses the others (exit 2, a
# sentence); without a GPU a run exits 1 with "no NVIDIA GPU (or driver) found" and leaves
# no file.
source "$(dirname "$0")/../lib.sh"
fams=()
mapfile -t fams < <(bin/names families)
[ ${#fams[@]} -ge 1 ] || fail "no family in src/families"
for fam in "${fams[@]}"; do
    require_bin "$fam" "${fam}_profile"
    for b in "$fam" "${fam}_profile"; do
        expect_exit 0 ./$b --help;                 expect_says "usage: $b"
        expect_says "--list-kernels"
        help=$(./$b --help)
        [ -z "$(./$b --help 2>&1 >/dev/null)" ] || fail "$b --help wrote to stderr"
        # no option listed twice
        dup=$(printf '%s\n' "$help" | grep -oE '^  (-[a-z], )?--[a-z0-9-]+' | sed 's/.*--/--/' | sort | uniq -d)
        [ -z "$dup" ] || fail "$b --help lists $dup more than once"
        # an option --help leaves out is refused with a reason; one it lists is not
        for o in "--sample 4" "--min-records 5" "--max-overhead 1" --no-probes "--level 3" "--ceiling 100" \
                 "--n 1e6" "--wpb 4" "--smem 0" --list-occupancy --sweep "--points 1" "--ladder x.tsv"; do
            name=${o%% *}
            if printf '%s\n' "$help" | grep -qE "^  $name( |\$)"; then
                # shellcheck disable=SC2086  # o is an option and its value
                OUTTXT=$(./$b $o --kernel nope 2>&1)
                case $OUTTXT in *"does not apply"*) fail "$b lists $name but refuses it: $OUTTXT" ;; esac
            else
                # shellcheck disable=SC2086
                expect_exit 2 ./$b $o;                 expect_says "$name does not apply to $b: "
            fi
        done
        case $b in
        *_profile) for o in --sample --level --max-overhead --no-probes --min-records; do
                       printf '%s\n' "$help" | grep -qE "^  $o( |\$)" && fail "$b (no probes) lists $o"
                   done ;;
        *) if [ -n "$(./$b --list-probed)" ]; then
               printf '%s\n' "$help" | grep -q -- "--sample K|auto" || fail "$b has probes but does not list --sample"
           fi ;;
        esac
        if ! ./$b --list-positional | grep -qx N; then
            printf '%s\n' "$help" | grep -qE '^  --n ' && fail "$b has no N but lists --n"
        fi
        if ! ./$b --list-positional | grep -qx WPB; then
            printf '%s\n' "$help" | grep -qE '^  --(wpb|list-occupancy|sweep)( |$)' &&
                fail "$b has no WPB but lists --wpb, --list-occupancy or --sweep"
        fi
        expect_exit 0 ./$b --list-kernels
        n=$(./$b --list-kernels | wc -l)
        [ "$n" -ge 1 ] || fail "$b --list-kernels listed nothing"
        # every listed name is accepted by --kernel (the usage error would come first)
        first=$(./$b --list-kernels | cut -f1 | head -n 1)
        expect_exit 2 ./$b --kernel "$first" --bogus; expect_says "unknown option '--bogus'"
        expect_exit 2 ./$b --kernel nope;           expect_says "unknown kernel 'nope'"
        expect_exit 2 ./$b --reps 0;                expect_says "--reps must be between"
        if printf '%s\n' "$help" | grep -qE '^  --sample '; then
            expect_exit 2 ./$b --sample 0;           expect_says "--sample must be at least 1"
            expect_exit 2 ./$b --sample some;        expect_says "--sample is not a number"
            expect_exit 2 ./$b --max-overhead nan;   expect_says "--max-overhead is not a number"
            expect_exit 2 ./$b --max-overhead 1e999; expect_says "--max-overhead is too large"
        fi
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
        if [ "$n" -ge 2 ] && printf '%s\n' "$help" | grep -qE '^  --sweep '; then
            expect_exit 2 ./$b --sweep;             expect_says "--sweep takes one variant"
        fi
    done
    if ! have_gpu; then
        expect_exit 1 ./$fam --out "$TMP/$fam-logs" --table "$TMP/$fam.tsv"; expect_no_gpu
        [ ! -e "$TMP/$fam-logs" ] || fail "$fam: a run without a GPU created $TMP/$fam-logs"
        ls "$TMP/$fam.tsv"* >/dev/null 2>&1 && fail "$fam: a run without a GPU wrote a table"
        expect_exit 1 ./${fam}_profile;             expect_no_gpu
        expect_says "make report"
    fi
done
done_testing

#!/usr/bin/env bash
# tests/cli/latency.sh - ./latency's command line: usage errors exit 2 with a
# message on stderr and before any CUDA call; on a machine without a GPU the
# run exits 1 with "no NVIDIA GPU found" and writes no file.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
require_bin latency
L=$ROOT/latency
cd "$TMP"   # the default output goes to ./data: keep the checkout clean

# --- help: stdout, exit 0
expect_exit 0 "$L" --help
expect_says "usage: latency"
expect_says "--bypass-l1"
[ -z "$("$L" -h 2>&1 >/dev/null)" ] || fail "-h wrote to stderr"

# --- usage errors: exit 2, message names the problem
expect_exit 2 "$L" --min 4X
expect_says '--min is not a number: "4X"'
expect_exit 2 "$L" --max -5
expect_says "--max must not be negative"
expect_exit 2 "$L" --max 1.5
expect_says "--max must be a whole number"
expect_exit 2 "$L" --max inf
expect_says "--max is not a number"
expect_exit 2 "$L" --max ''
expect_says "--max is empty"
expect_exit 2 "$L" --frobnicate
expect_says "unknown option '--frobnicate'"
expect_exit 2 "$L" --min
expect_says "needs a value"
expect_exit 2 "$L" --min 1G --max 1M
expect_says "is larger than --max"
expect_exit 2 "$L" --spacing 12
expect_says "not a multiple of 8"
expect_exit 2 "$L" --loads 100
expect_says "not a multiple of 8"
expect_exit 2 "$L" --reps 17
expect_says "--reps must be between 1 and 16"
expect_exit 2 "$L" --points-per-octave 0
expect_exit 2 "$L" --min 64
expect_says "smaller than one element spacing"
expect_exit 2 "$L" --quick=1
expect_says "takes no value"
expect_exit 2 "$L" stray
expect_says "unexpected argument 'stray'"
[ -e data ] && fail "a usage error created data/"

# --- no GPU: exit 1, "no NVIDIA GPU found", no file (not even a .tmp)
if have_gpu; then
    echo "a GPU is present: the no-device checks do not apply here (tests/gpu/latency.sh runs it)"
else
    expect_exit 1 "$L" --quick
    expect_no_gpu
    [ -e data ] && fail "a failed run created data/"
    # well-formed values (1e8, suffixes, --opt=value) pass the parser and reach the device check
    expect_exit 1 "$L" --min 1.5K --max=1e8 --points-per-octave 3 --spacing 256 --loads 2K \
        --seed 42 --bypass-l1 --warp --out "$TMP/x.tsv"
    expect_no_gpu
    ls "$TMP"/x.tsv* >/dev/null 2>&1 && fail "a failed run wrote $(ls "$TMP"/x.tsv*)"
    expect_exit 1 "$L" --device 3
    expect_no_gpu
fi
done_testing

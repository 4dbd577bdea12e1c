#!/usr/bin/env bash
# The readonly experiments' command line, on any machine.  Usage errors exit 2
# before a GPU is touched; on a machine without a GPU the run exits 1 with
# "no NVIDIA GPU found" and leaves no files.
source "$(dirname "$0")/../lib.sh"
require_bin readonly readonly_profile

for b in readonly readonly_profile; do
    expect_exit 0 ./$b --help;               expect_says "usage: $b N SMEM WPB"
    expect_exit 2 ./$b abc 0 4;              expect_says "N is not a number"
    expect_exit 2 ./$b abc;                  expect_says "N is not a number: \"abc\""   # one bad value: named, not counted
    expect_exit 2 ./$b 1e6 x;                expect_says "SMEM is not a number"
    expect_exit 2 ./$b -5 0 4;               expect_says "negative"
    expect_exit 2 ./$b 0 0 4;                expect_says "N must be at least 1"
    expect_exit 2 ./$b 1e30 0 4;             expect_says "N is too large"
    expect_exit 2 ./$b 99999999999999999999999 0 4; expect_says "N is too large"
    expect_exit 2 ./$b 1.5 0 4;              expect_says "whole number"
    expect_exit 2 ./$b 1e8 0 0;              expect_says "WPB must be between 1 and 32"
    expect_exit 2 ./$b 1e8 0 33;             expect_says "WPB must be between 1 and 32"
    expect_exit 2 ./$b 1e8 x 4;              expect_says "SMEM is not a number"
    expect_exit 2 ./$b 1e8 0;                expect_says "expected N SMEM WPB"
    expect_exit 2 ./$b 1e8 0 4 5;            expect_says "too many arguments"
    expect_exit 2 ./$b 1e8 0 4 --kernel nope; expect_says "unknown kernel 'nope'"
    expect_exit 2 ./$b 1e8 0 4 --bogus;      expect_says "unknown option"
    expect_exit 2 ./$b 1e8 0 4 --reps 0;     expect_says "--reps must be between"
    expect_exit 2 ./$b 1e8 0 4 --l2-fetch 256; expect_says "--l2-fetch must be between 0 and 128"
done

# --out must be usable; checked before any GPU work, nothing created
touch "$TMP/afile"
expect_exit 1 ./readonly 1e6 0 4 --out "$TMP/afile/sub"; expect_says "not a directory"
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
if [ "$(id -u)" -ne 0 ]; then   # root ignores directory permissions
    expect_exit 1 ./readonly 1e6 0 4 --out "$TMP/ro/logs"; expect_says "cannot write"
fi

# Without a GPU: exit 1, a clear sentence, no files (SMEM limits need a device,
# and are covered by unit/test_cli and src/families/readonly/gpu_readonly.sh).
if ! have_gpu; then
    expect_exit 1 ./readonly 1e6 0 4 --out "$TMP/logs"; expect_no_gpu
    [ ! -e "$TMP/logs" ] || fail "a run without a GPU created $TMP/logs"
    expect_exit 1 ./readonly_profile 1e6 0 4;          expect_no_gpu
fi
done_testing

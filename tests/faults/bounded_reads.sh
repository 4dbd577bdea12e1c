#!/usr/bin/env bash
# tests/faults/bounded_reads.sh - a reader of a file named by a stranger
# ends (issue 35): /dev/zero given as a Markdown file, a SASS listing or a
# source file never ended; a failed allocation was taken as the end of the
# file.  Each is now a failure with a sentence, well within the time limit.
. "$(dirname "$0")/../lib.sh"
require_bin bin/docfigs bin/sass_check bin/srcsize
B=$ROOT/bin
cd "$TMP" || exit 1
T="timeout 60"   # 124 means it did not end

expect_exit 1 $T "$B/docfigs" /dev/zero
expect_says "cannot read /dev/zero: it is not a file"
expect_exit 1 $T "$B/sass_check" functions /dev/zero
expect_says "/dev/zero: more than 1024 MiB of text: not a SASS listing of this toolkit"
# a FIFO fed without end (yes): the same bound on text, not on NUL bytes
mkfifo endless.fifo
yes '        /*0010*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;' >endless.fifo 2>/dev/null &
feeder=$!
expect_exit 1 $T "$B/sass_check" functions endless.fifo
expect_says "more than 1024 MiB of text"
kill "$feeder" 2>/dev/null; wait "$feeder" 2>/dev/null
expect_exit 1 $T "$B/srcsize" /dev/zero
expect_says "srcsize: /dev/zero is not a source file or a folder"
# a file larger than the memory allowed: a failure, not the end of the file
truncate -s 300M huge.c
if grep -q fsanitize "$ROOT/build/flags.stamp" 2>/dev/null; then
    echo "note: sanitizer build: the out-of-memory case is skipped"
else
    expect_exit 1 bash -c 'ulimit -v 200000; exec "$0" "$1"' "$B/srcsize" huge.c
    expect_says "srcsize: cannot read huge.c: out of memory"
fi
done_testing

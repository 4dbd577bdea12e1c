/*
 * shrink_log - a small seed for the fuzzers from a real log: its header and
 * its first K records (in chunks of K/2, so that the seed has two), written
 * with the toolkit's own writer.  Used by make_corpus.sh only.
 *
 *   shrink_log IN OUT K
 */
#include <stdio.h>
#include <stdlib.h>

#include "warplog.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: shrink_log IN OUT K\n");
        return 2;
    }
    char err[512];
    warplog_reader *r = warplog_reader_open(argv[1], err, sizeof err);
    if (!r) {
        fprintf(stderr, "shrink_log: %s\n", err);
        return 1;
    }
    size_t k = (size_t)strtoul(argv[3], NULL, 10);
    warp_record *rec = calloc(k ? k : 1, sizeof *rec);
    long got = 0, n;
    while ((size_t)got < k && (n = warplog_reader_next(r, rec + got, k - (size_t)got, err, sizeof err)) > 0)
        got += n;
    warplog_header h = *warplog_reader_header(r);
    warplog_reader_close(r);
    h.record_count = (uint64_t)got;
    h.chunk_records = got > 1 ? (uint32_t)got / 2 : 1;
    warplog_writer *w = warplog_writer_open(argv[2], &h, 9, err, sizeof err);
    if (!w || warplog_writer_put(w, rec, (size_t)got, err, sizeof err) != 0 ||
        warplog_writer_close(w, err, sizeof err) != 0) {
        fprintf(stderr, "shrink_log: %s\n", err);
        return 1;
    }
    free(rec);
    return 0;
}

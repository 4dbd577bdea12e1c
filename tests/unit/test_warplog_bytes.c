/*
 * test_warplog_bytes.c - the writer deflates chunks on several cores
 * (warplog_writer.c); what it writes must decompress to exactly the bytes
 * one stream of the format gives: the header, then each chunk's magic,
 * count and encoded records (warplog_int.h's codec, called here directly).
 * Random records, several seeds, counts on and around chunk and batch
 * boundaries, three zlib levels.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "check.h"
#include "warplog.h"
#include "warplog_int.h"
#include "synthprobes.h"

/* The decompressed bytes the format defines for these records. */
static uint8_t *expected(const warplog_header *h, const warp_record *r, uint64_t n, size_t *len)
{
    const uint32_t c = h->chunk_records;
    const uint64_t chunks = (n + c - 1) / c;
    *len = sizeof *h + chunks * 8 + n * sizeof *r;
    uint8_t *b = malloc(*len), *o = b;
    uint64_t *tmp = malloc((size_t)c * sizeof *tmp);
    memcpy(o, h, sizeof *h);
    o += sizeof *h;
    for (uint64_t i = 0; i < n; i += c) {
        const uint32_t k = (uint32_t)(n - i < c ? n - i : c), hdr[2] = {WARPLOG_CHUNK_MAGIC, k};
        memcpy(o, hdr, sizeof hdr);
        chunk_encode(o + sizeof hdr, r + i, k, tmp);
        o += sizeof hdr + (size_t)k * sizeof *r;
    }
    free(tmp);
    return b;
}

/* The file's bytes through zlib's own gzip reader; NULL if it is not one
 * whole gzip stream. */
static uint8_t *gunzip(const char *path, size_t cap, size_t *len)
{
    gzFile g = gzopen(path, "rb");
    uint8_t *b = malloc(cap + 1);
    int k;
    *len = 0;
    while (g && (k = gzread(g, b + *len, (unsigned)(cap + 1 - *len))) > 0) *len += (size_t)k;
    if (!g || gzclose(g) != Z_OK) {
        free(b);
        return NULL;
    }
    return b;
}

static warp_record *records(uint64_t n, uint64_t seed)
{
    warp_record *r = malloc((n ? n : 1) * sizeof *r);
    uint64_t s = seed, clk = synth_next(&s);
    for (uint64_t i = 0; i < n; i++) {
        clk += synth_next(&s) % 50;
        r[i].start_clk = clk;
        r[i].end_clk = clk + 600 + synth_next(&s) % 901;
        r[i].gtimer_ns = 1000000 + i * 7 + synth_next(&s) % 5;
        r[i].block = (uint32_t)(i / 4);
        r[i].warp = (uint8_t)(i % 4);
        r[i].region = 0;
        r[i].smid = (uint16_t)(synth_next(&s) % 132);
    }
    return r;
}

static void one(const char *path, uint64_t n, uint32_t chunk, int level, uint64_t seed)
{
    warplog_header h;
    warplog_header_init(&h);
    snprintf(h.experiment, sizeof h.experiment, "readonly");
    snprintf(h.kernel, sizeof h.kernel, "baseline");
    h.record_count = n;
    h.warps_per_block = 4;
    h.blocks = (n + 3) / 4;
    h.sm_count = 132;
    h.chunk_records = chunk;
    warp_record *r = records(n, seed);
    char err[512] = "";
    warplog_writer *w = warplog_writer_open(path, &h, level, err, sizeof err);
    CHECK(w != NULL);
    /* in uneven pieces, as logjob's batches never align with chunks */
    for (uint64_t i = 0; w && i < n;) {
        const uint64_t k = 1 + (i * 7919 + seed) % (3 * (uint64_t)chunk);
        const uint64_t m = n - i < k ? n - i : k;
        CHECK(warplog_writer_put(w, r + i, (size_t)m, err, sizeof err) == 0);
        i += m;
    }
    CHECK(w && warplog_writer_close(w, err, sizeof err) == 0);
    size_t want_len, got_len;
    uint8_t *want = expected(&h, r, n, &want_len), *got = gunzip(path, want_len, &got_len);
    CHECK(got != NULL);
    CHECK_EQ_U(got_len, want_len);
    CHECK(got && got_len == want_len && memcmp(got, want, want_len) == 0);
    /* and the toolkit's reader, which takes exactly one gzip member, reads it */
    warplog_reader *rd = warplog_reader_open(path, err, sizeof err);
    CHECK(rd != NULL);
    warp_record back[64];
    long long total = 0;
    long k;
    int same = 1;
    while (rd && (k = warplog_reader_next(rd, back, 64, err, sizeof err)) > 0) {
        same &= memcmp(back, r + total, (size_t)k * sizeof *back) == 0;
        total += k;
    }
    CHECK(same);
    CHECK_EQ_U(total, n);
    if (rd) warplog_reader_close(rd);
    free(want);
    free(got);
    free(r);
    unlink(path);
}

int main(void)
{
    char path[256];
    snprintf(path, sizeof path, "/tmp/test_warplog_bytes.%d.bin", (int)getpid());
    /* chunks of 1000: a batch is a chunk a core, at most 8 (warplog_writer.c) */
    const uint64_t counts[] = {0, 1, 999, 1000, 1001, 7999, 8000, 8001, 16000, 40123};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) one(path, counts[i], 1000, 1, seed);
    one(path, 50000, 1000, 6, 4);
    one(path, 50000, 1000, 9, 5);
    one(path, 300000, WARPLOG_CHUNK_RECORDS, 1, 6);   /* the default chunk */
    return check_report("test_warplog_bytes");
}

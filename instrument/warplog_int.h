/*
 * warplog_int.h - what the log's three rooms share (private to
 * instrument/): the header's checks and printing (warplog.c), the writer
 * (warplog_writer.c) and the reader (warplog_reader.c) share the error
 * sentence, the host's byte order and the chunk codec, written here once.
 *
 * Chunk encoding, and why.  A record is 32 bytes, most of them predictable:
 * the top bytes of a clock never change within a run, block ids count up,
 * warps cycle, latencies fit in two bytes.  Deflate only finds repeated byte
 * strings, so fed raw records it keeps ~15 bytes a record.  Each chunk is
 * therefore transformed before deflate, and back after inflate:
 *
 *   1. columns: the chunk's records are split into six columns (start_clk,
 *      end_clk, gtimer_ns, block, warp, smid);
 *   2. prediction: start_clk, gtimer_ns, block and warp are replaced by their
 *      difference from the previous record of the chunk (the first record
 *      from 0); end_clk by end_clk - start_clk (the latency); smid is kept;
 *      every difference is zigzag-coded (0,-1,1,-2 -> 0,1,2,3) so that small
 *      negative values have zero high bytes;
 *   3. byte planes: each column is written byte 0 of every value, then byte 1
 *      of every value, and so on (little-endian), so the constant high bytes
 *      become long runs of zeros.
 *
 * The transform is lossless.  The writer needs a few chunks of memory (2
 * MiB each at the default 65536 records; warplog_writer.c says how many);
 * the reader decodes the byte planes as they come out of inflate, so it
 * needs 40 bytes a record of the largest chunk it has met, never more than
 * WARPLOG_READER_MAX_BYTES.
 */
#ifndef WARPLAT_WARPLOG_INT_H
#define WARPLAT_WARPLOG_INT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "warplog.h"

static inline void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static inline int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

/* ------------------------------------------------------------ chunk codec */

static inline uint64_t zz_enc(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t zz_dec(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }
/* Narrow fields: the difference is taken modulo 2^32 (2^16), so it always
 * fits the column and decoding with the same wrap-around is exact. */
static inline uint32_t zz32_enc(uint32_t d) { return (d << 1) ^ (uint32_t)((int32_t)d >> 31); }
static inline uint32_t zz32_dec(uint32_t u) { return (u >> 1) ^ (0u - (u & 1u)); }
static inline uint16_t zz16_enc(uint16_t d) { return (uint16_t)((d << 1) ^ (uint16_t)((int16_t)d >> 15)); }
static inline uint16_t zz16_dec(uint16_t u) { return (uint16_t)((u >> 1) ^ (0u - (u & 1u))); }

/* Scatter width-byte values vals[0..n) into byte planes at out. */
static inline void planes_put(uint8_t *out, const uint64_t *vals, size_t n, int width)
{
    for (int b = 0; b < width; b++) {
        uint8_t *plane = out + (size_t)b * n;
        const int sh = 8 * b;
        for (size_t i = 0; i < n; i++) plane[i] = (uint8_t)(vals[i] >> sh);
    }
}

enum { COL_START, COL_END, COL_GT, COL_BLOCK, COL_WARP, COL_SMID, NCOLS };

/* The warp column holds warp | region << 8: the 16-bit warp field of
 * versions 1-2, whose high byte was 0. */
static inline uint16_t warp_region(const warp_record *r)
{
    return (uint16_t)(r->warp | (uint16_t)r->region << 8);
}
static const int col_width[NCOLS] = {8, 8, 8, 4, 2, 2}; /* sums to 32 */

static inline void chunk_encode(uint8_t *out, const warp_record *r, size_t n, uint64_t *tmp)
{
    uint8_t *o = out;
    for (int c = 0; c < NCOLS; c++) {
        uint64_t prev = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t v;
            switch (c) {
            case COL_START: v = zz_enc((int64_t)(r[i].start_clk - prev)); prev = r[i].start_clk; break;
            case COL_END:   v = zz_enc((int64_t)(r[i].end_clk - r[i].start_clk)); break;
            case COL_GT:    v = zz_enc((int64_t)(r[i].gtimer_ns - prev)); prev = r[i].gtimer_ns; break;
            case COL_BLOCK: v = zz32_enc(r[i].block - (uint32_t)prev); prev = r[i].block; break;
            case COL_WARP:  v = zz16_enc((uint16_t)(warp_region(&r[i]) - (uint16_t)prev)); prev = warp_region(&r[i]); break;
            default:        v = r[i].smid; break;
            }
            tmp[i] = v;
        }
        planes_put(o, tmp, n, col_width[c]);
        o += (size_t)col_width[c] * n;
    }
}

/* Undo the prediction of column c: tmp[0..n) holds its values. */
static inline void column_decode(warp_record *r, int c, const uint64_t *tmp, size_t n)
{
    uint64_t uprev = 0;
    for (size_t i = 0; i < n; i++) {
        switch (c) {
        case COL_START: uprev += (uint64_t)zz_dec(tmp[i]); r[i].start_clk = uprev; break;
        case COL_END:   r[i].end_clk = r[i].start_clk + (uint64_t)zz_dec(tmp[i]); break;
        case COL_GT:    uprev += (uint64_t)zz_dec(tmp[i]); r[i].gtimer_ns = uprev; break;
        case COL_BLOCK: uprev = (uint32_t)(uprev + zz32_dec((uint32_t)tmp[i])); r[i].block = (uint32_t)uprev; break;
        case COL_WARP:
            uprev = (uint16_t)(uprev + zz16_dec((uint16_t)tmp[i]));
            r[i].warp = (uint8_t)uprev;
            r[i].region = (uint8_t)(uprev >> 8);
            break;
        default: r[i].smid = (uint16_t)tmp[i]; break;
        }
    }
}

#endif

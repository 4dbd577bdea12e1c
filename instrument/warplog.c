/*
 * warplog.c - writer and reader of the per-warp log (format: warplog.h).
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
 * The transform is lossless and needs one chunk of memory (2 MiB at the
 * default 65536 records) in each direction.
 */
#define _POSIX_C_SOURCE 200809L
#include "warplog.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

/* ------------------------------------------------------------ header */

void warplog_header_init(warplog_header *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, WARPLOG_MAGIC, sizeof WARPLOG_MAGIC);
    h->version = WARPLOG_VERSION;
    h->header_bytes = WARPLOG_HEADER_BYTES;
    h->record_bytes = (uint32_t)sizeof(warp_record);
    h->chunk_records = WARPLOG_CHUNK_RECORDS;
    h->sample_blocks = 1;
    h->records_per_warp = 1;
    snprintf(h->toolkit_version, sizeof h->toolkit_version, "%s", WARPLOG_TOOLKIT_VERSION);
}

void warplog_expand_probe(const warp_probe *p, uint64_t index, uint32_t warps_per_block,
                          uint32_t records_per_warp, uint64_t gtimer_base_ns,
                          uint32_t *sm_ref_lo, uint8_t *sm_seen, warp_record *out)
{
    const uint32_t lat = p->lat_smid & WARP_PROBE_LAT_MAX;
    const unsigned sm = p->lat_smid >> 24;
    if (!sm_seen[sm]) {
        sm_seen[sm] = 1;
        sm_ref_lo[sm] = p->start_lo;
    }
    out->start_clk = (1ull << 32) + sm_ref_lo[sm] + (uint64_t)(int64_t)(int32_t)(p->start_lo - sm_ref_lo[sm]);
    out->end_clk = out->start_clk + lat;
    /* The run is far shorter than 2^32 ns (4.3 s), so the full timer is the
     * base plus the wrapped difference. */
    out->gtimer_ns = gtimer_base_ns + (uint32_t)(p->gtimer_lo - (uint32_t)gtimer_base_ns);
    if (records_per_warp == 0) records_per_warp = 1;
    if (warps_per_block == 0) warps_per_block = 1;
    out->block = p->block;
    out->warp = (uint16_t)((index / records_per_warp) % warps_per_block);
    out->smid = (uint16_t)sm;
}

/* Keep strings printable even if a file was written by something else. */
static void print_str(FILE *f, const char *pre, const char *key, const char *s, size_t cap)
{
    size_t n = strnlen(s, cap);
    fprintf(f, "%s%s\t%.*s\n", pre, key, (int)n, s);
}

void warplog_header_print(FILE *f, const warplog_header *h, const char *prefix)
{
    const char *p = prefix ? prefix : "";
#define U(k) fprintf(f, "%s" #k "\t%llu\n", p, (unsigned long long)h->k)
#define I(k) fprintf(f, "%s" #k "\t%lld\n", p, (long long)h->k)
#define D(k) fprintf(f, "%s" #k "\t%.6g\n", p, h->k)
#define S(k) print_str(f, p, #k, h->k, sizeof h->k)
    U(version); U(record_count); S(experiment); S(kernel); U(n_elems); U(elem_bytes);
    U(stride); U(seed); U(smem_bytes); U(warps_per_block); U(threads_per_block); U(blocks);
    U(blocks_per_sm); U(bytes_per_warp_load); U(loads_per_warp); I(carveout_pct);
    U(l2_fetch_bytes); U(reps);
    S(device_name); I(device_ordinal); S(device_uuid);
    fprintf(f, "%scompute_capability\t%d.%d\n", p, h->cc_major, h->cc_minor);
    I(sm_count); U(l2_bytes); U(bus_width_bits); U(mem_clock_khz); D(peak_dram_GBps);
    U(sm_clock_nominal_khz); D(sm_clock_measured_MHz); U(max_threads_per_sm);
    U(max_smem_per_sm); U(max_smem_optin_per_block); U(reserved_smem_per_block);
    I(driver_version); I(runtime_version);
    D(kernel_ms); D(kernel_ms_min); D(kernel_ms_max); D(clean_kernel_ms);
    D(clean_kernel_ms_min); D(clean_kernel_ms_max); D(overhead_pct); U(sample_blocks);
    U(sample_offset); U(sampled_blocks); U(records_per_warp); S(record_covers); S(config); D(useful_bytes);
    D(bytes_written); D(bw_GBps); D(ceiling_GBps); U(gtimer_base_ns); S(date);
    S(toolkit_version); S(host_arch);
#undef U
#undef I
#undef D
#undef S
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
static void planes_put(uint8_t *out, const uint64_t *vals, size_t n, int width)
{
    for (int b = 0; b < width; b++) {
        uint8_t *plane = out + (size_t)b * n;
        const int sh = 8 * b;
        for (size_t i = 0; i < n; i++) plane[i] = (uint8_t)(vals[i] >> sh);
    }
}

static void planes_get(uint64_t *vals, const uint8_t *in, size_t n, int width)
{
    for (size_t i = 0; i < n; i++) vals[i] = 0;
    for (int b = 0; b < width; b++) {
        const uint8_t *plane = in + (size_t)b * n;
        const int sh = 8 * b;
        for (size_t i = 0; i < n; i++) vals[i] |= (uint64_t)plane[i] << sh;
    }
}

enum { COL_START, COL_END, COL_GT, COL_BLOCK, COL_WARP, COL_SMID, NCOLS };
static const int col_width[NCOLS] = {8, 8, 8, 4, 2, 2}; /* sums to 32 */

static void chunk_encode(uint8_t *out, const warp_record *r, size_t n, uint64_t *tmp)
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
            case COL_WARP:  v = zz16_enc((uint16_t)(r[i].warp - (uint16_t)prev)); prev = r[i].warp; break;
            default:        v = r[i].smid; break;
            }
            tmp[i] = v;
        }
        planes_put(o, tmp, n, col_width[c]);
        o += (size_t)col_width[c] * n;
    }
}

/* Returns 0, or -1 when the planes cannot be decoded (kept for corrupt-data checks). */
static int chunk_decode(warp_record *r, const uint8_t *in, size_t n, uint64_t *tmp)
{
    const uint8_t *p = in;
    for (int c = 0; c < NCOLS; c++) {
        planes_get(tmp, p, n, col_width[c]);
        p += (size_t)col_width[c] * n;
        uint64_t uprev = 0;
        for (size_t i = 0; i < n; i++) {
            switch (c) {
            case COL_START: uprev += (uint64_t)zz_dec(tmp[i]); r[i].start_clk = uprev; break;
            case COL_END:   r[i].end_clk = r[i].start_clk + (uint64_t)zz_dec(tmp[i]); break;
            case COL_GT:    uprev += (uint64_t)zz_dec(tmp[i]); r[i].gtimer_ns = uprev; break;
            case COL_BLOCK: uprev = (uint32_t)(uprev + zz32_dec((uint32_t)tmp[i])); r[i].block = (uint32_t)uprev; break;
            case COL_WARP:  uprev = (uint16_t)(uprev + zz16_dec((uint16_t)tmp[i])); r[i].warp = (uint16_t)uprev; break;
            default: r[i].smid = (uint16_t)tmp[i]; break;
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------ writer */

struct warplog_writer {
    gzFile gz;
    char *path;
    char *tmp_path;
    uint64_t promised;
    uint64_t written;
    uint32_t chunk_records;
    warp_record *pending; /* records waiting to fill a chunk */
    size_t npending;
    uint8_t *enc;
    uint64_t *col;
};

static void writer_free(warplog_writer *w)
{
    if (!w) return;
    free(w->path);
    free(w->tmp_path);
    free(w->pending);
    free(w->enc);
    free(w->col);
    free(w);
}

void warplog_writer_abort(warplog_writer *w)
{
    if (!w) return;
    if (w->gz) gzclose(w->gz);
    unlink(w->tmp_path);
    writer_free(w);
}

static int gz_write_all(warplog_writer *w, const void *buf, size_t len, char *err, size_t errlen)
{
    const uint8_t *p = buf;
    while (len > 0) {
        unsigned piece = len > (1u << 30) ? (1u << 30) : (unsigned)len;
        int k = gzwrite(w->gz, p, piece);
        if (k <= 0) {
            int errnum = 0;
            const char *m = gzerror(w->gz, &errnum);
            set_err(err, errlen, "cannot write %s: %s", w->tmp_path,
                    errnum == Z_ERRNO ? strerror(errno) : m);
            return -1;
        }
        p += k;
        len -= (size_t)k;
    }
    return 0;
}

warplog_writer *warplog_writer_open(const char *path, const warplog_header *h, int level,
                                    char *err, size_t errlen)
{
    if (!host_is_little_endian()) {
        set_err(err, errlen, "this host is big-endian; the log format is little-endian");
        return NULL;
    }
    if (h->chunk_records == 0 || h->chunk_records > (1u << 24)) {
        set_err(err, errlen, "chunk_records must be between 1 and 2^24");
        return NULL;
    }
    warplog_writer *w = calloc(1, sizeof *w);
    if (!w) goto oom;
    w->path = strdup(path);
    w->tmp_path = malloc(strlen(path) + 5);
    w->chunk_records = h->chunk_records;
    w->pending = malloc((size_t)w->chunk_records * sizeof(warp_record));
    w->enc = malloc((size_t)w->chunk_records * sizeof(warp_record));
    w->col = malloc((size_t)w->chunk_records * sizeof(uint64_t));
    if (!w->path || !w->tmp_path || !w->pending || !w->enc || !w->col) goto oom;
    sprintf(w->tmp_path, "%s.tmp", path);
    w->promised = h->record_count;

    char mode[8];
    snprintf(mode, sizeof mode, "wb%d", level <= 0 || level > 9 ? 1 : level);
    w->gz = gzopen(w->tmp_path, mode);
    if (!w->gz) {
        set_err(err, errlen, "cannot create %s: %s", w->tmp_path, strerror(errno));
        writer_free(w);
        return NULL;
    }
    gzbuffer(w->gz, 1u << 18);
    if (gz_write_all(w, h, sizeof *h, err, errlen) != 0) {
        warplog_writer_abort(w);
        return NULL;
    }
    return w;
oom:
    set_err(err, errlen, "out of memory opening %s", path);
    writer_free(w);
    return NULL;
}

static int writer_flush_chunk(warplog_writer *w, char *err, size_t errlen)
{
    if (w->npending == 0) return 0;
    uint32_t hdr[2] = {WARPLOG_CHUNK_MAGIC, (uint32_t)w->npending};
    chunk_encode(w->enc, w->pending, w->npending, w->col);
    if (gz_write_all(w, hdr, sizeof hdr, err, errlen) != 0) return -1;
    if (gz_write_all(w, w->enc, w->npending * sizeof(warp_record), err, errlen) != 0) return -1;
    w->npending = 0;
    return 0;
}

int warplog_writer_put(warplog_writer *w, const warp_record *r, size_t n, char *err, size_t errlen)
{
    if (w->written + n > w->promised) {
        set_err(err, errlen, "more records (%llu) than the header promises (%llu)",
                (unsigned long long)(w->written + n), (unsigned long long)w->promised);
        return -1;
    }
    while (n > 0) {
        size_t room = w->chunk_records - w->npending;
        size_t k = n < room ? n : room;
        memcpy(w->pending + w->npending, r, k * sizeof *r);
        w->npending += k;
        w->written += k;
        r += k;
        n -= k;
        if (w->npending == w->chunk_records && writer_flush_chunk(w, err, errlen) != 0) return -1;
    }
    return 0;
}

int warplog_writer_close(warplog_writer *w, char *err, size_t errlen)
{
    int rc = -1;
    if (w->written != w->promised) {
        set_err(err, errlen, "%s: wrote %llu records but the header promises %llu; log discarded",
                w->path, (unsigned long long)w->written, (unsigned long long)w->promised);
        warplog_writer_abort(w);
        return -1;
    }
    if (writer_flush_chunk(w, err, errlen) != 0) {
        warplog_writer_abort(w);
        return -1;
    }
    int zrc = gzclose(w->gz);
    w->gz = NULL;
    if (zrc != Z_OK) {
        set_err(err, errlen, "cannot finish %s (zlib error %d)", w->tmp_path, zrc);
    } else if (rename(w->tmp_path, w->path) != 0) {
        set_err(err, errlen, "cannot rename %s to %s: %s", w->tmp_path, w->path, strerror(errno));
    } else {
        rc = 0;
    }
    if (rc != 0) unlink(w->tmp_path);
    writer_free(w);
    return rc;
}

/* ------------------------------------------------------------ reader */

struct warplog_reader {
    gzFile gz;
    char *path;
    warplog_header h;
    uint64_t seen;
    warp_record *recs; /* decoded chunk */
    uint8_t *enc;
    uint64_t *col;
    size_t have, pos;  /* records decoded / handed out from recs */
    int done;
    uint64_t bytes_out;     /* decompressed bytes read so far */
    uint32_t trailer_isize; /* the gzip trailer's length field (last 4 bytes) */
    int have_trailer;
};

/* Explain why gzread gave fewer bytes than asked for. */
static void explain_short_read(warplog_reader *r, const char *what, char *err, size_t errlen)
{
    int errnum = 0;
    const char *m = gzerror(r->gz, &errnum);
    if (errnum == Z_BUF_ERROR)
        set_err(err, errlen, "%s is truncated: the gzip stream ends in the middle of %s "
                "(was the run interrupted or the copy incomplete?)", r->path, what);
    else if (errnum == Z_DATA_ERROR)
        set_err(err, errlen, "%s is corrupt: the gzip stream cannot be decoded (%s)", r->path, m);
    else if (errnum == Z_ERRNO)
        set_err(err, errlen, "cannot read %s: %s", r->path, strerror(errno));
    else if (errnum != Z_OK)
        set_err(err, errlen, "cannot read %s: %s", r->path, m);
    else
        set_err(err, errlen, "%s is truncated: it ends in the middle of %s", r->path, what);
}

/* Read exactly len bytes. 1 = ok, 0 = clean end before any byte, -1 = error. */
static int read_exact(warplog_reader *r, void *buf, size_t len, const char *what,
                      char *err, size_t errlen)
{
    uint8_t *p = buf;
    size_t got = 0;
    while (got < len) {
        int k = gzread(r->gz, p + got, (unsigned)(len - got));
        if (k < 0) {
            explain_short_read(r, what, err, errlen);
            return -1;
        }
        if (k == 0) break;
        got += (size_t)k;
    }
    r->bytes_out += got;
    if (got == len) return 1;
    int errnum = 0;
    gzerror(r->gz, &errnum);
    if (got == 0 && errnum == Z_OK) return 0;
    explain_short_read(r, what, err, errlen);
    return -1;
}

void warplog_reader_close(warplog_reader *r)
{
    if (!r) return;
    if (r->gz) gzclose(r->gz);
    free(r->path);
    free(r->recs);
    free(r->enc);
    free(r->col);
    free(r);
}

warplog_reader *warplog_reader_open(const char *path, char *err, size_t errlen)
{
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char m2[2] = {0, 0}, tr[8];
    size_t nm = fread(m2, 1, 2, probe);
    int have_trailer = fseek(probe, -8, SEEK_END) == 0 && fread(tr, 1, 8, probe) == 8;
    fclose(probe);
    if (nm < 2 || m2[0] != 0x1f || m2[1] != 0x8b) {
        set_err(err, errlen, "%s is not a warp log: it is not a gzip stream%s", path,
                nm == 0 ? " (the file is empty)" : "");
        return NULL;
    }
    warplog_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        set_err(err, errlen, "out of memory opening %s", path);
        warplog_reader_close(r);
        return NULL;
    }
    r->have_trailer = have_trailer;
    if (have_trailer)
        r->trailer_isize = (uint32_t)tr[4] | (uint32_t)tr[5] << 8 | (uint32_t)tr[6] << 16 |
                           (uint32_t)tr[7] << 24;
    r->gz = gzopen(path, "rb");
    if (!r->gz) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        warplog_reader_close(r);
        return NULL;
    }
    gzbuffer(r->gz, 1u << 18);
    int k = read_exact(r, &r->h, sizeof r->h, "the header", err, errlen);
    if (k == 0) {
        set_err(err, errlen, "%s is not a warp log: the gzip stream is empty", path);
        goto fail;
    }
    if (k < 0) goto fail;
    if (memcmp(r->h.magic, WARPLOG_MAGIC, sizeof WARPLOG_MAGIC) != 0) {
        set_err(err, errlen, "%s is not a warp log: it is gzip, but does not start with "
                "the magic \"%s\"", path, WARPLOG_MAGIC);
        goto fail;
    }
    if (r->h.version != 1 && r->h.version != WARPLOG_VERSION) {
        set_err(err, errlen, "%s uses log format version %u; this build reads versions 1 "
                "to %u (rebuild the toolkit that wrote it, or re-run the experiment)",
                path, r->h.version, WARPLOG_VERSION);
        goto fail;
    }
    if (r->h.version == 1) {
        /* version 1 recorded every warp, one region each; its tail was zero */
        memset((char *)&r->h + offsetof(warplog_header, sample_blocks), 0,
               sizeof r->h - offsetof(warplog_header, sample_blocks));
        r->h.sample_blocks = 1;
        r->h.records_per_warp = 1;
        r->h.sampled_blocks = r->h.blocks;
    }
    if (r->h.header_bytes != WARPLOG_HEADER_BYTES || r->h.record_bytes != sizeof(warp_record)) {
        set_err(err, errlen, "%s declares a %u-byte header and %u-byte records; version %u "
                "has %u and %zu", path, r->h.header_bytes, r->h.record_bytes,
                WARPLOG_VERSION, WARPLOG_HEADER_BYTES, sizeof(warp_record));
        goto fail;
    }
    if (r->h.chunk_records == 0 || r->h.chunk_records > (1u << 24)) {
        set_err(err, errlen, "%s is corrupt: its header says %u records per chunk", path,
                r->h.chunk_records);
        goto fail;
    }
    r->recs = malloc((size_t)r->h.chunk_records * sizeof(warp_record));
    r->enc = malloc((size_t)r->h.chunk_records * sizeof(warp_record));
    r->col = malloc((size_t)r->h.chunk_records * sizeof(uint64_t));
    if (!r->recs || !r->enc || !r->col) {
        set_err(err, errlen, "out of memory reading %s", path);
        goto fail;
    }
    return r;
fail:
    warplog_reader_close(r);
    return NULL;
}

const warplog_header *warplog_reader_header(const warplog_reader *r) { return &r->h; }

/* Decode the next chunk into r->recs. 1 = got one, 0 = clean end, -1 = error. */
static int reader_fill(warplog_reader *r, char *err, size_t errlen)
{
    uint32_t hdr[2];
    if (!r->gz) {
        set_err(err, errlen, "%s: reading past an error or the end of the log", r->path);
        return -1;
    }
    int k = read_exact(r, hdr, sizeof hdr, "a chunk header", err, errlen);
    if (k < 0) return -1;
    if (k == 0) {
        /* zlib may report a stream cut inside its 8-byte trailer (CRC and
         * length) only when the file is closed, not through gzread: close it
         * now and look. */
        int zrc = gzclose(r->gz);
        r->gz = NULL;
        if (zrc == Z_BUF_ERROR) {
            set_err(err, errlen, "%s is truncated: the gzip stream ends before its trailer "
                    "(was the run interrupted or the copy incomplete?)", r->path);
            return -1;
        }
        if (zrc != Z_OK) {
            set_err(err, errlen, "%s is corrupt: the gzip stream does not end cleanly "
                    "(zlib error %d)", r->path, zrc);
            return -1;
        }
        /* ...and not always even then (a read that ends exactly at the end of
         * the deflate data skips the trailer check), so compare the trailer's
         * length field with what was decoded: a file cut short ends in other
         * bytes. */
        if (!r->have_trailer || (uint32_t)r->bytes_out != r->trailer_isize) {
            set_err(err, errlen, "%s is truncated: its gzip trailer is missing or does not "
                    "match the data (was the run interrupted or the copy incomplete?)", r->path);
            return -1;
        }
        if (r->seen != r->h.record_count) {
            set_err(err, errlen, "%s holds %llu records but its header says %llu", r->path,
                    (unsigned long long)r->seen, (unsigned long long)r->h.record_count);
            return -1;
        }
        return 0;
    }
    if (hdr[0] != WARPLOG_CHUNK_MAGIC || hdr[1] == 0 || hdr[1] > r->h.chunk_records) {
        set_err(err, errlen, "%s is corrupt: bad chunk header after %llu records", r->path,
                (unsigned long long)r->seen);
        return -1;
    }
    size_t n = hdr[1];
    if (r->seen + n > r->h.record_count) {
        set_err(err, errlen, "%s holds more records than its header says (%llu)", r->path,
                (unsigned long long)r->h.record_count);
        return -1;
    }
    if (read_exact(r, r->enc, n * sizeof(warp_record), "a chunk of records", err, errlen) != 1)
        return -1;
    if (chunk_decode(r->recs, r->enc, n, r->col) != 0) {
        set_err(err, errlen, "%s is corrupt: a chunk after %llu records does not decode",
                r->path, (unsigned long long)r->seen);
        return -1;
    }
    r->seen += n;
    r->have = n;
    r->pos = 0;
    return 1;
}

long warplog_reader_chunk(warplog_reader *r, const warp_record **recs, char *err, size_t errlen)
{
    if (r->done) return 0;
    if (r->pos >= r->have) {
        int k = reader_fill(r, err, errlen);
        if (k <= 0) {
            r->done = (k == 0);
            return k;
        }
    }
    *recs = r->recs + r->pos;
    long n = (long)(r->have - r->pos);
    r->pos = r->have;
    return n;
}

long warplog_reader_next(warplog_reader *r, warp_record *out, size_t max, char *err, size_t errlen)
{
    if (r->done || max == 0) return 0;
    if (r->pos >= r->have) {
        int k = reader_fill(r, err, errlen);
        if (k <= 0) {
            r->done = (k == 0);
            return k;
        }
    }
    size_t n = r->have - r->pos;
    if (n > max) n = max;
    memcpy(out, r->recs + r->pos, n * sizeof *out);
    r->pos += n;
    return (long)n;
}

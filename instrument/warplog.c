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
 * The transform is lossless.  The writer needs one chunk of memory (2 MiB at
 * the default 65536 records); the reader decodes the byte planes as they
 * come out of inflate, so it needs 40 bytes a record of the largest chunk
 * it has met, never more than WARPLOG_READER_MAX_BYTES.
 *
 * Why the reader drives inflate itself rather than through gzread: gzread
 * reads concatenated gzip members as one, ignores trailing garbage, and
 * reports a stream cut inside its trailer only at gzclose; the reader must
 * tell the user which of those it met (warplog.h), so it inflates exactly
 * one member and looks at what follows.
 */
#define _POSIX_C_SOURCE 200809L
#include "warplog.h"
#include "outfile.h" /* the toolkit's one writer: unique temporary, signals, devices */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
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

/* A double the header may hold: finite, normal (or zero) and in [lo, hi];
 * zero_ok allows 0 ("not measured") below lo. */
static int bad_double(const char *name, double v, double lo, double hi, int zero_ok,
                      char *err, size_t errlen)
{
    if (isnan(v) || isinf(v)) {
        set_err(err, errlen, "%s is %s", name, isnan(v) ? "not a number (NaN)" : "infinite");
        return 1;
    }
    if (v == 0 && zero_ok) return 0;
    if (fpclassify(v) == FP_SUBNORMAL) {
        set_err(err, errlen, "%s is %g, a denormal number no run writes", name, v);
        return 1;
    }
    if (v < lo || v > hi) {
        set_err(err, errlen, "%s is %g; it must be %sbetween %g and %g", name, v,
                zero_ok ? "0 (unknown) or " : "", lo, hi);
        return 1;
    }
    return 0;
}

/* A header string: NUL-terminated inside its field, no control characters
 * (they would reach a terminal or split a TSV row). */
static int bad_string(const char *name, const char *s, size_t cap, char *err, size_t errlen)
{
    size_t n = strnlen(s, cap);
    if (n == cap) {
        set_err(err, errlen, "%s is not NUL-terminated within its %zu bytes", name, cap);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            set_err(err, errlen, "%s holds the control character 0x%02x at byte %zu", name, c, i);
            return 1;
        }
    }
    return 0;
}

int warplog_name_check(const char *what, const char *name, size_t max, char *err, size_t errlen)
{
    const size_t n = name ? strnlen(name, max + 1) : 0;
    const char *why = NULL;
    size_t at = 0;
    if (n == 0) why = "is empty";
    else if (n > max) why = "is too long";
    else if (name[0] == '.') why = "starts with '.'";
    else
        for (; at < n && !why; at++) {
            const unsigned char c = (unsigned char)name[at];
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '.' || c == '-'))
                why = "holds a character outside [A-Za-z0-9_.-]";
        }
    if (!why) return 0;
    /* the name as data: control characters (a header's check refused them
     * first) would reach a terminal */
    char shown[48];
    size_t u = 0, i = 0;
    for (; name && i < n && u + 5 < sizeof shown; i++) {
        const unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
            u += (size_t)snprintf(shown + u, sizeof shown - u, "\\x%02x", c);
        else shown[u++] = (char)c;
    }
    shown[u] = 0;
    char where[32] = "";
    if (at) snprintf(where, sizeof where, " at byte %zu", at - 1);
    set_err(err, errlen, "%s \"%s%s\" %s%s; a name is 1 to %zu characters of [A-Za-z0-9_.-], "
            "not starting with '.'", what, shown, n > max || i < n ? "..." : "",
            why, where, max);
    return -1;
}

int warplog_header_check(const warplog_header *h, char *err, size_t errlen)
{
#define STR(k) if (bad_string(#k, h->k, sizeof h->k, err, errlen)) return -1
    STR(experiment); STR(kernel); STR(device_name); STR(date); STR(toolkit_version);
    STR(host_arch); STR(record_covers); STR(config);
#undef STR
    /* names become file names and chart titles: data, never paths or code */
    if (warplog_name_check("experiment", h->experiment, WARPLOG_NAME_MAX, err, errlen) ||
        warplog_name_check("kernel", h->kernel, WARPLOG_NAME_MAX, err, errlen))
        return -1;
    if (h->version >= WARPLOG_VERSION_REGIONS) {
        if (h->region_count < 1 || h->region_count > WARPLOG_MAX_REGIONS) {
            set_err(err, errlen, "region_count is %u; version %u needs between 1 and %u",
                    h->region_count, h->version, WARPLOG_MAX_REGIONS);
            return -1;
        }
        if (h->records_per_warp != h->region_count) {
            set_err(err, errlen, "records_per_warp is %u; with regions it must equal "
                    "region_count (%u)", h->records_per_warp, h->region_count);
            return -1;
        }
        for (uint32_t i = 0; i < WARPLOG_MAX_REGIONS; i++) {
            char name[32];
            snprintf(name, sizeof name, "region_names[%u]", i);
            if (bad_string(name, h->region_names[i], sizeof h->region_names[i], err, errlen))
                return -1;
            if (i < h->region_count && h->region_names[i][0] == '\0') {
                set_err(err, errlen, "region %u has no name", i);
                return -1;
            }
        }
        for (uint32_t i = 0; i < h->region_count; i++) {
            char name[32];
            snprintf(name, sizeof name, "region_names[%u]", i);
            if (warplog_name_check(name, h->region_names[i], WARPLOG_REGION_NAME_MAX, err, errlen))
                return -1;
            /* a region is found by its name (plot_latency --region, the
             * report's sections): two of one name would show one twice */
            for (uint32_t j = 0; j < i; j++)
                if (strcmp(h->region_names[j], h->region_names[i]) == 0) {
                    set_err(err, errlen, "regions %u and %u are both named \"%s\"; each region "
                            "needs a name of its own", j, i, h->region_names[i]);
                    return -1;
                }
        }
    } else if (h->region_count != 0) {
        set_err(err, errlen, "region_count is %u in a version-%u header (regions need "
                "version %u)", h->region_count, h->version, WARPLOG_VERSION_REGIONS);
        return -1;
    }
#define RANGE(k, lo, hi) do { if ((uint64_t)h->k < (lo) || (uint64_t)h->k > (hi)) { \
        set_err(err, errlen, #k " is %lld; it must be between %llu and %llu", (long long)h->k, \
                (unsigned long long)(lo), (unsigned long long)(hi)); return -1; } } while (0)
    if (h->chunk_records < 1 || h->chunk_records > WARPLOG_MAX_CHUNK_RECORDS) {
        set_err(err, errlen, "chunk_records is %u; it must be between 1 and %u", h->chunk_records,
                WARPLOG_MAX_CHUNK_RECORDS);
        return -1;
    }
    if (h->sm_count < 1 || h->sm_count > (int32_t)WARPLOG_MAX_SM_COUNT) {
        set_err(err, errlen, "sm_count is %d; it must be between 1 and %u", h->sm_count,
                WARPLOG_MAX_SM_COUNT);
        return -1;
    }
    RANGE(warps_per_block, 1, WARPLOG_MAX_WARPS_PER_BLOCK);
    RANGE(threads_per_block, 0, 32u * WARPLOG_MAX_WARPS_PER_BLOCK);
    RANGE(blocks_per_sm, 0, WARPLOG_MAX_BLOCKS_PER_SM);
    RANGE(records_per_warp, 1, WARPLOG_MAX_RECORDS_PER_WARP);
#undef RANGE
    const uint32_t K = h->sample_blocks;
    if (K == 0 || (K & (K - 1)) != 0) {
        set_err(err, errlen, "sample_blocks is %u; it must be a power of two (1 = every block)", K);
        return -1;
    }
    if (h->sample_offset >= K) {
        set_err(err, errlen, "sample_offset is %u; it must be below sample_blocks (%u)",
                h->sample_offset, K);
        return -1;
    }
#define D(k, lo, hi, z) if (bad_double(#k, h->k, lo, hi, z, err, errlen)) return -1
    D(peak_dram_GBps, 0, WARPLOG_MAX_GBPS, 0);
    D(sm_clock_measured_MHz, WARPLOG_MIN_CLOCK_MHZ, WARPLOG_MAX_CLOCK_MHZ, 1);
    D(kernel_ms, 0, WARPLOG_MAX_MS, 0);
    D(kernel_ms_min, 0, WARPLOG_MAX_MS, 0);
    D(kernel_ms_max, 0, WARPLOG_MAX_MS, 0);
    D(clean_kernel_ms, 0, WARPLOG_MAX_MS, 0);
    D(clean_kernel_ms_min, 0, WARPLOG_MAX_MS, 0);
    D(clean_kernel_ms_max, 0, WARPLOG_MAX_MS, 0);
    D(overhead_pct, -100, WARPLOG_MAX_MS, 0);
    D(useful_bytes, 0, WARPLOG_MAX_BYTES, 0);
    D(bytes_written, 0, WARPLOG_MAX_BYTES, 0);
    D(bw_GBps, 0, WARPLOG_MAX_GBPS, 0);
    D(ceiling_GBps, 0, WARPLOG_MAX_GBPS, 0);
#undef D
    return 0;
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
    out->warp = (uint8_t)((index / records_per_warp) % warps_per_block);
    out->region = 0;
    out->smid = (uint16_t)sm;
}

/* Strings are printed as written, except control characters (\xNN): a
 * header that did not come through the reader (which refuses them) must
 * still not send escape sequences to a terminal or split a TSV line. */
static void print_str(FILE *f, const char *pre, const char *key, const char *s, size_t cap)
{
    size_t n = strnlen(s, cap);
    fprintf(f, "%s%s\t", pre, key);
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) fprintf(f, "\\x%02x", c);
        else fputc(c, f);
    }
    fputc('\n', f);
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
    if (h->region_count > 0) {
        U(region_count);
        for (uint32_t i = 0; i < h->region_count && i < WARPLOG_MAX_REGIONS; i++) {
            char key[16];
            snprintf(key, sizeof key, "region_%u", i);
            print_str(f, p, key, h->region_names[i], sizeof h->region_names[i]);
            fprintf(f, "%sregion_%u_bytes_per_warp\t%u\n", p, i, h->region_bytes_per_warp[i]);
        }
    }
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

enum { COL_START, COL_END, COL_GT, COL_BLOCK, COL_WARP, COL_SMID, NCOLS };

/* The warp column holds warp | region << 8: the 16-bit warp field of
 * versions 1-2, whose high byte was 0. */
static inline uint16_t warp_region(const warp_record *r)
{
    return (uint16_t)(r->warp | (uint16_t)r->region << 8);
}
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
static void column_decode(warp_record *r, int c, const uint64_t *tmp, size_t n)
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

/* ------------------------------------------------------------ writer */

struct warplog_writer {
    gzFile gz;
    outfile out;     /* the one writer (src/lib/outfile.h): unique temporary */
    char *path;
    const char *tmp_path; /* outfile_name(&out), for messages */
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
    free(w->pending);
    free(w->enc);
    free(w->col);
    free(w);
}

void warplog_writer_abort(warplog_writer *w)
{
    if (!w) return;
    if (w->gz) gzclose(w->gz);
    outfile_abort(&w->out);
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
            set_err(err, errlen, "cannot write %s: %s", w->path,
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
    /* Never write a log the reader would refuse. */
    char why[256];
    if (warplog_header_check(h, why, sizeof why) != 0) {
        set_err(err, errlen, "refusing to write %s: its header's %s", path, why);
        return NULL;
    }
    warplog_writer *w = calloc(1, sizeof *w);
    if (!w) goto oom;
    w->path = strdup(path);
    w->chunk_records = h->chunk_records;
    w->pending = malloc((size_t)w->chunk_records * sizeof(warp_record));
    w->enc = malloc((size_t)w->chunk_records * sizeof(warp_record));
    w->col = malloc((size_t)w->chunk_records * sizeof(uint64_t));
    if (!w->path || !w->pending || !w->enc || !w->col) goto oom;
    w->promised = h->record_count;

    char mode[8];
    snprintf(mode, sizeof mode, "wb%d", level <= 0 || level > 9 ? 1 : level);
    /* zlib writes through its own descriptor (a dup); the outfile keeps
     * the original for the fsync and the rename */
    FILE *f = outfile_open(&w->out, path, "wb", err, errlen);
    if (!f) {
        writer_free(w);
        return NULL;
    }
    w->tmp_path = outfile_name(&w->out);
    int fd = dup(fileno(f));
    w->gz = fd < 0 ? NULL : gzdopen(fd, mode);
    if (!w->gz) {
        set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        outfile_abort(&w->out);
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
        set_err(err, errlen, "cannot write %s: %s", w->path,
                zrc == Z_ERRNO ? strerror(errno) : "zlib error");
        outfile_abort(&w->out);
    } else if (outfile_commit(&w->out, err, errlen) == 0) {
        rc = 0;
    }
    writer_free(w);
    return rc;
}

/* ------------------------------------------------------------ reader */

#define IN_BYTES (1u << 16)    /* compressed input buffer */
#define PLANE_BYTES (1u << 16) /* decompressed byte-plane piece */

enum zstate { Z_STATE_OK, Z_STATE_END, Z_STATE_TRUNC, Z_STATE_CORRUPT, Z_STATE_IO, Z_STATE_NOMEM };

struct warplog_reader {
    char *path;               /* the name in messages */
    int fd;                   /* -1 when reading memory */
    const uint8_t *mem;       /* memory source */
    size_t mem_len, mem_pos;
    uint8_t *in;              /* input buffer (file source) */
    int in_eof;               /* the source has no more bytes */
    int io_errno;
    z_stream zs;
    int zinit;
    enum zstate zst;
    warplog_header h;
    uint64_t seen;            /* records decoded so far */
    warp_record *recs;        /* the decoded chunk */
    uint64_t *col;            /* one column while its planes arrive */
    uint8_t *plane;           /* PLANE_BYTES of one plane */
    size_t cap;               /* records recs and col can hold */
    size_t have, pos;         /* records decoded / handed out from recs */
    int done, failed;
};

/* Give inflate more input.  0 ok (possibly at the end), -1 read error. */
static int src_fill(warplog_reader *r)
{
    if (r->in_eof) return 0;
    if (r->fd < 0) {
        size_t left = r->mem_len - r->mem_pos;
        size_t k = left > UINT_MAX ? UINT_MAX : left;
        r->zs.next_in = (Bytef *)(r->mem + r->mem_pos);
        r->zs.avail_in = (uInt)k;
        r->mem_pos += k;
        if (r->mem_pos == r->mem_len) r->in_eof = 1;
        return 0;
    }
    ssize_t k;
    do k = read(r->fd, r->in, IN_BYTES); while (k < 0 && errno == EINTR);
    if (k < 0) {
        r->io_errno = errno;
        return -1;
    }
    r->zs.next_in = r->in;
    r->zs.avail_in = (uInt)k;
    if (k == 0) r->in_eof = 1;
    return 0;
}

/* Inflate up to len bytes into buf.  Returns the count; fewer than len only
 * when r->zst is no longer Z_STATE_OK (end of the member, or an error). */
static size_t zread(warplog_reader *r, void *buf, size_t len)
{
    r->zs.next_out = buf;
    r->zs.avail_out = (uInt)len;
    while (r->zs.avail_out > 0 && r->zst == Z_STATE_OK) {
        if (r->zs.avail_in == 0 && !r->in_eof && src_fill(r) != 0) {
            r->zst = Z_STATE_IO;
            break;
        }
        int zrc = inflate(&r->zs, Z_NO_FLUSH);
        if (zrc == Z_STREAM_END) r->zst = Z_STATE_END;
        else if (zrc == Z_MEM_ERROR) r->zst = Z_STATE_NOMEM;
        else if (zrc == Z_DATA_ERROR || zrc == Z_NEED_DICT || zrc == Z_STREAM_ERROR) r->zst = Z_STATE_CORRUPT;
        else if (zrc == Z_BUF_ERROR && r->zs.avail_in > 0) r->zst = Z_STATE_CORRUPT; /* no progress */
        else if (r->zs.avail_in == 0 && r->in_eof && r->zs.avail_out > 0)
            /* inflate took every byte there is and still wants more */
            r->zst = Z_STATE_TRUNC;
    }
    return len - r->zs.avail_out;
}

/* Why zread stopped short, as a sentence about reading `what`. */
static void explain_short(warplog_reader *r, const char *what, char *err, size_t errlen)
{
    switch (r->zst) {
    case Z_STATE_END:
        set_err(err, errlen, "%s is truncated: its gzip stream is complete but ends in the "
                "middle of %s (was it written by a run that failed?)", r->path, what);
        break;
    case Z_STATE_TRUNC:
        set_err(err, errlen, "%s is truncated: the gzip stream ends in the middle of %s "
                "(was the run interrupted or the copy incomplete?)", r->path, what);
        break;
    case Z_STATE_CORRUPT:
        set_err(err, errlen, "%s is corrupt: the gzip stream cannot be decoded (%s)", r->path,
                r->zs.msg ? r->zs.msg : "bad data");
        break;
    case Z_STATE_IO:
        set_err(err, errlen, "cannot read %s: %s", r->path, strerror(r->io_errno));
        break;
    case Z_STATE_NOMEM:
        set_err(err, errlen, "out of memory reading %s", r->path);
        break;
    default:
        set_err(err, errlen, "%s: internal error reading %s", r->path, what);
        break;
    }
}

/* Read exactly len bytes: 1 ok, 0 the stream ended cleanly before any byte,
 * -1 error (err filled). */
static int read_exact(warplog_reader *r, void *buf, size_t len, const char *what,
                      char *err, size_t errlen)
{
    size_t got = zread(r, buf, len);
    if (got == len) return 1;
    if (got == 0 && r->zst == Z_STATE_END) return 0;
    explain_short(r, what, err, errlen);
    return -1;
}

/* After the gzip member: nothing may follow.  0, or -1 with a sentence. */
static int check_after_end(warplog_reader *r, char *err, size_t errlen)
{
    unsigned char first[2];
    size_t n = 0;
    while (n < 2) {
        if (r->zs.avail_in == 0) {
            if (r->in_eof) break;
            if (src_fill(r) != 0) {
                set_err(err, errlen, "cannot read %s: %s", r->path, strerror(r->io_errno));
                return -1;
            }
            continue;
        }
        first[n++] = *r->zs.next_in++;
        r->zs.avail_in--;
    }
    if (n == 0) return 0;
    if (n == 2 && first[0] == 0x1f && first[1] == 0x8b)
        set_err(err, errlen, "%s holds a second gzip stream after the log (were two files "
                "concatenated?); a warp log is exactly one", r->path);
    else
        set_err(err, errlen, "%s has data after the end of its gzip stream (appended to, or "
                "not a warp log?)", r->path);
    return -1;
}

void warplog_reader_close(warplog_reader *r)
{
    if (!r) return;
    if (r->zinit) inflateEnd(&r->zs);
    if (r->fd >= 0) close(r->fd);
    free(r->path);
    free(r->in);
    free(r->recs);
    free(r->col);
    free(r->plane);
    free(r);
}

/* Common to both sources: r has its source; check the gzip magic, inflate
 * and validate the header.  Frees r on failure. */
static warplog_reader *reader_start(warplog_reader *r, char *err, size_t errlen)
{
    /* the first two bytes, without consuming them */
    while (r->zs.avail_in < 2 && !r->in_eof) {
        if (r->fd < 0) {
            if (src_fill(r) != 0) break;
            continue;
        }
        /* a file: keep what was read (pipes may give one byte at a time) */
        size_t have = r->zs.avail_in;
        if (have) memmove(r->in, r->zs.next_in, have);
        ssize_t k;
        do k = read(r->fd, r->in + have, IN_BYTES - have); while (k < 0 && errno == EINTR);
        if (k < 0) {
            set_err(err, errlen, "cannot read %s: %s", r->path, strerror(errno));
            goto fail;
        }
        if (k == 0) r->in_eof = 1;
        r->zs.next_in = r->in;
        r->zs.avail_in = (uInt)(have + (size_t)k);
    }
    if (r->zs.avail_in < 2 || r->zs.next_in[0] != 0x1f || r->zs.next_in[1] != 0x8b) {
        set_err(err, errlen, "%s is not a warp log: %s", r->path,
                r->zs.avail_in == 0 ? "the file is empty" : "it is not a gzip stream");
        goto fail;
    }
    /* 15 + 16: a gzip wrapper only, whose CRC and length inflate checks */
    if (inflateInit2(&r->zs, 15 + 16) != Z_OK) {
        set_err(err, errlen, "out of memory opening %s", r->path);
        goto fail;
    }
    r->zinit = 1;
    int k = read_exact(r, &r->h, sizeof r->h, "the header", err, errlen);
    if (k == 0) {
        set_err(err, errlen, "%s is not a warp log: the gzip stream is empty", r->path);
        goto fail;
    }
    if (k < 0) goto fail;
    if (memcmp(r->h.magic, WARPLOG_MAGIC, sizeof WARPLOG_MAGIC) != 0) {
        set_err(err, errlen, "%s is not a warp log: it is gzip, but does not start with "
                "the magic \"%s\"", r->path, WARPLOG_MAGIC);
        goto fail;
    }
    if (r->h.version < 1 || r->h.version > WARPLOG_VERSION_MAX) {
        set_err(err, errlen, "%s uses log format version %u; this build reads versions 1 "
                "to %u (rebuild the toolkit that wrote it, or re-run the experiment)",
                r->path, r->h.version, WARPLOG_VERSION_MAX);
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
                "has %u and %zu", r->path, r->h.header_bytes, r->h.record_bytes,
                r->h.version, WARPLOG_HEADER_BYTES, sizeof(warp_record));
        goto fail;
    }
    char why[256];
    if (warplog_header_check(&r->h, why, sizeof why) != 0) {
        set_err(err, errlen, "%s is corrupt: its header's %s", r->path, why);
        goto fail;
    }
    return r;
fail:
    warplog_reader_close(r);
    return NULL;
}

static warplog_reader *reader_new(const char *name, char *err, size_t errlen)
{
    warplog_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(name))) {
        set_err(err, errlen, "out of memory opening %s", name);
        free(r);
        return NULL;
    }
    r->fd = -1;
    return r;
}

warplog_reader *warplog_reader_open(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        set_err(err, errlen, "%s is a directory, not a warp log", path);
        close(fd);
        return NULL;
    }
    warplog_reader *r = reader_new(path, err, errlen);
    if (!r) {
        close(fd);
        return NULL;
    }
    r->fd = fd;
    if (!(r->in = malloc(IN_BYTES))) {
        set_err(err, errlen, "out of memory opening %s", path);
        warplog_reader_close(r);
        return NULL;
    }
    return reader_start(r, err, errlen);
}

warplog_reader *warplog_reader_open_mem(const void *buf, size_t len, const char *name,
                                        char *err, size_t errlen)
{
    warplog_reader *r = reader_new(name ? name : "(log in memory)", err, errlen);
    if (!r) return NULL;
    r->mem = buf;
    r->mem_len = len;
    r->in_eof = len == 0;
    return reader_start(r, err, errlen);
}

const warplog_header *warplog_reader_header(const warplog_reader *r) { return &r->h; }

/* Room for n records; -1 out of memory. */
static int reserve(warplog_reader *r, size_t n)
{
    if (n <= r->cap) return 0;
    free(r->recs);
    free(r->col);
    r->recs = malloc(n * sizeof *r->recs);
    r->col = malloc(n * sizeof *r->col);
    if (!r->plane) r->plane = malloc(PLANE_BYTES);
    if (!r->recs || !r->col || !r->plane) {
        r->cap = 0;
        return -1;
    }
    r->cap = n;
    return 0;
}

/* Decode n records from the byte planes as inflate delivers them. */
static int chunk_read(warplog_reader *r, size_t n, char *err, size_t errlen)
{
    for (int c = 0; c < NCOLS; c++) {
        memset(r->col, 0, n * sizeof *r->col);
        for (int b = 0; b < col_width[c]; b++) {
            const int sh = 8 * b;
            for (size_t i = 0; i < n;) {
                size_t piece = n - i < PLANE_BYTES ? n - i : PLANE_BYTES;
                if (read_exact(r, r->plane, piece, "a chunk of records", err, errlen) != 1) {
                    if (r->zst == Z_STATE_END)
                        explain_short(r, "a chunk of records", err, errlen);
                    return -1;
                }
                for (size_t k = 0; k < piece; k++) r->col[i + k] |= (uint64_t)r->plane[k] << sh;
                i += piece;
            }
        }
        column_decode(r->recs, c, r->col, n);
    }
    return 0;
}

/* Decode the next chunk into r->recs. 1 = got one, 0 = clean end, -1 = error. */
static int reader_fill(warplog_reader *r, char *err, size_t errlen)
{
    uint32_t hdr[2];
    if (r->failed) {
        set_err(err, errlen, "%s: reading past an error", r->path);
        return -1;
    }
    char what[96];
    snprintf(what, sizeof what, "the records (after %llu of them)", (unsigned long long)r->seen);
    int k = read_exact(r, hdr, sizeof hdr, what, err, errlen);
    if (k < 0) return -1;
    if (k == 0) {
        if (check_after_end(r, err, errlen) != 0) return -1;
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
    if (n > r->h.record_count - r->seen) {
        set_err(err, errlen, "%s holds more records than its header says (%llu)", r->path,
                (unsigned long long)r->h.record_count);
        return -1;
    }
    if (reserve(r, n) != 0) {
        set_err(err, errlen, "out of memory reading %s", r->path);
        return -1;
    }
    if (chunk_read(r, n, err, errlen) != 0) return -1;
    r->seen += n;
    r->have = n;
    r->pos = 0;
    return 1;
}

/* Refill when empty: 1 records are ready, 0 the end, -1 error. */
static int ensure(warplog_reader *r, char *err, size_t errlen)
{
    if (r->pos < r->have) return 1;
    int k = reader_fill(r, err, errlen);
    if (k == 0) r->done = 1;
    if (k < 0) r->failed = 1;
    return k;
}

long warplog_reader_chunk(warplog_reader *r, const warp_record **recs, char *err, size_t errlen)
{
    if (r->done) return 0;
    int k = ensure(r, err, errlen);
    if (k <= 0) return k;
    *recs = r->recs + r->pos;
    long n = (long)(r->have - r->pos);
    r->pos = r->have;
    return n;
}

long warplog_reader_next(warplog_reader *r, warp_record *out, size_t max, char *err, size_t errlen)
{
    if (r->done || max == 0) return 0;
    int k = ensure(r, err, errlen);
    if (k <= 0) return k;
    size_t n = r->have - r->pos;
    if (n > max) n = max;
    memcpy(out, r->recs + r->pos, n * sizeof *out);
    r->pos += n;
    return (long)n;
}

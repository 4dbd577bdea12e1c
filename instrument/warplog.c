/*
 * warplog.c - the per-warp log's header (format: warplog.h): its defaults,
 * its checks, its key/value printing, and a probe expanded into a record.
 * The writer is warplog_writer.c, the reader warplog_reader.c; what the
 * three share (the chunk codec and why it is so) is warplog_int.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "warplog.h"
#include "warplog_int.h"

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

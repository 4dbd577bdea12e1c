/*
 * test_warplog.c - the log library: round trip, every rejection with its
 * sentence, no partial file on failure, bounded memory on a big log.
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <glob.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "warplog.h"

static char dir[256];

static void path_of(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* A deterministic record set that looks like a real run. */
static void make_records(warp_record *r, uint64_t n, uint32_t wpb)
{
    uint64_t x = 0x12345;
    for (uint64_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        r[i].block = (uint32_t)(i / wpb);
        r[i].warp = (uint8_t)(i % wpb);
        r[i].smid = (uint16_t)((i / wpb) % 132);
        r[i].start_clk = 1000000000000ull + i * 7 + (x >> 54);
        r[i].end_clk = r[i].start_clk + 400 + (x >> 56);
        r[i].gtimer_ns = 1700000000000000000ull + i * 3;
    }
}

static void make_header(warplog_header *h, uint64_t n, uint32_t wpb)
{
    warplog_header_init(h);
    snprintf(h->experiment, sizeof h->experiment, "readonly");
    snprintf(h->kernel, sizeof h->kernel, "baseline");
    snprintf(h->device_name, sizeof h->device_name, "Test GPU");
    h->record_count = n;
    h->warps_per_block = wpb;
    h->blocks = (n + wpb - 1) / wpb;
    h->sm_count = 132;
    h->sm_clock_measured_MHz = 1755.5;
}

static int write_log(const char *path, const warp_record *r, uint64_t n, uint64_t promise,
                     uint32_t chunk, char *err, size_t errlen)
{
    warplog_header h;
    make_header(&h, promise, 4);
    if (chunk) h.chunk_records = chunk;
    warplog_writer *w = warplog_writer_open(path, &h, 1, err, errlen);
    if (!w) return -1;
    if (warplog_writer_put(w, r, (size_t)n, err, errlen) != 0) {
        warplog_writer_abort(w);
        return -1;
    }
    return warplog_writer_close(w, err, errlen);
}

/* Read a whole log; returns records read or -1 (err filled). */
static long long read_all(const char *path, warp_record *out, uint64_t cap, char *err, size_t errlen)
{
    warplog_reader *r = warplog_reader_open(path, err, errlen);
    if (!r) return -1;
    long long total = 0;
    long k;
    while ((k = warplog_reader_next(r, out ? out + total : NULL, out ? cap - (uint64_t)total : 0,
                                    err, errlen)) > 0)
        total += k;
    warplog_reader_close(r);
    return k < 0 ? -1 : total;
}

static long long count_all(const char *path, char *err, size_t errlen)
{
    warplog_reader *r = warplog_reader_open(path, err, errlen);
    if (!r) return -1;
    long long total = 0;
    const warp_record *rec;
    long k;
    while ((k = warplog_reader_chunk(r, &rec, err, errlen)) > 0) total += k;
    warplog_reader_close(r);
    return k < 0 ? -1 : total;
}

static long file_size(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long s = ftell(f);
    fclose(f);
    return s;
}

/* 1 when the writer's temporary (PATH.XXXXXX.tmp, outfile.h) or an old
 * PATH.tmp is beside path. */
static int temporary_beside(const char *path)
{
    char pat[600];
    snprintf(pat, sizeof pat, "%s.*tmp", path);
    glob_t g;
    const int found = glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0;
    globfree(&g);
    return found;
}

static void test_round_trip(void)
{
    enum { N = 200003 };
    warp_record *r = malloc(N * sizeof *r), *back = calloc(N, sizeof *back);
    char path[512], err[512] = "";
    make_records(r, N, 4);
    path_of(path, sizeof path, "rt.bin");
    CHECK(write_log(path, r, N, N, 0, err, sizeof err) == 0);
    CHECK(access(path, F_OK) == 0);
    CHECK(!temporary_beside(path)); /* renamed into place */
    CHECK_EQ_I(read_all(path, back, N, err, sizeof err), N);
    CHECK(memcmp(r, back, N * sizeof *r) == 0);
    /* header survives */
    warplog_reader *rd = warplog_reader_open(path, err, sizeof err);
    CHECK(rd != NULL);
    if (rd) {
        const warplog_header *h = warplog_reader_header(rd);
        CHECK_EQ_U(h->record_count, N);
        CHECK(strcmp(h->kernel, "baseline") == 0);
        CHECK_NEAR(h->sm_clock_measured_MHz, 1755.5, 0);
        warplog_reader_close(rd);
    }
    /* extreme values survive the delta/zigzag coding */
    warp_record ex[4] = {
        {UINT64_MAX, UINT64_MAX, 0, UINT32_MAX, UINT8_MAX, UINT8_MAX, UINT16_MAX},
        {0, 0, UINT64_MAX, 0, 0, 0, 0},
        {5, 3, 1, 7, 9, 0, 131},
        {1ull << 63, (1ull << 63) - 1, 1ull << 62, 1u << 31, 0, 1u << 7, 255},
    };
    warp_record exb[4];
    path_of(path, sizeof path, "extreme.bin");
    CHECK(write_log(path, ex, 4, 4, 3, err, sizeof err) == 0); /* 2 chunks: 3 + 1 */
    CHECK_EQ_I(read_all(path, exb, 4, err, sizeof err), 4);
    CHECK(memcmp(ex, exb, sizeof ex) == 0);
    free(r);
    free(back);
}

static void test_probe_expand(void)
{
    uint32_t ref[WARP_PROBE_MAX_SMS];
    uint8_t seen[WARP_PROBE_MAX_SMS] = {0};
    /* first probe of SM 5 sets its reference; the low word wraps after it */
    warp_probe p = {0xfffffff0u, 0x05000321u, 0x00000010u, 2};
    warp_record r;
    uint64_t base = 0x00000007fffffff0ull;
    warplog_expand_probe(&p, 10, 4, 1, base, ref, seen, &r);
    CHECK_EQ_U(r.start_clk, (1ull << 32) + 0xfffffff0u);
    CHECK_EQ_U(r.end_clk - r.start_clk, 0x321);
    CHECK_EQ_U(r.smid, 5);
    CHECK_EQ_U(r.block, 2);
    CHECK_EQ_U(r.warp, 2);
    CHECK_EQ_U(r.gtimer_ns, 0x0000000800000010ull);
    /* a later probe of the same SM whose low word wrapped past 2^32: 0x20 cycles later */
    warp_probe q = {0x00000010u, 0x05000010u, 0x00000020u, 0};
    warp_record r2;
    warplog_expand_probe(&q, 11, 4, 1, base, ref, seen, &r2);
    CHECK_EQ_U(r2.start_clk - r.start_clk, 0x20);
    /* and one that started earlier than the reference */
    warp_probe e = {0xffffff00u, 0x05000001u, 0, 0};
    warplog_expand_probe(&e, 12, 4, 1, base, ref, seen, &r2);
    CHECK_EQ_I((int64_t)(r2.start_clk - r.start_clk), -0xf0);
    /* the latency saturates at 24 bits; the SM id is the top byte */
    warp_probe s = {7, 0xffffffffu, 0, 0};
    warplog_expand_probe(&s, 0, 1, 1, 0, ref, seen, &r2);
    CHECK_EQ_U(r2.end_clk - r2.start_clk, WARP_PROBE_LAT_MAX);
    CHECK_EQ_U(r2.smid, 255);
    /* sampled: the block comes from the probe (block 96 = the 7th recorded
     * block at K = 16), the warp from the index; two regions per warp */
    warp_probe t = {100, 0x01000010u, 0, 96};
    warplog_expand_probe(&t, 6 * 8 + 5, 4, 2, 0, ref, seen, &r2);
    CHECK_EQ_U(r2.block, 96);
    CHECK_EQ_U(r2.warp, 2);   /* (53 / 2) % 4 */
}

static void expect_reject(const char *name, const char *needle)
{
    char path[512], err[512] = "";
    path_of(path, sizeof path, name);
    long long k = count_all(path, err, sizeof err);
    CHECK(k == -1);
    CHECK_STR_HAS(err, needle);
}

static void write_raw(const char *name, const void *buf, size_t len, int gzip)
{
    char path[512];
    path_of(path, sizeof path, name);
    if (gzip) {
        gzFile g = gzopen(path, "wb");
        gzwrite(g, buf, (unsigned)len);
        gzclose(g);
    } else {
        FILE *f = fopen(path, "wb");
        fwrite(buf, 1, len, f);
        fclose(f);
    }
}

static void test_rejections(void)
{
    char path[512], err[512];
    enum { N = 100000 };
    warp_record *r = malloc(N * sizeof *r);
    make_records(r, N, 4);

    /* missing file */
    expect_reject("does-not-exist.bin", "cannot open");
    /* not gzip at all */
    write_raw("plain.bin", "hello, this is not a log\n", 25, 0);
    expect_reject("plain.bin", "not a gzip stream");
    write_raw("empty.bin", "", 0, 0);
    expect_reject("empty.bin", "empty");
    /* gzip, wrong magic */
    char junk[2048];
    memset(junk, 'x', sizeof junk);
    write_raw("magic.bin", junk, sizeof junk, 1);
    expect_reject("magic.bin", "magic");
    /* unknown version */
    warplog_header h;
    make_header(&h, 0, 4);
    h.version = 99;
    write_raw("version.bin", &h, sizeof h, 1);
    expect_reject("version.bin", "version 99");
    /* header cut short inside the gzip stream */
    make_header(&h, 0, 4);
    write_raw("shorthdr.bin", &h, 100, 1);
    expect_reject("shorthdr.bin", "truncated");

    /* a good log, then damaged copies */
    path_of(path, sizeof path, "good.bin");
    CHECK(write_log(path, r, N, N, 0, err, sizeof err) == 0);
    long size = file_size(path);
    CHECK(size > 1000);
    char *bytes = malloc((size_t)size);
    FILE *f = fopen(path, "rb");
    CHECK(fread(bytes, 1, (size_t)size, f) == (size_t)size);
    fclose(f);
    /* truncated: the gzip stream stops in the middle */
    write_raw("trunc.bin", bytes, (size_t)size / 2, 0);
    expect_reject("trunc.bin", "truncated");
    /* truncated by just the trailer (CRC and length) */
    write_raw("trunc8.bin", bytes, (size_t)size - 4, 0);
    expect_reject("trunc8.bin", "truncated");
    /* corrupt: flip bytes in the deflate data */
    for (long i = size / 3; i < size / 3 + 16; i++) bytes[i] ^= 0x5a;
    write_raw("corrupt.bin", bytes, (size_t)size, 0);
    expect_reject("corrupt.bin", "corrupt");
    free(bytes);

    /* record count that disagrees with the header: more promised than present */
    make_header(&h, N + 5, 4);
    path_of(path, sizeof path, "count.bin");
    gzFile g = gzopen(path, "wb");
    gzwrite(g, &h, sizeof h);
    gzclose(g);
    expect_reject("count.bin", "holds 0 records but its header says 100005");

    /* the writer refuses to finish a log with missing records, and leaves no file */
    warplog_header hw;
    make_header(&hw, 10, 4);
    path_of(path, sizeof path, "partial.bin");
    warplog_writer *w = warplog_writer_open(path, &hw, 1, err, sizeof err);
    CHECK(w != NULL);
    CHECK(warplog_writer_put(w, r, 5, err, sizeof err) == 0);
    CHECK(warplog_writer_close(w, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "promises 10");
    CHECK(access(path, F_OK) != 0);
    CHECK(!temporary_beside(path));
    /* and refuses more records than promised */
    w = warplog_writer_open(path, &hw, 1, err, sizeof err);
    CHECK(warplog_writer_put(w, r, 11, err, sizeof err) == -1);
    warplog_writer_abort(w);
    CHECK(!temporary_beside(path));
    /* unwritable destination */
    CHECK(warplog_writer_open("/nonexistent-dir/x.bin", &hw, 1, err, sizeof err) == NULL);
    CHECK_STR_HAS(err, "cannot write /nonexistent-dir/x.bin");
    free(r);
}

/* A header that a reader must refuse, with the sentence it must contain;
 * the writer must refuse it too. */
static void expect_bad_header(const warplog_header *h, const char *needle)
{
    char path[512], err[512] = "";
    path_of(path, sizeof path, "badhdr.bin");
    write_raw("badhdr.bin", h, sizeof *h, 1);
    warplog_reader *r = warplog_reader_open(path, err, sizeof err);
    CHECK(r == NULL);
    warplog_reader_close(r);
    CHECK_STR_HAS(err, needle);
    CHECK_STR_HAS(err, "badhdr.bin is corrupt: its header's ");
    path_of(path, sizeof path, "neverwritten.bin");
    err[0] = 0;
    warplog_writer *w = warplog_writer_open(path, h, 1, err, sizeof err);
    CHECK(w == NULL);
    if (w) warplog_writer_abort(w);
    CHECK_STR_HAS(err, needle);
    CHECK(access(path, F_OK) != 0);
}

static void test_header_values(void)
{
    warplog_header h;
#define BAD(code, needle) do { make_header(&h, 0, 4); code; expect_bad_header(&h, needle); } while (0)
    BAD(h.sm_count = 0, "sm_count is 0; it must be between 1 and 256");
    BAD(h.sm_count = -3, "sm_count is -3");
    BAD(h.sm_count = 65536, "sm_count is 65536");
    BAD(h.warps_per_block = 0, "warps_per_block is 0; it must be between 1 and 32");
    BAD(h.warps_per_block = 33, "warps_per_block is 33");
    BAD(h.records_per_warp = 0, "records_per_warp is 0");
    BAD(h.blocks_per_sm = 5000, "blocks_per_sm is 5000");
    BAD(h.chunk_records = 1u << 24, "chunk_records is 16777216; it must be between 1 and 131072");
    BAD(h.chunk_records = 0, "chunk_records is 0");
    BAD(h.sample_blocks = 3, "sample_blocks is 3; it must be a power of two");
    BAD(h.sample_blocks = 0, "sample_blocks is 0");
    BAD((h.sample_blocks = 8, h.sample_offset = 8), "sample_offset is 8; it must be below sample_blocks (8)");
    BAD(h.sm_clock_measured_MHz = NAN, "sm_clock_measured_MHz is not a number (NaN)");
    BAD(h.sm_clock_measured_MHz = INFINITY, "sm_clock_measured_MHz is infinite");
    BAD(h.sm_clock_measured_MHz = 4.9e-320, "sm_clock_measured_MHz is 4.90014e-320, a denormal");
    BAD(h.sm_clock_measured_MHz = 0.5, "sm_clock_measured_MHz is 0.5; it must be 0 (unknown) or between 1 and");
    BAD(h.sm_clock_measured_MHz = -1755, "sm_clock_measured_MHz is -1755");
    BAD(h.peak_dram_GBps = -INFINITY, "peak_dram_GBps is infinite");
    BAD(h.kernel_ms = -1, "kernel_ms is -1");
    BAD(h.overhead_pct = NAN, "overhead_pct is not a number");
    BAD(h.bw_GBps = 1e300, "bw_GBps is 1e+300");
    BAD(h.kernel[3] = '\033', "kernel holds the control character 0x1b at byte 3");
    BAD(h.device_name[0] = '\n', "device_name holds the control character 0x0a at byte 0");
    BAD(memset(h.experiment, 'x', sizeof h.experiment), "experiment is not NUL-terminated");
#undef BAD
    /* what runs do write is fine: zero for "not measured", a negative overhead */
    make_header(&h, 0, 4);
    h.sm_clock_measured_MHz = 0;
    h.overhead_pct = -3.5;
    h.kernel_ms = 0;
    char err[256] = "";
    CHECK_EQ_I(warplog_header_check(&h, err, sizeof err), 0);
    /* the printer escapes control characters of a header that did not come
     * through the reader */
    snprintf(h.kernel, sizeof h.kernel, "a\tb\033[2Jc");
    FILE *f = tmpfile();
    warplog_header_print(f, &h, "# ");
    rewind(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    CHECK_STR_HAS(text, "# kernel\ta\\x09b\\x1b[2Jc\n");
    CHECK(strchr(text, '\033') == NULL);
}

/* Version 3: named regions.  The region byte shares the 16-bit column that
 * versions 1-2 wrote as the warp, so their files read with region 0; a
 * version-3 header needs 1..16 named regions and records_per_warp equal to
 * their count; the printer lists them; records keep their region. */
static void test_regions(void)
{
    warp_record ref = {0};
    ref.warp = 7;
    uint16_t as16;
    memcpy(&as16, &ref.warp, 2);
    CHECK_EQ_U(as16, 7);          /* a version-2 warp field of 7: warp 7, region 0 */

    warplog_header h;
    char err[256] = "", path[512];
    make_header(&h, 8, 4);
    h.version = WARPLOG_VERSION_REGIONS;
    h.region_count = 2;
    h.records_per_warp = 2;
    snprintf(h.region_names[0], sizeof h.region_names[0], "gather");
    snprintf(h.region_names[1], sizeof h.region_names[1], "reduce");
    h.region_bytes_per_warp[0] = 6144;
    CHECK_EQ_I(warplog_header_check(&h, err, sizeof err), 0);

    warp_record r[8];
    make_records(r, 8, 4);
    for (int i = 0; i < 8; i++) r[i].region = (uint8_t)(i % 2);
    path_of(path, sizeof path, "regions.bin");
    warplog_writer *w = warplog_writer_open(path, &h, 1, err, sizeof err);
    CHECK(w != NULL);
    if (w) {
        CHECK_EQ_I(warplog_writer_put(w, r, 8, err, sizeof err), 0);
        CHECK_EQ_I(warplog_writer_close(w, err, sizeof err), 0);
    }
    warp_record back[8];
    CHECK_EQ_I(read_all(path, back, 8, err, sizeof err), 8);
    CHECK(memcmp(r, back, sizeof r) == 0);
    CHECK_EQ_U(back[5].region, 1);
    warplog_reader *rd = warplog_reader_open(path, err, sizeof err);
    CHECK(rd != NULL);
    if (rd) {
        const warplog_header *hb = warplog_reader_header(rd);
        CHECK_EQ_U(hb->version, 3);
        CHECK_EQ_U(hb->region_count, 2);
        CHECK(strcmp(hb->region_names[1], "reduce") == 0);
        CHECK_EQ_U(hb->region_bytes_per_warp[0], 6144);
        warplog_reader_close(rd);
    }
    FILE *f = tmpfile();
    warplog_header_print(f, &h, "");
    rewind(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    CHECK_STR_HAS(text, "region_count\t2\nregion_0\tgather\nregion_0_bytes_per_warp\t6144\n"
                        "region_1\treduce\n");

    /* a version-2 header prints no region lines, and may not carry regions */
    make_header(&h, 8, 4);
    f = tmpfile();
    warplog_header_print(f, &h, "");
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    CHECK(strstr(text, "region_") == NULL);
#define BAD(code, needle) do { make_header(&h, 0, 4); h.version = 3; h.region_count = 1; \
        snprintf(h.region_names[0], sizeof h.region_names[0], "a"); code; \
        expect_bad_header(&h, needle); } while (0)
    BAD(h.region_count = 0, "region_count is 0; version 3 needs between 1 and 16");
    BAD(h.region_count = 17, "region_count is 17");
    BAD((h.region_count = 2, h.records_per_warp = 2), "region 1 has no name");
    BAD(h.records_per_warp = 2, "records_per_warp is 2; with regions it must equal region_count (1)");
    BAD(h.region_names[0][0] = '\033', "region_names[0] holds the control character 0x1b");
    BAD(memset(h.region_names[3], 'x', 16), "region_names[3] is not NUL-terminated");
    BAD((h.version = 2), "region_count is 1 in a version-2 header (regions need version 3)");
    /* issue 35: a region's name becomes a file name and a chart title, so
     * the reader (and the writer) take only the API's names */
#define NAMED(i, s) snprintf(h.region_names[i], sizeof h.region_names[i], "%s", s)
    BAD(NAMED(0, "/../../../../x"), "region_names[0] \"/../../../../x\" holds a character outside "
        "[A-Za-z0-9_.-] at byte 0; a name is 1 to 15 characters of [A-Za-z0-9_.-], not starting with '.'");
    BAD(NAMED(0, ".."), "region_names[0] \"..\" starts with '.'");
    BAD(NAMED(0, ".x"), "region_names[0] \".x\" starts with '.'");
    BAD(NAMED(0, "a/b"), "region_names[0] \"a/b\" holds a character outside [A-Za-z0-9_.-] at byte 1");
    BAD(NAMED(0, "x'y"), "region_names[0] \"x'y\" holds a character outside");
    BAD(NAMED(0, "sys(\"t\")"), "region_names[0] \"sys(\\x22t\\x22)\" holds a character outside "
        "[A-Za-z0-9_.-] at byte 3");
    BAD(NAMED(0, "a\\b"), "region_names[0] \"a\\x5cb\" holds");
    BAD(NAMED(0, "caf\xc3\xa9"), "region_names[0] \"caf\\xc3\\xa9\" holds a character outside "
        "[A-Za-z0-9_.-] at byte 3");
    /* every region is checked, not only the first */
    BAD((h.region_count = 2, h.records_per_warp = 2, NAMED(1, "b"), NAMED(1, "b b")),
        "region_names[1] \"b b\" holds a character outside");
    /* two regions of one name: the second would show the first's numbers */
    BAD((h.region_count = 3, h.records_per_warp = 3, NAMED(1, "b"), NAMED(2, "a")),
        "regions 0 and 2 are both named \"a\"; each region needs a name of its own");
#undef NAMED
#undef BAD
    /* the experiment and the kernel: the same rule, 31 characters */
#define BAD(code, needle) do { make_header(&h, 0, 4); code; expect_bad_header(&h, needle); } while (0)
    BAD(snprintf(h.kernel, sizeof h.kernel, "../k"), "kernel \"../k\" starts with '.'");
    BAD(snprintf(h.kernel, sizeof h.kernel, "k/../../x"), "kernel \"k/../../x\" holds a character outside "
        "[A-Za-z0-9_.-] at byte 1; a name is 1 to 31 characters");
    BAD(h.kernel[0] = 0, "kernel \"\" is empty");
    BAD(snprintf(h.experiment, sizeof h.experiment, "a b"), "experiment \"a b\" holds a character outside");
#undef BAD
    /* valid names of every shape are taken, and read back unchanged */
    make_header(&h, 0, 4);
    h.version = 3;
    h.region_count = 4;
    h.records_per_warp = 4;
    snprintf(h.region_names[0], 16, "a");
    snprintf(h.region_names[1], 16, "v1.2-x_Y..z");
    snprintf(h.region_names[2], 16, "fifteen_chars_x");
    snprintf(h.region_names[3], 16, "0");
    snprintf(h.kernel, sizeof h.kernel, "thirty_one_characters_long_xxxx");
    CHECK_EQ_I(warplog_header_check(&h, err, sizeof err), 0);
    /* the rule on its own: lengths are the caller's */
    CHECK_EQ_I(warplog_name_check("n", "abc", 3, err, sizeof err), 0);
    CHECK_EQ_I(warplog_name_check("n", "abcd", 3, err, sizeof err), -1);
    CHECK_STR_HAS(err, "n \"abcd...\" is too long; a name is 1 to 3 characters");
    CHECK_EQ_I(warplog_name_check("n", NULL, 3, err, sizeof err), -1);
    CHECK_EQ_I(warplog_name_check("n", "\n", 3, NULL, 0), -1);
    /* a version this build does not know */
    make_header(&h, 0, 4);
    h.version = 4;
    path_of(path, sizeof path, "v4.bin");
    write_raw("v4.bin", &h, sizeof h, 1);
    CHECK(warplog_reader_open(path, err, sizeof err) == NULL);
    CHECK_STR_HAS(err, "uses log format version 4; this build reads versions 1 to 3");
}

/* The gzip stream around the log: what follows it, and what is not a file. */
static void test_stream_edges(void)
{
    enum { N = 1000 };
    warp_record r[N];
    make_records(r, N, 4);
    char path[512], err[512];
    path_of(path, sizeof path, "edge.bin");
    CHECK(write_log(path, r, N, N, 0, err, sizeof err) == 0);
    long size = file_size(path);
    char *bytes = malloc((size_t)size * 2 + 16);
    FILE *f = fopen(path, "rb");
    CHECK(fread(bytes, 1, (size_t)size, f) == (size_t)size);
    fclose(f);

    /* a directory is not "an empty file" */
    expect_reject(".", "is a directory, not a warp log");
    /* trailing junk is not truncation */
    memcpy(bytes + size, "JUNKJUNK", 8);
    write_raw("junk.bin", bytes, (size_t)size + 8, 0);
    expect_reject("junk.bin", "junk.bin has data after the end of its gzip stream");
    write_raw("junk1.bin", bytes, (size_t)size + 1, 0);
    expect_reject("junk1.bin", "has data after the end of its gzip stream");
    /* nor is a second gzip member (two logs concatenated) */
    memcpy(bytes + size, bytes, (size_t)size);
    write_raw("two.bin", bytes, (size_t)size * 2, 0);
    expect_reject("two.bin", "two.bin holds a second gzip stream after the log");
    /* a bad CRC is corruption */
    bytes[size - 6] ^= 1;
    write_raw("crc.bin", bytes, (size_t)size, 0);
    expect_reject("crc.bin", "crc.bin is corrupt: the gzip stream cannot be decoded (incorrect data check)");
    bytes[size - 6] ^= 1;

    /* the same log from memory reads the same */
    warplog_reader *m = warplog_reader_open_mem(bytes, (size_t)size, "mem", err, sizeof err);
    CHECK(m != NULL);
    warp_record back[N];
    long k = 0, total = 0;
    while (m && (k = warplog_reader_next(m, back + total, N - (size_t)total, err, sizeof err)) > 0)
        total += k;
    CHECK_EQ_I(total, N);
    CHECK(memcmp(back, r, sizeof r) == 0);
    warplog_reader_close(m);
    m = warplog_reader_open_mem(bytes, (size_t)size - 1, "cut", err, sizeof err);
    CHECK(m != NULL);
    while (m && (k = warplog_reader_next(m, back, N, err, sizeof err)) > 0) {}
    CHECK_EQ_I(k, -1);
    CHECK_STR_HAS(err, "cut is truncated");
    /* and a reader that failed keeps failing */
    CHECK_EQ_I(warplog_reader_next(m, back, N, err, sizeof err), -1);
    warplog_reader_close(m);
    CHECK(warplog_reader_open_mem("", 0, "nothing", err, sizeof err) == NULL);
    CHECK_STR_HAS(err, "nothing is not a warp log: the file is empty");

    /* the largest chunk the format allows reads back; the reader allocates
     * for the chunks it meets, so a header promising the largest costs
     * nothing until such a chunk comes */
    enum { BIG = WARPLOG_MAX_CHUNK_RECORDS };
    warp_record *big = malloc(BIG * sizeof *big);
    make_records(big, BIG, 4);
    path_of(path, sizeof path, "bigchunk.bin");
    CHECK(write_log(path, big, BIG, BIG, BIG, err, sizeof err) == 0);
    CHECK_EQ_I(count_all(path, err, sizeof err), BIG);
    free(big);
    free(bytes);
}

/* Peak RSS (KiB) of a child that reads the whole log; -1 if it failed. */
static long child_peak_rss_kb(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        char err[512];
        _exit(count_all(path, err, sizeof err) < 0 ? 1 : 0);
    }
    int status = 0;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
        return -1;
    return ru.ru_maxrss;
}

/* Millions of records stream through in bounded memory: the reader's peak
 * resident size must not grow with the log. */
static void test_big_log_bounded(void)
{
    const uint64_t n = 3000000;
    char path[512], err[512];
    path_of(path, sizeof path, "big.bin");
    warplog_header h;
    make_header(&h, n, 4);
    warplog_writer *w = warplog_writer_open(path, &h, 1, err, sizeof err);
    CHECK(w != NULL);
    if (!w) return;
    enum { B = 10000 };
    warp_record *r = malloc(B * sizeof *r);
    for (uint64_t i = 0; i < n; i += B) {
        make_records(r, B, 4);
        for (int k = 0; k < B; k++) r[k].block = (uint32_t)((i + (uint64_t)k) / 4);
        CHECK(warplog_writer_put(w, r, B, err, sizeof err) == 0);
    }
    free(r);
    CHECK(warplog_writer_close(w, err, sizeof err) == 0);
    long bytes = file_size(path);
    printf("big log: %llu records, %ld bytes, %.2f bytes/record\n", (unsigned long long)n, bytes,
           (double)bytes / (double)n);
    CHECK(bytes < (long)(n * 12)); /* vs 32 raw */

    /* read it in a child process, and a 1-chunk log in another: the peak
     * resident sizes must not differ by more than a few chunks */
    char small[512];
    path_of(small, sizeof small, "small.bin");
    warp_record one[8];
    make_records(one, 8, 4);
    CHECK(write_log(small, one, 8, 8, 0, err, sizeof err) == 0);
    long rss_big = child_peak_rss_kb(path), rss_small = child_peak_rss_kb(small);
    printf("reader peak RSS: %ld KiB for %llu records, %ld KiB for 8\n", rss_big,
           (unsigned long long)n, rss_small);
    CHECK(rss_big > 0 && rss_small > 0);
    CHECK(rss_big - rss_small < 12 * 1024); /* the decoded log is 96 MB */
}

/* Sampling: exactly one block of each group of K records, at the offset. */
static void test_sampling(void)
{
    for (uint32_t K = 1; K <= 1024; K *= 2)
        for (uint32_t off = 0; off < K; off += K / 4 + 1) {
            for (uint32_t g = 0; g < 64; g++) {
                uint32_t n = 0;
                for (uint32_t b = g * K; b < (g + 1) * K; b++)
                    if (warplog_block_sampled(b, K, off)) {
                        n++;
                        CHECK_EQ_U(b - g * K, off);
                    }
                if (n != 1) { CHECK_EQ_U(n, 1); break; }
            }
        }
    CHECK(warplog_block_sampled(12345, 1, 0));
    /* the count of recording blocks, partial last group included */
    for (uint32_t K = 1; K <= 64; K *= 2)
        for (uint32_t off = 0; off < K; off += 3)
            for (uint64_t blocks = 1; blocks < 300; blocks += 7) {
                uint64_t n = 0, maxg = 0;
                for (uint32_t b = 0; b < blocks; b++)
                    if (warplog_block_sampled(b, K, off)) n++, maxg = b / K;
                CHECK_EQ_U(warplog_sampled_blocks(blocks, K, off), n);
                if (n) CHECK_EQ_U(maxg + 1, n);   /* dense: groups 0..n-1 */
            }
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/test_warplog.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_big_log_bounded(); /* first, while this process is still small */
    test_probe_expand();
    test_sampling();
    test_round_trip();
    test_rejections();
    test_header_values();
    test_regions();
    test_stream_edges();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (!getenv("KEEP") && system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_warplog");
}

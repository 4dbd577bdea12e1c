/*
 * test_ncu_csv - the Nsight Compute CSV reader against the fixtures in
 * tests/fixtures/ncu/ (two real H100 captures and synthetic files for the
 * layouts and failures no device run has produced yet; see the README
 * there) and against small strings.  Run from the repository root
 * (tests/run.sh does).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "ncu_csv.h"

#define FIX "tests/fixtures/ncu/"

static const char *L1 = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
static const char *REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
static const char *L2 = "lts__t_sectors_srcunit_tex_op_read.sum";
static const char *DRAM = "dram__sectors_read.sum";
static const char *TIME = "gpu__time_duration.sum";

static double val(const ncu_table *t, size_t launch, const char *metric)
{
    const ncu_value *v = ncu_table_find(t, launch, metric);
    return v && v->has_value ? v->value : -1;
}

static void test_numbers(void)
{
    double v = 0;
    CHECK_EQ_I(ncu_parse_number("1,250,000", &v), 0);
    CHECK_NEAR(v, 1250000, 0);
    CHECK_EQ_I(ncu_parse_number("805,561,855,670.10", &v), 0);
    CHECK_NEAR(v, 805561855670.10, 1e-3);
    CHECK_EQ_I(ncu_parse_number(" 42.00 ", &v), 0);
    CHECK_NEAR(v, 42, 0);
    CHECK_EQ_I(ncu_parse_number("-3.5e+03", &v), 0);
    CHECK_NEAR(v, -3500, 0);
    CHECK_EQ_I(ncu_parse_number("0", &v), 0);
    CHECK_NEAR(v, 0, 0);
    CHECK_EQ_I(ncu_parse_number("n/a", &v), -1);
    CHECK_EQ_I(ncu_parse_number("", &v), -1);
    CHECK_EQ_I(ncu_parse_number("1,25", &v), -1);     /* not a thousands group */
    CHECK_EQ_I(ncu_parse_number("1,2345", &v), -1);
    CHECK_EQ_I(ncu_parse_number(",123", &v), -1);
    CHECK_EQ_I(ncu_parse_number("(256, 1, 1)", &v), -1);
    CHECK_EQ_I(ncu_parse_number("12 ms", &v), -1);
}

static void test_split_and_units(void)
{
    char line[] = "\"a,b\",\"say \"\"hi\"\"\",,plain,\"\"";
    char *f[8];
    int n = ncu_csv_split(line, f, 8);
    CHECK_EQ_I(n, 5);
    if (n == 5) {
        CHECK(strcmp(f[0], "a,b") == 0);
        CHECK(strcmp(f[1], "say \"hi\"") == 0);
        CHECK(strcmp(f[2], "") == 0);
        CHECK(strcmp(f[3], "plain") == 0);
        CHECK(strcmp(f[4], "") == 0);
    }
    char bad[] = "\"open,field";
    CHECK_EQ_I(ncu_csv_split(bad, f, 8), -1);

    CHECK_NEAR(ncu_unit_factor("nsecond"), 1, 0);
    CHECK_NEAR(ncu_unit_factor("ns"), 1, 0);
    CHECK_NEAR(ncu_unit_factor("usecond"), 1e3, 0);
    CHECK_NEAR(ncu_unit_factor("msecond"), 1e6, 0);
    CHECK_NEAR(ncu_unit_factor("second"), 1e9, 0);
    /* rates are not times: the prefix scales the quantity (bytes per second) */
    CHECK_NEAR(ncu_unit_factor("Gbyte/second"), 1e9, 0);
    CHECK_NEAR(ncu_unit_factor("Mbyte/second"), 1e6, 0);
    CHECK_NEAR(ncu_unit_factor("byte/second"), 1, 0);
    CHECK_NEAR(ncu_unit_factor("Gbyte/s"), 1e9, 0);
    CHECK_NEAR(ncu_unit_factor("sector"), 1, 0);
    CHECK_NEAR(ncu_unit_factor("Msector"), 1e6, 0);
    CHECK_NEAR(ncu_unit_factor("Kbyte"), 1e3, 0);
    CHECK_NEAR(ncu_unit_factor("%"), 1, 0);
    CHECK_NEAR(ncu_unit_factor(""), 1, 0);
}

/* A real capture, default (long) layout, ncu 2025: unit "ns", requests
 * without a unit, thousands separators, a ==WARNING== line first. */
static void test_real_default(void)
{
    ncu_table t;
    char err[512] = "";
    int rc = ncu_table_read(FIX "h100_real_default.csv", &t, err, sizeof err);
    CHECK_EQ_I(rc, NCU_OK);
    if (rc != NCU_OK) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    CHECK_EQ_I(t.wide, 0);
    CHECK_EQ_U(t.nlaunches, 2);
    CHECK(strcmp(t.launches[0].kernel, "readonly_baseline") == 0);
    CHECK(strcmp(t.launches[1].kernel, "readonly_strided") == 0);
    CHECK_EQ_I(t.launches[1].id, 1);
    CHECK_NEAR(val(&t, 0, REQ), 312500, 0);
    CHECK_NEAR(val(&t, 0, L1), 1250000, 0);
    CHECK_NEAR(val(&t, 0, DRAM), 1250232, 0);
    CHECK_NEAR(val(&t, 1, L1), 5000000, 0);
    CHECK_NEAR(val(&t, 1, L2), 5000000, 0);
    CHECK_NEAR(val(&t, 1, DRAM), 4035696, 0);
    CHECK_NEAR(val(&t, 1, TIME), 52032, 0);
    const ncu_value *v = ncu_table_find(&t, 0, TIME);
    CHECK(v && strcmp(v->unit, "ns") == 0);
    v = ncu_table_find(&t, 0, REQ);
    CHECK(v && strcmp(v->unit, "") == 0);
    v = ncu_table_find(&t, 1, "dram__bytes_read.sum.per_second");
    CHECK(v && v->has_value && v->value > 2.4e12);
    CHECK(ncu_table_find(&t, 0, "no_such_metric") == NULL);
    CHECK_EQ_I(ncu_table_has_metric(&t, DRAM), 1);
    ncu_table_free(&t);
}

/* A real capture with --page raw: one row per launch, a units row, many
 * device__attribute_* columns. */
static void test_real_raw(void)
{
    ncu_table t;
    char err[512] = "";
    int rc = ncu_table_read(FIX "h100_real_raw.csv", &t, err, sizeof err);
    CHECK_EQ_I(rc, NCU_OK);
    if (rc != NCU_OK) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    CHECK_EQ_I(t.wide, 1);
    CHECK_EQ_U(t.nlaunches, 2);
    CHECK(strcmp(t.launches[1].kernel, "readonly_random_access") == 0);
    CHECK_NEAR(val(&t, 0, L1), 1250000, 0);
    CHECK_NEAR(val(&t, 1, L1), 11249874, 0);
    CHECK_NEAR(val(&t, 1, L2), 11243760, 0);
    CHECK_NEAR(val(&t, 1, DRAM), 9992840, 0);
    CHECK_NEAR(val(&t, 1, REQ), 625000, 0);
    CHECK_NEAR(val(&t, 1, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.avg"), 85226.32, 1e-6);
    const ncu_value *v = ncu_table_find(&t, 1, TIME);
    CHECK(v && strcmp(v->unit, "ns") == 0);
    v = ncu_table_find(&t, 1, DRAM);
    CHECK(v && strcmp(v->unit, "sector") == 0);
    /* identity columns are not metrics */
    CHECK(ncu_table_find(&t, 0, "Block Size") == NULL);
    CHECK(ncu_table_find(&t, 0, "Kernel Name") == NULL);
    ncu_table_free(&t);
}

static void test_synthetic(void)
{
    ncu_table t;
    char err[512] = "";
    /* older header with "Kernel Time", a signature in the kernel name */
    CHECK_EQ_I(ncu_table_read(FIX "long_v2023.csv", &t, err, sizeof err), NCU_OK);
    CHECK_EQ_U(t.nlaunches, 1);
    CHECK_STR_HAS(t.nlaunches ? t.launches[0].kernel : "", "readonly_strided(const float *");
    CHECK_NEAR(val(&t, 0, TIME), 412.58, 1e-9);
    const ncu_value *v = ncu_table_find(&t, 0, TIME);
    CHECK(v && strcmp(v->unit, "usecond") == 0);
    CHECK_NEAR(val(&t, 0, L2), 50000184, 0);
    ncu_table_free(&t);

    /* a helper kernel, two launches of one kernel, mixed time units, a
     * blank line among the ==PROF== lines */
    CHECK_EQ_I(ncu_table_read(FIX "long_v2025.csv", &t, err, sizeof err), NCU_OK);
    CHECK_EQ_U(t.nlaunches, 3);
    CHECK_EQ_I(t.nlaunches == 3 ? t.launches[2].id : -1, 2);
    CHECK_NEAR(val(&t, 1, DRAM), 189312554, 0);
    CHECK_NEAR(val(&t, 2, TIME), 21.49, 1e-9);
    ncu_table_free(&t);

    /* synthetic --page raw with a units row */
    CHECK_EQ_I(ncu_table_read(FIX "raw_page.csv", &t, err, sizeof err), NCU_OK);
    CHECK_EQ_I(t.wide, 1);
    CHECK_EQ_U(t.nlaunches, 2);
    CHECK_NEAR(val(&t, 1, DRAM), 49998884, 0);
    CHECK_NEAR(val(&t, 0, REQ), 781250, 0);
    ncu_table_free(&t);

    /* quoting: commas and doubled quotes in fields, a value that is text */
    CHECK_EQ_I(ncu_table_read(FIX "quoting.csv", &t, err, sizeof err), NCU_OK);
    CHECK_EQ_U(t.nlaunches, 1);
    CHECK(t.nlaunches && strcmp(t.launches[0].kernel,
                                "void gather<float, 4>(const float *, const int *, float *, int)") == 0);
    v = ncu_table_find(&t, 0, "launch__device_name");
    CHECK(v && !v->has_value && strcmp(v->text, "NVIDIA \"H100\" 80GB HBM3") == 0);
    v = ncu_table_find(&t, 0, "dram__bytes_read.sum");
    CHECK(v && !v->has_value && strcmp(v->text, "n/a") == 0);
    CHECK_NEAR(val(&t, 0, L1), 1.5, 0);
    ncu_table_free(&t);
}

static void test_failures(void)
{
    ncu_table t;
    char err[512] = "";
    CHECK_EQ_I(ncu_table_read(FIX "perm_denied.csv", &t, err, sizeof err), NCU_ERR_PERM);
    CHECK_STR_HAS(err, "ERR_NVGPUCTRPERM");
    CHECK_STR_HAS(err, "https://developer.nvidia.com/ERR_NVGPUCTRPERM");
    CHECK_EQ_U(t.nlaunches, 0);

    CHECK_EQ_I(ncu_table_read(FIX "no_kernels.csv", &t, err, sizeof err), NCU_ERR_FORMAT);
    CHECK_STR_HAS(err, "no Nsight Compute CSV table");

    CHECK_EQ_I(ncu_table_read(FIX "does_not_exist.csv", &t, err, sizeof err), NCU_ERR_IO);
    CHECK_STR_HAS(err, "does_not_exist.csv");

    /* rows after a permission error are not trusted */
    const char *mixed =
        "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\n"
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"k\",\"m\",\"\",\"1\"\n";
    CHECK_EQ_I(ncu_table_parse(mixed, strlen(mixed), &t, err, sizeof err), NCU_ERR_PERM);

    /* a ragged row */
    const char *ragged =
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\r\n"
        "\"0\",\"k\",\"m\",\"1\"\r\n";
    CHECK_EQ_I(ncu_table_parse(ragged, strlen(ragged), &t, err, sizeof err), NCU_ERR_FORMAT);
    CHECK_STR_HAS(err, "line 2 has 4 fields");

    /* not an ncu table */
    const char *other = "a,b,c\n1,2,3\n";
    CHECK_EQ_I(ncu_table_parse(other, strlen(other), &t, err, sizeof err), NCU_ERR_FORMAT);
    CHECK_STR_HAS(err, "not an Nsight Compute CSV header");

    /* header only: fine, no launches; CRLF line ends */
    const char *empty = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\r\n";
    CHECK_EQ_I(ncu_table_parse(empty, strlen(empty), &t, err, sizeof err), NCU_OK);
    CHECK_EQ_U(t.nlaunches, 0);
    ncu_table_free(&t);
}

/* What fuzzing and hostile files found: a launch ID beyond a long, and
 * files whose size made lookups quadratic. */
static void test_hostile(void)
{
    ncu_table t;
    char err[256];
    /* the 21-byte file: 1e99 was cast to long (undefined behaviour) */
    const char *huge_id = "ID,Kernel Name\n1e99,\n";
    CHECK_EQ_I(ncu_table_parse(huge_id, strlen(huge_id), &t, err, sizeof err), NCU_ERR_FORMAT);
    CHECK_STR_HAS(err, "line 2: launch ID '1e99' is not a whole number from 0 to 2^53");
    const char *frac_id = "ID,Kernel Name\n1.5,k\n";
    CHECK_EQ_I(ncu_table_parse(frac_id, strlen(frac_id), &t, err, sizeof err), NCU_ERR_FORMAT);
    const char *neg_id = "ID,Kernel Name\n-1,k\n";
    CHECK_EQ_I(ncu_table_parse(neg_id, strlen(neg_id), &t, err, sizeof err), NCU_ERR_FORMAT);
    const char *ok_id = "ID,Kernel Name\n1e3,k\n9007199254740992,k\n";
    CHECK_EQ_I(ncu_table_parse(ok_id, strlen(ok_id), &t, err, sizeof err), NCU_OK);
    CHECK_EQ_U(t.nlaunches, 2);
    CHECK_EQ_I(t.nlaunches == 2 ? t.launches[0].id : -1, 1000);
    ncu_table_free(&t);
    const char *nul = "ID,Kernel Name\n1,k\0\n";
    CHECK_EQ_I(ncu_table_parse(nul, 19, &t, err, sizeof err), NCU_ERR_FORMAT);
    CHECK_STR_HAS(err, "NUL byte");

    /* 200000 launches of the wide layout and a lookup per launch: linear,
     * not quadratic (this took minutes) */
    enum { L = 200000 };
    size_t cap = (size_t)L * 32 + 64, len = 0;
    char *big = malloc(cap);
    len += (size_t)snprintf(big + len, cap - len, "ID,Kernel Name,m1,m2\n,,byte,nsecond\n");
    for (int i = 0; i < L; i++)
        len += (size_t)snprintf(big + len, cap - len, "%d,k%d,%d,%d.5\n", i, i % 7, i, i);
    CHECK_EQ_I(ncu_table_parse(big, len, &t, err, sizeof err), NCU_OK);
    CHECK_EQ_U(t.nlaunches, L);
    CHECK_EQ_U(t.nvalues, 2 * (size_t)L);
    int found = 0;
    for (size_t l = 0; l < t.nlaunches; l++) {
        const ncu_value *v = ncu_table_find(&t, l, "m2");
        found += v && v->has_value && v->value == (double)l + 0.5 && !strcmp(v->unit, "nsecond");
    }
    CHECK_EQ_I(found, L);
    CHECK(ncu_table_find(&t, L, "m1") == NULL);
    CHECK(ncu_table_find(&t, 0, "m3") == NULL);
    ncu_table_free(&t);
    /* the same launch on two rows of the long layout, apart: one launch */
    const char *apart =
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "0,a,m,,1\n1,b,m,,2\n0,a,n,,3\n";
    CHECK_EQ_I(ncu_table_parse(apart, strlen(apart), &t, err, sizeof err), NCU_OK);
    CHECK_EQ_U(t.nlaunches, 2);
    CHECK_NEAR(val(&t, 0, "n"), 3, 0);
    CHECK_NEAR(val(&t, 1, "m"), 2, 0);
    ncu_table_free(&t);
    /* too many values */
    len = 0;
    len += (size_t)snprintf(big + len, cap - len, "ID,Kernel Name,a,b,c,d,e,f,g\n");
    for (int i = 0; len + 64 < cap && i < (int)(NCU_MAX_VALUES / 7 + 10); i++)
        len += (size_t)snprintf(big + len, cap - len, "%d,k,1,2,3,4,5,6,7\n", i);
    CHECK_EQ_I(ncu_table_parse(big, len, &t, err, sizeof err), NCU_ERR_FORMAT);
    CHECK_STR_HAS(err, "more than 1048576 metric values");
    free(big);
}

/* A gzipped log (DIR/ncu/<family>.csv.gz) reads as the plain one does,
 * and a damaged one is an I/O error, not a table. */
static void test_gzip(void)
{
    FILE *f = fopen(FIX "h100_real_default.csv", "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    char path[] = "/tmp/test_ncu_csv.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    gzFile z = gzdopen(fd, "wb");
    CHECK(z != NULL && gzwrite(z, text, (unsigned)n) == (int)n);
    CHECK_EQ_I(gzclose(z), Z_OK);
    ncu_table plain, packed;
    char err[512] = "";
    CHECK_EQ_I(ncu_table_read(FIX "h100_real_default.csv", &plain, err, sizeof err), NCU_OK);
    CHECK_EQ_I(ncu_table_read(path, &packed, err, sizeof err), NCU_OK);
    CHECK_EQ_U(packed.nlaunches, plain.nlaunches);
    if (packed.nlaunches == 2 && plain.nlaunches == 2) {
        CHECK(strcmp(packed.launches[1].kernel, "readonly_strided") == 0);
        CHECK_NEAR(val(&packed, 0, REQ), val(&plain, 0, REQ), 0);
        ncu_table_free(&packed);
    }
    ncu_table_free(&plain);
    /* cut in the middle of the deflate stream */
    FILE *g = fopen(path, "rb");
    static char gz[1 << 20];
    const size_t gn = g ? fread(gz, 1, sizeof gz, g) : 0;
    if (g)
        fclose(g);
    g = fopen(path, "wb");
    CHECK(g != NULL && gn > 40);
    if (g) {
        fwrite(gz, 1, gn / 2, g);
        fclose(g);
    }
    CHECK(ncu_table_read(path, &packed, err, sizeof err) != NCU_OK);
    unlink(path);
}

int main(void)
{
    test_hostile();
    test_numbers();
    test_split_and_units();
    test_real_default();
    test_real_raw();
    test_synthetic();
    test_failures();
    test_gzip();
    return check_report("test_ncu_csv");
}

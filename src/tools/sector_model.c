/*
 * sector_model - print the sectors the memory system is predicted to move
 * for the readonly kernels (docs/sectors.md explains the model).
 *
 *   sector_model [--n N] [--dram-granularity B] [--l2-bytes B] [--reuse lru|all|none]
 *                [--markdown]
 *       the tables: strided reads of 4 B and 16 B elements at strides
 *       1, 2, 4, ..., 128, then baseline, float4 and the two gathers
 *   sector_model --elem E [--stride S] [--offset B] [--lanes L] [...]
 *       one pattern: one warp's request, then the whole strided kernel
 *       over N floats' worth of E-byte elements
 *
 * Output is TSV with "#" metadata lines, or Markdown tables with --markdown.
 */
#include "sector_model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t strides[] = { 1, 2, 4, 8, 16, 32, 64, 128 };
#define NSTRIDES (sizeof strides / sizeof strides[0])

static void usage(FILE *f)
{
    fprintf(f,
        "usage: sector_model [options]\n"
        "  Predicted L1 requests, L1/L2/DRAM sectors of the readonly kernels.\n"
        "  --n N                    floats in the array (default 1e8; 1e8 and 100000000 both work)\n"
        "  --dram-granularity B     L2->DRAM fetch granularity, 32, 64 or 128 (default %u)\n"
        "  --l2-bytes B             effective L2 capacity for the LRU reuse model\n"
        "                           (default %llu: one of the H100's two partitions)\n"
        "  --reuse lru|all|none     when a granule fetched earlier is still in L2 (default lru)\n"
        "  --seed S                 random_access's permutation seed (default %llu)\n"
        "  --markdown               Markdown tables instead of TSV\n"
        "  single pattern (any of these selects it):\n"
        "  --elem E                 element size in bytes: 4, 8 or 16 (default 4)\n"
        "  --stride S               elements between neighbouring threads (default 1)\n"
        "  --offset B               misalignment of the array start in bytes (default 0)\n"
        "  --lanes L                active lanes of the single warp (default 32)\n"
        "  -h, --help               this text\n",
        SM_GRANULE_DEFAULT, (unsigned long long)SM_L2_EFFECTIVE_BYTES_H100,
        (unsigned long long)SM_SEED_DEFAULT);
}

static int parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return -1;
    errno = 0;
    char *end;
    double d = strtod(s, &end); /* accepts 1e8 as well as 100000000 */
    if (errno || *end || d < 0 || d > 1.8e19 || d != (double)(uint64_t)d)
        return -1;
    *out = (uint64_t)d;
    return 0;
}

static void print_meta(const sm_config *c)
{
    printf("# sector_model: predicted sectors (docs/sectors.md)\n");
    printf("# n_floats\t%llu\n", (unsigned long long)c->n_floats);
    printf("# dram_granularity_bytes\t%u\n", c->granule_bytes);
    printf("# l2_bytes\t%llu\n", (unsigned long long)c->l2_bytes);
    printf("# reuse\t%s\n", sm_reuse_name(c->reuse));
    printf("# offset_bytes\t%llu\n", (unsigned long long)c->offset_bytes);
    printf("# seed\t%llu\n", (unsigned long long)c->seed);
}

static const char *cols =
    "pattern\telem_bytes\tstride\tl1_requests\tl1_sectors\tsectors_per_request\tlines"
    "\tl2_sectors\tdram_sectors\tbytes_used\tsector_util\tdram_util\texact";

static void print_row(const char *pattern, const sm_prediction *p)
{
    printf("%s\t%u\t%llu\t%.0f\t%.0f\t%.4f\t%.0f\t%.0f\t%.0f\t%.0f\t%.4f\t%.4f\t%d\n", pattern,
           p->elem_bytes, (unsigned long long)p->stride, p->l1_requests, p->l1_sectors,
           p->sectors_per_request, p->lines, p->l2_sectors, p->dram_sectors, p->bytes_used,
           p->sector_util, p->dram_util, p->exact);
}

/* 12500000 -> "12,500,000" (expected values are rounded). */
static const char *grouped(double v, char *buf, size_t len)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.0f", v);
    size_t n = strlen(tmp), o = 0;
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        buf[o++] = tmp[i];
        size_t left = n - 1 - i;
        if (left && left % 3 == 0 && tmp[i] != '-')
            buf[o++] = ',';
    }
    buf[o] = 0;
    return buf;
}

static void md_header(const char *title)
{
    printf("\n%s\n\n", title);
    printf("| Pattern | Elem | Stride | L1 requests | L1 sectors | Sectors/req | L2 sectors "
           "| DRAM sectors | Sector util | DRAM util |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

static void md_row(const char *pattern, const sm_prediction *p)
{
    char a[64], b[64], c[64], d[64];
    printf("| %s%s | %u B | %llu | %s | %s | %.2f | %s | %s | %.1f %% | %.1f %% |\n", pattern,
           p->exact ? "" : " (expected)", p->elem_bytes, (unsigned long long)p->stride,
           grouped(p->l1_requests, a, sizeof a), grouped(p->l1_sectors, b, sizeof b),
           p->sectors_per_request, grouped(p->l2_sectors, c, sizeof c),
           grouped(p->dram_sectors, d, sizeof d), 100 * p->sector_util, 100 * p->dram_util);
}

static int tables(const sm_config *cfg, int markdown)
{
    char err[256];
    if (markdown) {
        printf("Predicted sectors, N = %llu floats, DRAM granularity %u B, L2 %llu B, reuse %s\n",
               (unsigned long long)cfg->n_floats, cfg->granule_bytes,
               (unsigned long long)cfg->l2_bytes, sm_reuse_name(cfg->reuse));
    } else {
        print_meta(cfg);
        printf("%s\n", cols);
    }
    const sm_kernel strided_k[2] = { SM_STRIDED, SM_STRIDED_FLOAT4 };
    for (int t = 0; t < 2; t++) {
        if (markdown)
            md_header(t == 0 ? "Strided reads, 4 B elements (float a[(stride*i) % N], N threads)"
                             : "Strided reads, 16 B elements (float4 b[(stride*i) % (N/4)], N/4 threads)");
        for (size_t s = 0; s < NSTRIDES; s++) {
            sm_config c = *cfg;
            c.stride = strides[s];
            sm_prediction p;
            if (sm_predict(strided_k[t], &c, &p, err, sizeof err)) {
                fprintf(stderr, "sector_model: %s\n", err);
                return 1;
            }
            if (markdown)
                md_row(sm_kernel_name(strided_k[t]), &p);
            else
                print_row(sm_kernel_name(strided_k[t]), &p);
        }
    }
    const sm_kernel rest[4] = { SM_BASELINE, SM_FLOAT4, SM_NONDIVERGING, SM_RANDOM_ACCESS };
    if (markdown)
        md_header("Coalesced reads and gathers (a[c[i]]: the sectors of c are included)");
    for (int i = 0; i < 4; i++) {
        sm_prediction p;
        if (sm_predict(rest[i], cfg, &p, err, sizeof err)) {
            fprintf(stderr, "sector_model: %s\n", err);
            return 1;
        }
        if (markdown)
            md_row(sm_kernel_name(rest[i]), &p);
        else
            print_row(sm_kernel_name(rest[i]), &p);
    }
    return 0;
}

static int single(const sm_config *cfg, unsigned elem, unsigned lanes, int markdown)
{
    char err[256];
    sm_warp w;
    if (sm_warp_strided(elem, cfg->stride, cfg->offset_bytes, lanes, cfg->granule_bytes, &w)) {
        fprintf(stderr, "sector_model: bad single-warp pattern\n");
        return 1;
    }
    sm_prediction p;
    if (sm_predict_strided(cfg->n_floats * 4 / elem, elem, cfg, &p, err, sizeof err)) {
        fprintf(stderr, "sector_model: %s\n", err);
        return 1;
    }
    if (markdown) {
        printf("One warp: %u lanes load %u B, stride %llu elements, offset %llu B\n\n", lanes,
               elem, (unsigned long long)cfg->stride, (unsigned long long)cfg->offset_bytes);
        printf("| Requests | Sectors | Lines | L2 sectors | DRAM sectors (%u B granules) "
               "| Bytes used | Sector util | DRAM util |\n", cfg->granule_bytes);
        printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        printf("| %u | %u | %u | %u | %u | %u | %.1f %% | %.1f %% |\n", w.l1_requests,
               w.sectors, w.lines, w.l2_sectors, w.dram_sectors, w.bytes_used,
               100 * w.sector_util, 100 * w.dram_util);
        md_header("Whole strided kernel");
        md_row(sm_kernel_name(p.kernel), &p);
        return 0;
    }
    print_meta(cfg);
    printf("# row \"warp\": one request of %u active lanes; row \"kernel\": all %llu threads\n",
           lanes, (unsigned long long)p.threads);
    printf("%s\n", cols);
    printf("warp\t%u\t%llu\t%u\t%u\t%.4f\t%u\t%u\t%u\t%u\t%.4f\t%.4f\t1\n", elem,
           (unsigned long long)cfg->stride, w.l1_requests, w.sectors, (double)w.sectors,
           w.lines, w.l2_sectors, w.dram_sectors, w.bytes_used, w.sector_util, w.dram_util);
    print_row("kernel", &p);
    return 0;
}

int main(int argc, char **argv)
{
    sm_config cfg;
    sm_config_default(&cfg);
    int markdown = 0, one = 0;
    uint64_t elem = 4, lanes = SM_WARP_LANES;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x = 0;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--markdown")) {
            markdown = 1;
            continue;
        }
        static const char *const known[] = { "--reuse", "--n", "--dram-granularity",
                                             "--l2-bytes", "--elem", "--stride",
                                             "--offset", "--lanes", "--seed" };
        int ok = 0;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            ok |= !strcmp(a, known[k]);
        if (!ok) {
            fprintf(stderr, "sector_model: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
        if (!v) {
            fprintf(stderr, "sector_model: %s needs a value\n", a);
            usage(stderr);
            return 2;
        }
        i++;
        if (!strcmp(a, "--reuse")) {
            if (sm_reuse_from_name(v, &cfg.reuse)) {
                fprintf(stderr, "sector_model: --reuse must be lru, all or none, not '%s'\n", v);
                return 2;
            }
            continue;
        }
        if (parse_u64(v, &x)) {
            fprintf(stderr, "sector_model: %s: '%s' is not a non-negative integer\n", a, v);
            return 2;
        }
        if (!strcmp(a, "--n"))
            cfg.n_floats = x;
        else if (!strcmp(a, "--dram-granularity"))
            cfg.granule_bytes = (unsigned)x;
        else if (!strcmp(a, "--l2-bytes"))
            cfg.l2_bytes = x;
        else if (!strcmp(a, "--seed"))
            cfg.seed = x;
        else if (!strcmp(a, "--elem"))
            elem = x, one = 1;
        else if (!strcmp(a, "--stride"))
            cfg.stride = x, one = 1;
        else if (!strcmp(a, "--offset"))
            cfg.offset_bytes = x, one = 1;
        else if (!strcmp(a, "--lanes"))
            lanes = x, one = 1;
        else {
            fprintf(stderr, "sector_model: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!sm_granule_ok(cfg.granule_bytes)) {
        fprintf(stderr, "sector_model: --dram-granularity must be 32, 64 or 128\n");
        return 2;
    }
    if (cfg.n_floats < 4 || cfg.n_floats > (1ull << 40)) {
        fprintf(stderr, "sector_model: --n must be between 4 and 2^40\n");
        return 2;
    }
    if (cfg.l2_bytes == 0) {
        fprintf(stderr, "sector_model: --l2-bytes must be positive\n");
        return 2;
    }
    if (one) {
        if (elem != 4 && elem != 8 && elem != 16) {
            fprintf(stderr, "sector_model: --elem must be 4, 8 or 16\n");
            return 2;
        }
        if (cfg.stride == 0) {
            fprintf(stderr, "sector_model: --stride must be at least 1\n");
            return 2;
        }
        if (lanes == 0 || lanes > SM_WARP_LANES) {
            fprintf(stderr, "sector_model: --lanes must be 1..32\n");
            return 2;
        }
        if (cfg.offset_bytes % elem) {
            /* The hardware requires naturally aligned loads; a misaligned
             * LDG faults, so there is nothing to predict. */
            fprintf(stderr, "sector_model: --offset must be a multiple of --elem "
                            "(a misaligned %llu-byte load faults on the GPU)\n",
                    (unsigned long long)elem);
            return 2;
        }
        return single(&cfg, (unsigned)elem, (unsigned)lanes, markdown);
    }
    return tables(&cfg, markdown);
}

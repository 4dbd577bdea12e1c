/*
 * test_sector_count - the counted prediction (a family's count hook: classes
 * of blocks, DRAM in closed form) against the reference walk over every warp
 * (sf_params.walk = 1), field by field and exactly, on many configurations:
 * every variant of every family with a sector model at small N, then the
 * counted variants at N that are odd, one off a warp or a block, with tails,
 * partial blocks, strides that wrap in sweeps, every granule and L2 sizes on
 * both sides of the closed forms' conditions, then random ones drawn from a
 * printed seed (WARPLAT_COUNT_SEED=S to draw others).  Equal predictions are
 * equal tables: bin/sector_compare and bin/sector_model print only these
 * fields.  Last, that every row of the bundled readonly tables (N = 1e8) is
 * counted, not walked, random_access too.
 */
#include "check.h"
#include "family.h"
#include "sector_families.h"
#include "sector_family.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int compared, counted;

/* The first field where a and b differ, or NULL. */
static const char *differs(const sf_prediction *a, const sf_prediction *b)
{
#define F(x) if (a->x != b->x) return #x;
    for (int op = 0; op < 2; op++) {
        F(op[op].requests) F(op[op].sectors) F(op[op].lines) F(op[op].wavefronts)
        F(op[op].hits) F(op[op].hits_max) F(op[op].l2_requests) F(op[op].l2_requests_min)
        F(op[op].l2_sectors_merged) F(op[op].l2_requests_merged) F(op[op].l2_sectors)
        F(op[op].l2_sectors_min) F(op[op].bytes) F(op[op].st_line_hits)
    }
    F(dram_read_sectors) F(dram_write_sectors) F(dram_partial_sectors) F(items) F(blocks)
    F(warps) F(hit_tol_frac) F(has_load) F(has_store)
#undef F
    if (strcmp(a->config, b->config)) return "config";
    return NULL;
}

/* Predict v with p both ways; they must agree (or both refuse alike). */
static void same(const sf_variant *v, const sf_params *p0, const char *why)
{
    sf_params p = *p0;
    sf_prediction fast, walk;
    char e1[512] = "", e2[512] = "";
    p.walk = 0;
    const int is_counted = sf_would_count(v, &p);
    const int r1 = sf_predict(v, &p, &fast, e1, sizeof e1);
    p.walk = 1;
    const int r2 = sf_predict(v, &p, &walk, e2, sizeof e2);
    compared++;
    counted += is_counted;
    CHECK_EQ_I(r1, r2);
    if (r1 || r2) {
        if (r1 != r2) fprintf(stderr, "  %s %s (%s): '%s' vs '%s'\n", sf_family_name(v), v->name, why, e1, e2);
        return;
    }
    const char *d = differs(&fast, &walk);
    if (d)
        fprintf(stderr, "  %s %s %s (%s): n %llu wpb %u cfg %llu granule %u l2 %llu: %s differs "
                "(counted: %d)\n", sf_family_name(v), v->name, fast.config, why,
                (unsigned long long)p.n, p.wpb, (unsigned long long)p.cfg, p.granule_bytes,
                (unsigned long long)p.l2_bytes, d, is_counted);
    CHECK(d == NULL);
}

/* Every variant of every family, small launches: walked or counted, equal. */
static void test_every_variant(void)
{
    static const uint64_t NS[] = {1000, 4097, 65537};
    for (const fam_entry *f = fam_registry; f->name; f++)
    for (size_t j = 0; f->model && j < f->model->nvariants; j++) {
        const sf_variant *v = &f->model->variants[j];
        for (size_t i = 0; i < sizeof NS / sizeof NS[0]; i++) {
            sf_params p;
            sf_params_default(&p);
            p.n = NS[i];
            p.wpb = i == 1 ? 3 : 4;
            p.cfg = v->cfg == SF_CFG_OFFSET ? 5 : v->cfg == SF_CFG_BATCH ? 4 : 3;
            if (f->model->shape == SF_SHAPE_2D) {
                p.n0 = 33 + 30 * i, p.n1 = 7, p.radius = 2, p.lead_pad = (int)i % 2;
            }
            same(v, &p, "every variant");
        }
    }
}

/* The readonly variants at the edges: N one off a warp or a block, odd N,
 * strides that divide N or not, beyond N, and L2 sizes that make the closed
 * forms hold (all fits; sweeps longer than the L2) or not (the walk). */
static void test_readonly_edges(void)
{
    static const uint64_t NS[] = {1, 2, 31, 32, 33, 127, 128, 129, 511, 513, 1023, 4096, 100003,
                                  262144, 300007, 1000000};
    static const uint64_t STRIDES[] = {1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 100, 128, 257, 4096};
    static const unsigned WPB[] = {1, 4, 7, 32};
    static const uint64_t L2[] = {256 * 1024, 1024 * 1024, 25ull * 1024 * 1024};
    const struct fam_model *m = sf_model("readonly");
    for (size_t j = 0; j < m->nvariants; j++) {
        const sf_variant *v = &m->variants[j];
        if (!strcmp(v->name, "random_access")) continue;   /* test_random_access has it */
        for (size_t a = 0; a < sizeof NS / sizeof NS[0]; a++)
        for (size_t b = 0; b < sizeof WPB / sizeof WPB[0]; b++) {
            sf_params p;
            sf_params_default(&p);
            p.n = NS[a];
            p.wpb = WPB[b];
            p.l2_bytes = L2[(a + b) % 3];
            p.granule_bytes = 32u << ((a + 2 * b) % 3);
            if (v->cfg != SF_CFG_STRIDE) {
                same(v, &p, "edges");
                continue;
            }
            for (size_t s = 0; s < sizeof STRIDES / sizeof STRIDES[0]; s++) {
                p.cfg = STRIDES[s];
                if (p.n > 100003 && (s + a + b) % 3) continue;   /* a third of the big ones */
                same(v, &p, "edges");
            }
            /* strides of N and beyond (reduced mod the items) */
            p.cfg = p.n;
            same(v, &p, "stride N");
            p.cfg = 3 * p.n + 1;
            same(v, &p, "stride 3N + 1");
        }
    }
}

/* readonly random_access, counted by sf_count_loads (plain blocks from their
 * lines, the others walked, the L2 kept as times): N one off a warp or a
 * block (the clamped tail), odd N, every granule, an L2 of 128 lines that
 * evicts all the time up to one that holds everything, several seeds; both
 * kinds of block are met (a walked block: a line in two of its requests or
 * in the previous block's). */
static void test_random_access(void)
{
    static const uint64_t NS[] = {1, 2, 31, 32, 33, 127, 128, 129, 1023, 4097, 65536, 100003,
                                  300007, 1000000, 2500001};
    static const unsigned WPB[] = {1, 3, 4, 7, 32};
    static const uint64_t L2[] = {16 * 1024, 256 * 1024, 1024 * 1024, 25ull * 1024 * 1024};
    /* readonly's gather, and patterns' through L1 (ca, nc) and L2 only (cg:
     * every block counted plain) */
    static const char *V[][2] = {{"readonly", "random_access"}, {"patterns", "random_ca"},
                                 {"patterns", "random_cg"}, {"patterns", "random_nc"}};
    for (size_t vi = 0; vi < 4; vi++)
    for (size_t a = 0; a < sizeof NS / sizeof NS[0]; a++)
        for (size_t b = 0; b < sizeof WPB / sizeof WPB[0]; b++) {
            const sf_variant *v = sf_find(V[vi][0], V[vi][1]);
            if (NS[a] > 1000000 && b != 2) continue;   /* the largest at WPB 4 only */
            if (vi > 0 && NS[a] > 100003 && (a + b + vi) % 3) continue;   /* patterns: a third of them */
            sf_params p;
            sf_params_default(&p);
            p.n = NS[a];
            p.wpb = WPB[b];
            p.l2_bytes = L2[(a + b) % 4];
            p.granule_bytes = 32u << ((a + 2 * b) % 3);
            p.seed = 12345 + 7 * a + b + 1000 * vi;
            CHECK(sf_would_count(v, &p));
            same(v, &p, V[vi][1]);
        }
    const sf_variant *v = sf_find("readonly", "random_access");
    /* both paths: at N = 1e6 and WPB 1 a block's 32 lanes share a line now
     * and then (of 31250 lines); at WPB 32 nearly every block meets one */
    sf_params p;
    sf_params_default(&p);
    p.n = 1000000;
    sf_prediction pr;
    char err[256];
    for (unsigned wpb = 1; wpb <= 32; wpb += 31) {
        p.wpb = wpb;
        CHECK_EQ_I(sf_predict(v, &p, &pr, err, sizeof err), 0);
        const uint64_t walked = sf_blocks_walked();
        printf("test_sector_count: random_access at N = 1e6, WPB %u: %llu of %llu blocks walked\n",
               wpb, (unsigned long long)walked, (unsigned long long)pr.blocks);
        CHECK(walked > 0);
        CHECK(wpb == 1 ? walked < pr.blocks / 10 : walked > pr.blocks / 2);
    }
}

/* sf_count_loads split into tasks (its L2 run a task's touches at a time,
 * from the lines the L2 holds at the task's start, then fixed up for what
 * those held): every split equal to the walk.  Tasks of a few blocks, whose
 * look back for the held lines crosses many tasks or reaches the start; an
 * L2 of one line, of 128 lines that evicts all the time, and up to one that
 * holds everything; every granule; the .cg path (every block plain) and the
 * walked blocks (WPB 32). */
static void test_random_split(void)
{
    static const uint64_t NS[] = {1, 33, 129, 1023, 4097, 65536, 300007};
    static const unsigned WPB[] = {1, 3, 4, 32};
    static const uint64_t L2[] = {128, 16 * 1024, 256 * 1024, 25ull * 1024 * 1024};
    static const unsigned SPLIT[] = {1, 2, 3, 7, 16, 64};
    static const char *V[][2] = {{"readonly", "random_access"}, {"patterns", "random_ca"},
                                 {"patterns", "random_cg"}, {"patterns", "random_nc"}};
    int cases = 0;
    for (size_t vi = 0; vi < 4; vi++)
    for (size_t a = 0; a < sizeof NS / sizeof NS[0]; a++)
    for (size_t b = 0; b < sizeof WPB / sizeof WPB[0]; b++)
    for (size_t l = 0; l < sizeof L2 / sizeof L2[0]; l++) {
        if (vi > 0 && (a + b + l + vi) % 2) continue;   /* patterns: half of them */
        if (NS[a] > 10000 && (a + b + l) % 4) continue;   /* the large: a quarter */
        const sf_variant *v = sf_find(V[vi][0], V[vi][1]);
        sf_params p;
        sf_params_default(&p);
        p.n = NS[a];
        p.wpb = WPB[b];
        p.l2_bytes = L2[l];
        p.granule_bytes = 32u << ((a + b + l) % 3);
        p.seed = 777 + a + 10 * b + 100 * vi;
        p.walk = 1;
        sf_prediction walk, fast;
        char err[256];
        CHECK_EQ_I(sf_predict(v, &p, &walk, err, sizeof err), 0);
        p.walk = 0;
        CHECK(sf_would_count(v, &p));
        for (size_t s = 0; s < sizeof SPLIT / sizeof SPLIT[0]; s++) {
            sf_count_loads_split(SPLIT[s]);
            CHECK_EQ_I(sf_predict(v, &p, &fast, err, sizeof err), 0);
            const char *d = differs(&fast, &walk);
            if (d)
                fprintf(stderr, "  %s: n %llu wpb %u granule %u l2 %llu, %u tasks: %s differs "
                        "(%.17g vs %.17g DRAM)\n", V[vi][1], (unsigned long long)p.n, p.wpb,
                        p.granule_bytes, (unsigned long long)p.l2_bytes, SPLIT[s], d,
                        fast.dram_read_sectors, walk.dram_read_sectors);
            CHECK(d == NULL);
            cases++;
        }
        sf_count_loads_split(0);
    }
    printf("test_sector_count: %d splits of random gathers equal to the walk\n", cases);
}

/* Sweeps that alternate between two sets of lines (a stride of whole lines,
 * N an odd multiple of half of it), with an L2 between one sweep and two:
 * counted only because a sweep of the other set lies between two touches of
 * a line; at N a whole multiple every sweep meets the same lines. */
static void test_readonly_alternating(void)
{
    sf_params p;
    sf_params_default(&p);
    p.l2_bytes = 256 * 1024;   /* 2048 lines */
    p.cfg = 128;
    p.n = 4 * (128 * 1500 + 64);
    const sf_variant *f4 = sf_find("readonly", "strided_float4"), *s4 = sf_find("readonly", "strided");
    CHECK(sf_would_count(f4, &p));
    same(f4, &p, "alternating float4");
    p.n = 4 * (128 * 1500);   /* every sweep the same 1500 lines: they fit, counted too */
    CHECK(sf_would_count(f4, &p));
    same(f4, &p, "float4, one set");
    p.n = 4 * (128 * 2100);   /* the same 2100 lines, more than the L2: walked */
    CHECK(!sf_would_count(f4, &p));
    same(f4, &p, "float4, one set");
    p.cfg = 64;
    p.n = 64 * 1500 + 32;
    CHECK(sf_would_count(s4, &p));
    same(s4, &p, "alternating 4 B");
    for (unsigned g = 32; g <= 128; g *= 2) {
        p.granule_bytes = g;
        p.n = 64 * 1700 + 32 + 8;   /* sweeps from 0, 40, 16, ...: not alternating */
        same(s4, &p, "4 B, odd offsets");
    }
}

/* copy and patterns at N and L2 sizes where the L2 settles within a run
 * (sf_count_run adds the rest of the run instead of walking it): equal to
 * the walk, and walking fewer blocks. */
static void test_runs_settle(void)
{
    static const unsigned WPB[] = {1, 2, 4, 7};
    static const uint64_t L2[] = {128 * 1024, 256 * 1024, 1024 * 1024};
    static const char *FAM[] = {"copy", "patterns"};
    int settled = 0, runs = 0;
    for (int fi = 0; fi < 2; fi++) {
        const struct fam_model *m = sf_model(FAM[fi]);
        for (size_t j = 0; j < m->nvariants; j++) {
            const sf_variant *v = &m->variants[j];
            for (size_t w = 0; w < 4; w++) {
                sf_params p;
                sf_params_default(&p);
                p.n = 700001 + 2 * w;
                p.wpb = WPB[w];
                p.l2_bytes = L2[(j + w) % 3];
                p.granule_bytes = 32u << ((j + w) % 3);
                p.cfg = v->cfg == SF_CFG_OFFSET ? 1 + 3 * w : v->cfg == SF_CFG_BATCH ? (uint64_t)4 << (w % 2) :
                        v->cfg == SF_CFG_STRIDE ? 1 + 5 * w : 1;
                same(v, &p, "runs settle");
                if (!sf_would_count(v, &p)) continue;
                sf_prediction pr;
                char err[256];
                p.walk = 0;
                if (sf_predict(v, &p, &pr, err, sizeof err)) continue;
                runs++;
                settled += sf_blocks_walked() < pr.blocks / 2;
            }
        }
    }
    printf("test_sector_count: %d of %d copy and patterns launches settled within their run\n",
           settled, runs);
    CHECK(runs > 60);
    CHECK(settled > runs / 2);
}

/* The offset patterns (offset_*, write_offset: L1 by classes of blocks, the
 * DRAM in closed form, patterns/model.c): N at and around warps, blocks and
 * lines, every offset class of a line (0..32, then beyond), warps per block
 * 1..32, every granule, and L2s of 1, 2, 3 lines up to more than the range
 * (the stores' write-backs: none, some, all but the last lines); then random
 * ones from three seeds.  Each equal to the walk, and counted walking a few
 * blocks, not all (write_offset from 8 lines of L2: SF_L2_PARTIAL_SHARE). */
static void offset_case(const char *name, uint64_t n, unsigned wpb, uint64_t off, unsigned granule,
                        uint64_t l2, const char *why)
{
    const sf_variant *v = sf_find("patterns", name);
    sf_params p;
    sf_params_default(&p);
    p.n = n, p.wpb = wpb, p.cfg = off, p.granule_bytes = granule, p.l2_bytes = l2;
    same(v, &p, why);
    sf_prediction pr;
    char err[256];
    p.walk = 0;
    /* write_offset's closed form needs room for two partly written lines
     * (SF_L2_PARTIAL_SHARE): below it the walk predicts */
    const int room = strcmp(name, "write_offset") || l2 / 128 / SF_L2_PARTIAL_SHARE >= 2;
    if (l2 >= 256 && room && sf_predict(v, &p, &pr, err, sizeof err) == 0) {
        CHECK(sf_would_count(v, &p));
        CHECK(sf_blocks_walked() <= 5);
    }
}

static void test_offset_stream(void)
{
    static const char *V[] = {"offset_ca", "offset_cg", "offset_nc", "write_offset"};
    static const uint64_t NS[] = {33, 34, 63, 64, 65, 97, 127, 128, 129, 160, 161, 1000, 4096, 4097,
                                  65537, 100003};
    static const uint64_t OFF[] = {0, 1, 5, 7, 8, 15, 16, 24, 31, 32, 33, 40, 63, 100, 1024};
    static const unsigned WPB[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 32};
    static const uint64_t L2[] = {128, 256, 384, 512, 4096, 65536, 1 << 20};
    unsigned i = 0;
    for (size_t v = 0; v < 4; v++)
    for (size_t a = 0; a < sizeof NS / sizeof NS[0]; a++)
    for (size_t o = 0; o < sizeof OFF / sizeof OFF[0]; o++)
    for (size_t w = 0; w < sizeof WPB / sizeof WPB[0]; w++, i++) {
        if (NS[a] > 4097 && i % 5) continue;   /* a fifth of the large ones */
        offset_case(V[v], NS[a] + OFF[o], WPB[w], OFF[o], 32u << (i % 3), L2[i % 7], "offset edges");
    }
    static const uint64_t SEEDS[] = {1, 37, 20261128};
    static const uint64_t L2R[] = {128, 256, 384, 1024, 8192, 128 * 1024, 1 << 20, 25ull << 20};
    for (size_t s = 0; s < 3; s++) {
        uint64_t rng = SEEDS[s];
        for (int k = 0; k < 150; k++) {
            const unsigned bits = (unsigned)sf_rand_range(&rng, 6, 20);
            const uint64_t n = sf_rand_range(&rng, 1ull << bits >> 1, 1ull << bits);
            const uint64_t off = sf_rand_range(&rng, 0, 3) ? sf_rand_range(&rng, 0, 64)
                                                           : sf_rand_range(&rng, 0, 1024);
            offset_case(V[sf_rand_range(&rng, 0, 3)], n, (unsigned)sf_rand_range(&rng, 1, 32), off,
                        32u << sf_rand_range(&rng, 0, 2), L2R[sf_rand_range(&rng, 0, 7)], "offset draw");
        }
    }
}

/* Random configurations of the readonly, copy and patterns variants (half,
 * a quarter, a quarter; copy and patterns at smaller N), from a printed
 * seed. */
static void test_random_draws(void)
{
    uint64_t seed = 20261128;
    const char *env = getenv("WARPLAT_COUNT_SEED");
    if (env && *env) seed = strtoull(env, NULL, 10);
    printf("test_sector_count: random configurations from seed %llu (WARPLAT_COUNT_SEED)\n",
           (unsigned long long)seed);
    uint64_t rng = seed;
    static const uint64_t L2[] = {128 * 1024, 512 * 1024, 1024 * 1024, 4096 * 1024, 25ull << 20};
    for (int i = 0; i < 400; i++) {
        const struct fam_model *m = sf_model(i % 4 == 0 ? "copy" : i % 4 == 1 ? "patterns" : "readonly");
        const sf_variant *v = &m->variants[sf_rand_range(&rng, 0, m->nvariants - 1)];
        sf_params p;
        sf_params_default(&p);
        /* N log-uniform in [1, 2^21], odd or not */
        const unsigned bits = (unsigned)sf_rand_range(&rng, 0, 21);
        p.n = sf_rand_range(&rng, 1ull << bits >> 1, 1ull << bits);
        if (p.n == 0) p.n = 1;
        if (!strcmp(v->name, "random_access") && p.n > 100000) p.n /= 16;
        p.wpb = (unsigned)sf_rand_range(&rng, 1, 32);
        p.granule_bytes = 32u << sf_rand_range(&rng, 0, 2);
        p.l2_bytes = L2[sf_rand_range(&rng, 0, 4)];
        p.seed = sf_rand_range(&rng, 0, 1000);
        if (v->cfg == SF_CFG_STRIDE)
            p.cfg = sf_rand_range(&rng, 0, 3) ? sf_rand_range(&rng, 1, 300) : sf_rand_range(&rng, 1, 3 * p.n);
        else if (v->cfg == SF_CFG_BATCH)
            p.cfg = 4 * sf_rand_range(&rng, 1, 4);
        else if (v->cfg == SF_CFG_OFFSET)
            p.cfg = sf_rand_range(&rng, 0, 40);
        if (v->cfg == SF_CFG_STRIDE && p.cfg > p.n && m != sf_model("readonly"))
            p.cfg = p.n;
        if (m != sf_model("readonly") && p.n > 200000) p.n /= 8;
        char why[64];
        snprintf(why, sizeof why, "random draw %d", i);
        same(v, &p, why);
    }
}

/* The bundled tables' rows (N = 1e8, WPB 4, granule 64 B, L2 25 MiB): every
 * one is counted (random_access by sf_count_loads), also at N = 2^28, the
 * model's largest. */
static void test_bundled_counted(void)
{
    static const uint64_t STRIDES[] = {1, 2, 4, 8, 16, 32, 64, 128};
    const struct fam_model *m = sf_model("readonly");
    for (size_t j = 0; j < m->nvariants; j++) {
        const sf_variant *v = &m->variants[j];
        sf_params p;
        sf_params_default(&p);
        p.n = 100000000;
        for (size_t s = 0; s < (v->cfg == SF_CFG_STRIDE ? 8u : 1u); s++) {
            p.cfg = STRIDES[s];
            if (!sf_would_count(v, &p))
                fprintf(stderr, "  %s stride %llu at N = 1e8 is not counted\n", v->name,
                        (unsigned long long)p.cfg);
            CHECK(sf_would_count(v, &p));
        }
        p.n = SF_MAX_N;
        p.cfg = 128;
        CHECK(sf_would_count(v, &p));
    }
    /* the hand count of one: strided, stride 32, N = 1e8: one line per lane,
     * 32 sweeps over the same 3125000 lines, each longer than the L2, so
     * every load fetches its 64 B granule: 2 sectors */
    sf_params p;
    sf_params_default(&p);
    p.n = 100000000;
    p.cfg = 32;
    sf_prediction pr;
    char err[256];
    CHECK_EQ_I(sf_predict(sf_find("readonly", "strided"), &p, &pr, err, sizeof err), 0);
    CHECK_EQ_U(pr.op[SF_LD].requests, 3125000);
    CHECK_EQ_U(pr.op[SF_LD].sectors, 100000000);
    CHECK_EQ_U(pr.dram_read_sectors, 200000000);
}

int main(void)
{
    test_every_variant();
    test_readonly_edges();
    test_readonly_alternating();
    test_runs_settle();
    test_offset_stream();
    test_random_access();
    test_random_split();
    test_random_draws();
    test_bundled_counted();
    printf("test_sector_count: %d configurations compared, %d of them counted\n", compared, counted);
    CHECK(counted > compared / 3);   /* the counted path was exercised, not only the walk */
    return check_report("test_sector_count");
}

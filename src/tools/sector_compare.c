/*
 * sector_compare - what the sector model predicts next to what Nsight Compute
 * measured, row by row, with a verdict for each.
 *
 *   sector_compare MEASURED.tsv [--markdown] [--strict] [--chart OUT.svg]
 *                  [--n N] [--dram-granularity B] [--l2-bytes B] [--wpb W] [--seed S] [--out FILE]
 *       the readonly family's measured table (what scripts/ncu_profile.sh
 *       readonly writes: "#" metadata, then pattern, elem_bytes, stride,
 *       l1_requests, l1_sectors, l2_sectors, dram_sectors, time_ns), each
 *       row predicted by the readonly family's model and judged as the
 *       families' rows are, in their table (sector_measured.h).
 *
 *   sector_compare --family copy|patterns|readonly|stencil --runs RUNS.tsv --ncu NCU.tsv
 *                  [--dram-granularity B] [--l2-bytes B] [--seed S]
 *                  [--n0 N0 --n1 N1 --radius R --lead-pad --pad-leading-dim]
 *                  [--markdown] [--strict] [--out FILE]
 *       RUNS.tsv is the engine's table of the profiled run (./F_profile ...
 *       --table RUNS.tsv: columns kernel, config, n, warps_per_block, one row
 *       per variant and configuration in launch order); NCU.tsv is
 *       bin/ncu_extract's table of the ncu log (kernel, id, one column per
 *       metric).  The k-th launch of kernel F_V pairs with the k-th row of V.
 *       Output: one row per variant, configuration and op (ld, st), the
 *       predicted and measured quantities side by side (columns *_pred,
 *       *_meas), agree (yes/no), mismatch (the quantities outside the model's
 *       bounds), the lab's figure (lab, lab_source, lab_vs_model) and a note.
 *       Judging: sector_families.h, sf_judge.
 *
 * Exit status: 0; with --strict 1 when any row disagrees; 1 on a runtime
 * failure (unreadable file, gnuplot failed, a write failed); 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "gp.h"
#include "outfile.h"
#include "par.h"
#include "sector_families.h"
#include "sector_family.h"
#include "sector_join.h"
#include "sector_measured.h"
#include "sector_readonly.h"
#include "sector_table.h"
#include "tsv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "sector_compare"

/* Where the table goes: stdout, or --out FILE through outfile (whole). */
static FILE *OUT;

/* the status of a comparison when --strict and a row disagrees: the table
 * is whole and kept, the exit status is 1 */
#define RC_STRICT_DISAGREE SECTOR_RC_DISAGREE

/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, L2 51200 KiB)" -> 132, or 0. */
static unsigned device_sms(const char *device)
{
    const char *p = device ? strstr(device, " SMs") : NULL;
    if (!p)
        return 0;
    const char *q = p;
    while (q > device && q[-1] >= '0' && q[-1] <= '9')
        q--;
    return q < p ? (unsigned)strtoul(q, NULL, 10) : 0;
}

/* The last component of a path (tables name their inputs without the folder,
 * so that a table does not change with where it was made). */
static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

typedef struct fam_opts {
    const struct fam_model *m;   /* the family's model (sector_family.h) */
    const char *runs, *ncu;
    sf_params base;
    int given_sms, given_bps, given_l2;
    int given_geometry;          /* --n0, --n1, --radius or a pad given: they win over the rows' */
    int markdown, strict;
} fam_opts;

/* The two tables of a comparison: the run's rows and ncu's launches. */
typedef struct fam_run {
    const fam_opts *o;
    tsv_table runs, ncu;
    int col[SFM_NMEASURES][2];   /* the column of NCU.tsv of each measure and op, or -1 */
    char absent[1024];           /* the family's metrics NCU.tsv lacks */
    unsigned sms;                /* from --sms or the run's device */
    uint64_t l2;                 /* the LRU L2's bytes: --l2-bytes, or sf_model_l2_bytes */
} fam_run;

/* Which column of NCU.tsv holds each of the family's measures. */
static void ncu_columns(fam_run *f)
{
    sj_columns(&f->ncu, f->o->m->metrics, f->col, f->absent, sizeof f->absent);
}

static void family_head(const fam_run *f)
{
    const fam_opts *o = f->o;
    const char *device = tsv_meta(&f->runs, "device");
    const char *fam = o->m->name;
    if (o->markdown) {
        fprintf(OUT, "%s%s%s: predicted / measured per launch, DRAM granularity %u B, L2 %llu B\n\n",
                fam, device ? ", " : "", device ? device : "", o->base.granule_bytes,
                (unsigned long long)f->l2);
        sct_md_header(OUT);
        return;
    }
    fprintf(OUT, "# sector_compare --family %s\n# family\t%s\n# device\t%s\n# runs_table\t%s\n"
            "# ncu_table\t%s\n# dram_granularity_bytes\t%u\n# l2_bytes\t%llu\n# seed\t%llu\n", fam, fam,
            device ? device : "-", base_of(o->runs), base_of(o->ncu), o->base.granule_bytes,
            (unsigned long long)f->l2, (unsigned long long)o->base.seed);
    if (f->absent[0])
        fprintf(OUT, "# metrics_missing\t%s\n", f->absent);
    fprintf(OUT, "# model\tdocs/sectors.md; agree = every judged quantity inside the model's "
            "bounds (sector_families.h, sf_judge)\n");
    sct_header(OUT);
}

/* How row r pairs with a launch (sector_join.h); the first row of a kernel
 * launched twice per row says so once. */
static void pair_launch(const fam_run *f, size_t r, const char *vname, sj_pairing *pa)
{
    sj_pair(&f->runs, &f->ncu, f->o->m->name, vname, r, pa);
    if (pa->twice && pa->k == 0)
        fprintf(stderr, "%s: %s has 2 launches of %s per row of %s: pairing each row with "
                "the second (the validation ran the clean kernel first)\n", PROG,
                base_of(f->o->ncu), pa->want, base_of(f->o->runs));
}

/* The model's parameters of row r (its n, warps per block, configuration,
 * the grid measured); 0, or -1 with a sentence on stderr. */
static int row_params(const fam_run *f, size_t r, const sf_variant *v, const sf_measured *meas,
                      sf_params *p)
{
    const fam_opts *o = f->o;
    const tsv_table *runs = &f->runs;
    const char *config = tsv_get(runs, r, "config");
    *p = o->base;
    if (o->m->shape != SF_SHAPE_2D) {
        double n = tsv_num(runs, r, "n");
        if (!isnan(n)) {
            if (n < 1 || n > (double)SF_MAX_N || n != floor(n)) {
                fprintf(stderr, "%s: %s: row %zu: n = %s is not 1..%llu\n", PROG, o->runs,
                        r + 1, tsv_get(runs, r, "n"), (unsigned long long)SF_MAX_N);
                return -1;
            }
            p->n = (uint64_t)n;
        }
    }
    double w = tsv_num(runs, r, "warps_per_block");
    if (!isnan(w)) {
        if (w < 1 || w > 32 || w != floor(w)) {
            fprintf(stderr, "%s: %s: row %zu: warps_per_block %s is not 1..32\n", PROG, o->runs,
                    r + 1, tsv_get(runs, r, "warps_per_block"));
            return -1;
        }
        p->wpb = (unsigned)w;
    }
    if (o->m->shape == SF_SHAPE_2D && !o->given_geometry && config && strcmp(config, "-")) {
        /* without --n0 ..., the run's own geometry ("32x32,R=2,lead=1,padld=1"),
         * so that one table may hold many (a --batch run of bin/model_check) */
        unsigned long long n0, n1;
        unsigned rad;
        int lead, padld, used = 0;
        if (sscanf(config, "%llux%llu,R=%u,lead=%d,padld=%d%n", &n0, &n1, &rad, &lead, &padld, &used) != 5 ||
            config[used] || n0 < 1 || n1 < 1 || rad < 1 || rad > 4) {
            fprintf(stderr, "%s: %s: row %zu (%s): the config '%s' is not N0xN1,R=r,lead=0|1,padld=0|1\n",
                    PROG, o->runs, r + 1, v->name, config);
            return -1;
        }
        p->n0 = n0, p->n1 = n1, p->radius = rad, p->lead_pad = lead != 0, p->pad_ld = padld != 0;
    }
    if (v->cfg != SF_CFG_NONE && sct_config_value(config, sf_cfg_name(v->cfg), &p->cfg)) {
        fprintf(stderr, "%s: %s: row %zu (%s): no %s=VALUE in the config '%s'\n", PROG,
                o->runs, r + 1, v->name, sf_cfg_name(v->cfg), config ? config : "");
        return -1;
    }
    if (f->sms)
        p->sms = f->sms;
    p->l2_bytes = f->l2;
    double bps = tsv_num(runs, r, "blocks_per_sm");
    if (!o->given_bps && !isnan(bps) && bps >= 1 && bps <= 64 && bps == floor(bps))
        p->blocks_per_sm = (unsigned)bps;
    const double grid = meas->v[SFM_GRID][0];
    if (!isnan(grid) && grid >= 1 && grid == floor(grid))
        p->grid_blocks = (uint64_t)grid; /* grid-stride copies only */
    return 0;
}

/* Append a sentence to a note. */
static void note_add(char *note, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_add(char *note, size_t len, const char *fmt, ...)
{
    size_t u = strlen(note);
    if (u + 3 >= len)
        return;
    if (u) {
        snprintf(note + u, len - u, "; ");
        u += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + u, len - u, fmt, ap);
    va_end(ap);
}

/* One row of the table: op of the row's launch, judged; returns 1 when it
 * disagrees. */
static int op_row(const fam_run *f, const sf_variant *v, const sf_params *p,
                  const sf_prediction *pr, const sf_measured *meas, int op, const sj_pairing *pa)
{
    sf_verdict vd;
    sf_judge(pr, (sf_op)op, meas, &vd);
    char lab[512], src[32], lv[512], why[1024], note[2048];
    if (sf_lab_row(v, p, (sf_op)op, lab, sizeof lab, src, sizeof src, lv, sizeof lv, why,
                   sizeof why) < 0)
        fprintf(stderr, "%s: %s: the lab's figure: %s\n", PROG, v->name, why);
    snprintf(note, sizeof note, "%s", vd.note);
    if (pa->hit < 0 && !pa->failed)
        note_add(note, sizeof note, "no launch of %s in %s (launch %zu)", pa->want,
                 base_of(f->o->ncu), pa->kth + 1);
    if (why[0] && strcmp(lv, "agrees"))
        note_add(note, sizeof note, "H100 vs lab: %s", why);
    if (pa->failed)
        note_add(note, sizeof note, "the run's validation FAILED: no clean launch to measure");
    if (op == SF_ST && !pr->has_load && meas->v[SFM_DRAM][SF_LD] > SF_DRAM_MIN_SECTORS)
        note_add(note, sizeof note, "DRAM reads %.0f sectors although the kernel only stores "
                 "(partial sectors filled from DRAM?); the model predicts none",
                 meas->v[SFM_DRAM][SF_LD]);
    sct_row g;
    sct_init(&g);
    g.family = f->o->m->name;
    g.variant = v->name;
    g.config = pr->config;
    g.op = op ? "st" : "ld";
    sct_fill(&g, pr, meas, op);
    g.agree = vd.agree ? "yes" : "no";
    g.mismatch = vd.mismatch;
    g.n = f->o->m->shape == SF_SHAPE_2D ? (double)(p->n0 * p->n1) : (double)p->n;
    g.wpb = p->wpb;
    g.judged = vd.judged_list;
    g.wide = vd.wide_list;
    g.lab = lab;
    g.lab_source = src;
    g.lab_vs_model = lv;
    g.note = note[0] ? note : "-";
    sct_put(OUT, &g, f->o->markdown);
    return !vd.agree;
}

/* Launches no row claimed: the run and the profile do not match. */
static void warn_unclaimed(const fam_run *f)
{
    const char *fam = f->o->m->name;
    char have[256];
    for (size_t j = 0; (j = sj_unclaimed(&f->runs, &f->ncu, fam, j, have, sizeof have)) <
         f->ncu.nrow; j++)
        fprintf(stderr, "%s: %s has more launches of %s than %s has rows of %s: the extra "
                "ones are left out\n", PROG, base_of(f->o->ncu), have, base_of(f->o->runs),
                have + strlen(fam) + 1);
}

/* One row's model: its variant (NULL: none), launch, counts measured,
 * parameters and prediction. */
typedef struct fam_pred {
    const sf_variant *v;
    sj_pairing pa;
    sf_measured meas;
    sf_params p;
    sf_prediction pr;
    int rc;
    char err[512];
} fam_pred;

/* par_for's item: row i's prediction (rows are independent, so the
 * predictions run a core each and the table is the same, written in order
 * afterwards). */
static void predict_row(void *ctx, size_t i)
{
    fam_pred *x = &((fam_pred *)ctx)[i];
    if (x->v)
        x->rc = sf_predict(x->v, &x->p, &x->pr, x->err, sizeof x->err);
}

/* Every row of the run: its model, its launch, a row per op; 0, or -1 after
 * a sentence on stderr.  Counts the rows and those that disagree. */
static int family_rows(const fam_run *f, int *nrows, int *disagree)
{
    const size_t n = f->runs.nrow;
    fam_pred *x = calloc(n ? n : 1, sizeof *x);
    if (!x) {
        fprintf(stderr, "%s: out of memory for %zu rows\n", PROG, n);
        return -1;
    }
    size_t upto = n;   /* the rows before a row whose parameters are refused */
    for (size_t r = 0; r < n; r++) {
        const char *vname = tsv_get(&f->runs, r, "kernel");
        const sf_variant *v = sf_find(f->o->m->name, vname);
        if (!v) {
            fprintf(stderr, "%s: %s: %s has no model (no kernel of its own?): row %zu left out\n",
                    PROG, f->o->runs, vname, r + 1);
            continue;
        }
        pair_launch(f, r, vname, &x[r].pa);
        sj_measured(&f->ncu, f->col, x[r].pa.hit, &x[r].meas);
        if (row_params(f, r, v, &x[r].meas, &x[r].p)) {
            upto = r;
            break;
        }
        x[r].v = v;
    }
    par_for(upto, 0, predict_row, x);
    int rc = upto < n ? -1 : 0;
    for (size_t r = 0; r < upto; r++) {
        const fam_pred *y = &x[r];
        if (!y->v)
            continue;
        if (y->rc) {
            fprintf(stderr, "%s: %s %s (row %zu): %s\n", PROG, f->o->m->name, y->v->name, r + 1, y->err);
            rc = -1;
            break;
        }
        for (int op = 0; op < 2; op++) {
            const int predicted = op == SF_LD ? y->pr.has_load : y->pr.has_store;
            if (!predicted && !(y->meas.v[SFM_REQUESTS][op] > 0))
                continue;
            *disagree += op_row(f, y->v, &y->p, &y->pr, &y->meas, op, &y->pa);
            (*nrows)++;
        }
    }
    free(x);
    return rc;
}

static int family_mode(const fam_opts *o)
{
    char err[512];
    static fam_run f;
    memset(&f, 0, sizeof f);
    f.o = o;
    if (tsv_read(o->runs, &f.runs, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    if (tsv_read(o->ncu, &f.ncu, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        tsv_free(&f.runs);
        return 1;
    }
    int rc = 1, nrows = 0, disagree = 0;
    if (tsv_col(&f.runs, "kernel") < 0 || tsv_col(&f.runs, "config") < 0) {
        fprintf(stderr, "%s: %s: the header lacks kernel or config (is it the engine's --table?)\n",
                PROG, o->runs);
        goto done;
    }
    if (tsv_col(&f.ncu, "kernel") < 0) {
        fprintf(stderr, "%s: %s: the header lacks kernel (is it bin/ncu_extract's table?)\n", PROG,
                o->ncu);
        goto done;
    }
    ncu_columns(&f);
    f.sms = o->given_sms ? o->base.sms : device_sms(tsv_meta(&f.runs, "device"));
    f.l2 = o->given_l2 ? o->base.l2_bytes : sf_model_l2_bytes(tsv_meta_num(&f.runs, "l2_bytes"), o->base.l2_bytes);
    family_head(&f);
    if (family_rows(&f, &nrows, &disagree))
        goto done;
    warn_unclaimed(&f);
    if (o->markdown)
        fprintf(OUT, "\n%d of %d rows disagree.\n", disagree, nrows);
    if (disagree)
        fprintf(stderr, "%s: %d of %d rows disagree with the model\n", PROG, disagree, nrows);
    rc = o->strict && disagree ? RC_STRICT_DISAGREE : 0;
    if (nrows == 0) {
        fprintf(stderr, "%s: %s: no row of %s has a model\n", PROG, o->runs, o->m->name);
        rc = 1;
    }
done:
    tsv_free(&f.runs);
    tsv_free(&f.ncu);
    return rc;
}

/* ------------------------------------------------------------ main */

static outfile out_file;
static const char *out_path;

/* Finish the output: flush, and for --out commit it through outfile (keep)
 * or remove it.  On a failure nothing is left behind. */
static int out_close(int keep)
{
    if (!out_path) return outfile_check_stdout(PROG);
    OUT = stdout;
    if (!keep) {
        outfile_abort(&out_file);
        return 0;
    }
    char err[4400];
    if (outfile_commit(&out_file, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    return 0;
}

static void usage(FILE *f, const cli_opt *t)
{
    fprintf(f,
        "usage: sector_compare MEASURED.tsv [options]     readonly's measured table\n"
        "       sector_compare --family F --runs RUNS.tsv --ncu NCU.tsv [options]\n"
        "  Predicted vs measured sectors (docs/sectors.md), one row per variant,\n"
        "  configuration and op, with a verdict.\n\n");
    cli_print_options(f, t);
    fprintf(f,
        "A row agrees when its requests and sectors are exact, its hits and L2 inside the\n"
        "model's bounds and its DRAM reads within 5 %%; a row the model can neither count\n"
        "nor walk (too large an N) is not predicted (agree -).  Exit: 0; 1 failure (or\n"
        "--strict and a row disagrees); 2 usage.\n");
}

/* The command line: every option's value and whether it was given. */
typedef struct cmp_args {
    const char *chart, *family, *runs, *ncu, *l2row;
    int measured, markdown, strict, lead_pad, pad_ld, walk;
    int given_n, given_g, given_l2, given_wpb, given_seed, given_sms;
    int given_bps, given_stencil;
    uint64_t opt_n, opt_g, opt_l2, opt_wpb, opt_seed, n0, n1, radius, sms, bps;
} cmp_args;

/* The readonly join's options (--family readonly): 0, or 2 after a usage
 * error. */
static int check_readonly_join(const cmp_args *a, const cli_parse_result *r)
{
    if (!a->runs || !a->ncu || r->npos)
        return cli_usage_error(PROG, "--family readonly takes --runs and --ncu (and "
                               "--measured or --l2-fetch-row); a measured table is "
                               "compared as sector_compare MEASURED.tsv");
    if (a->measured && a->l2row)
        return cli_usage_error(PROG, "--family readonly takes one of --measured and "
                               "--l2-fetch-row LIMIT");
    const char *l = a->l2row;
    if (l && strcmp(l, "0") && strcmp(l, "32") && strcmp(l, "64") && strcmp(l, "128"))
        return cli_usage_error(PROG, "--l2-fetch-row must be 0, 32, 64 or 128 (got '%s')", l);
    return 0;
}

/* A family's options (--family F, not readonly): its model in fo->m; 0, or
 * 2 after a usage error. */
static int check_family(const cmp_args *a, const cli_parse_result *r, fam_opts *fo)
{
    char names[256];
    fo->m = sf_model(a->family);
    if (!fo->m || !fo->m->nvariants)
        return cli_usage_error(PROG, "--family: unknown family '%s' (%s)", a->family,
                               sf_family_list(names, sizeof names, 0));
    if (r->npos)
        return cli_usage_error(PROG, "--family takes --runs and --ncu, not '%s'", r->pos[0]);
    if (!a->runs || !a->ncu)
        return cli_usage_error(PROG, "--family needs --runs RUNS.tsv and --ncu NCU.tsv");
    if (a->chart || a->given_n || a->given_wpb)
        return cli_usage_error(PROG, "--chart, --n and --wpb are the readonly measured "
                               "table's (a family's run gives N and WPB)");
    if (a->given_stencil && fo->m->shape != SF_SHAPE_2D)
        return cli_usage_error(PROG, "--n0, --n1, --radius and the pads are the stencil's");
    return 0;
}

/* The options together, for the mode they choose; 0, or 2 after a usage
 * error. */
static int check_args(const cmp_args *a, const cli_parse_result *r, fam_opts *fo)
{
    if (a->opt_g != 32 && a->opt_g != 64 && a->opt_g != 128)
        return cli_usage_error(PROG, "--dram-granularity must be 32, 64 or 128 (got %llu)",
                               (unsigned long long)a->opt_g);
    if (a->chart && !gp_format_for(a->chart))
        return cli_usage_error(PROG, "--chart: '%s' must end in .svg, .png or .pdf", a->chart);
    if (out_path && !*out_path)
        return cli_usage_error(PROG, "--out needs a file name");
    /* readonly's joins (its measured table, an L2 fetch row); without either
     * option it is compared as every family is */
    const int ro_join = a->family && !strcmp(a->family, "readonly") && (a->measured || a->l2row);
    if (ro_join)
        return check_readonly_join(a, r);
    if (a->measured || a->l2row)
        return cli_usage_error(PROG, "--measured and --l2-fetch-row go with --family readonly");
    if (a->family)
        return check_family(a, r, fo);
    if (a->runs || a->ncu)
        return cli_usage_error(PROG, "--runs and --ncu go with --family");
    if (a->given_stencil || a->given_sms || a->given_bps)
        return cli_usage_error(PROG, "the stencil and grid options go with --family");
    if (!r->npos)
        return cli_usage_error(PROG, "no MEASURED.tsv given");
    return 0;
}

/* --family F: the model's parameters from the options, then the table. */
static int run_family(const cmp_args *a, fam_opts *fo)
{
    sf_params_default(&fo->base);
    fo->base.granule_bytes = (unsigned)a->opt_g;
    fo->base.l2_bytes = a->opt_l2;
    fo->base.seed = a->opt_seed;
    fo->given_geometry = a->given_stencil;
    fo->base.n0 = a->n0;
    fo->base.n1 = a->n1;
    fo->base.radius = (unsigned)a->radius;
    fo->base.lead_pad = a->lead_pad;
    fo->base.pad_ld = a->pad_ld;
    fo->base.walk = a->walk;
    fo->base.sms = (unsigned)a->sms;
    fo->base.blocks_per_sm = (unsigned)a->bps;
    fo->given_sms = a->given_sms;
    fo->given_bps = a->given_bps;
    fo->given_l2 = a->given_l2;
    fo->runs = a->runs;
    fo->ncu = a->ncu;
    fo->markdown = a->markdown;
    fo->strict = a->strict;
    return family_mode(fo);
}

/* MEASURED.tsv: readonly's measured table against the families' model. */
static int measured_mode(const cmp_args *a, const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "%s: cannot open %s: %s\n", PROG, path, strerror(errno));
        return 1;
    }
    smt_opts o;
    memset(&o, 0, sizeof o);
    o.markdown = a->markdown;
    o.strict = a->strict;
    o.chart = a->chart;
    o.n = a->given_n ? a->opt_n : 0;
    o.granule = a->given_g ? a->opt_g : 0;
    o.l2_bytes = a->given_l2 ? a->opt_l2 : 0;
    o.wpb = a->given_wpb ? a->opt_wpb : 0;
    o.have_seed = a->given_seed;
    o.seed = a->opt_seed;
    o.walk = a->walk;
    const int rc = smt_compare(OUT, in, path, &o);
    fclose(in);
    return rc;
}

/* The table of the mode the options chose, into OUT; the status of main. */
static int run_mode(const cmp_args *a, const cli_parse_result *r, fam_opts *fo)
{
    int rc;
    if (a->family && !strcmp(a->family, "readonly") && (a->measured || a->l2row)) {
        rc = sro_join(OUT, a->runs, a->ncu, (unsigned)a->opt_g, a->l2row != NULL, a->l2row);
        int wr = out_close(rc == 0);
        return wr ? 1 : rc;
    }
    if (a->family)
        rc = run_family(a, fo);
    else
        rc = measured_mode(a, r->pos[0]);
    /* a disagreement under --strict keeps the table (it is whole); a failure
     * to read or compute keeps nothing */
    int wr = out_close(rc == 0 || rc == RC_STRICT_DISAGREE);
    return wr ? 1 : rc == RC_STRICT_DISAGREE ? 1 : rc;
}

int main(int argc, char **argv)
{
    OUT = stdout;
    cmp_args a;
    memset(&a, 0, sizeof a);
    sf_params dp;
    sf_params_default(&dp);
    a.opt_g = dp.granule_bytes, a.opt_l2 = dp.l2_bytes, a.opt_wpb = dp.wpb;
    a.opt_seed = dp.seed, a.n0 = 32, a.n1 = 1, a.radius = 1, a.sms = 132, a.bps = 16;
    const cli_opt opts[] = {
        CLI_FLAG_OPT("--markdown", &a.markdown, "a Markdown table instead of TSV"),
        CLI_FLAG_OPT("--strict", &a.strict, "exit 1 when any row disagrees"),
        CLI_FLAG_OPT("--walk", &a.walk, "the model walks every warp even where it counts by classes\n"
            "(the reference: the same table, slower)"),
        {"--out", 'o', CLI_STRING, 0, 0, 0, 0, &out_path, "FILE",
         "write the table to FILE (through FILE.tmp) instead of stdout", 0, 0},
        CLI_STRING_OPT("--chart", &a.chart, "OUT.svg",
            "MEASURED.tsv: sectors and time vs stride with gnuplot (.svg, .png or .pdf;\n"
            "writes OUT.gp and OUT.dat beside it)"),
        {"--n", 0, CLI_COUNT, 0, 1ull << 40, 0, 0, &a.opt_n, "N",
         "MEASURED.tsv: floats in the array (default: its '# n', else 1e7)", 0, &a.given_n},
        {"--dram-granularity", 0, CLI_U64, 32, 128, 0, 0, &a.opt_g, "B",
         "32, 64 or 128 (MEASURED.tsv: its '# dram_granularity_bytes'; else 64)", 0, &a.given_g},
        {"--l2-bytes", 0, CLI_COUNT, 0, 1ull << 40, 0, 0, &a.opt_l2, "B",
         "capacity of the LRU L2 model (default: with --family, half the L2 of the runs "
         "table's device; else 26214400, one H100 partition)", 0, &a.given_l2},
        {"--wpb", 0, CLI_U64, 1, 32, 0, 0, &a.opt_wpb, "W",
         "MEASURED.tsv: warps per block of the run (default: its '# wpb', else 4)", 0, &a.given_wpb},
        {"--seed", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &a.opt_seed, "S",
         "the random permutation's seed (default: '# seed', else 12345)", 0, &a.given_seed},
        CLI_STRING_OPT("--family", &a.family, "F",
            "a family with a model (copy, patterns, readonly, stencil); readonly\n"
            "also joins with --measured or --l2-fetch-row"),
        CLI_FLAG_OPT("--measured", &a.measured,
            "--family readonly: write its measured table (the input of MEASURED.tsv)"),
        CLI_STRING_OPT("--l2-fetch-row", &a.l2row, "LIMIT",
            "--family readonly: the L2 fetch-granularity row of a strided run made\n"
            "under cudaLimitMaxL2FetchGranularity LIMIT (0: the default)"),
        CLI_STRING_OPT("--runs", &a.runs, "RUNS.tsv", "the engine's table of the profiled run (--table)"),
        {"--ncu", 0, CLI_STRING, 0, 0, 0, 0, &a.ncu, "NCU.tsv", "bin/ncu_extract's table of its ncu log",
         0, 0},
        {"--n0", 0, CLI_COUNT, 0, SF_MAX_N, 0, 0, &a.n0, "N0", "stencil: points along i0 (32)", 0,
         &a.given_stencil},
        {"--n1", 0, CLI_COUNT, 0, SF_MAX_N, 0, 0, &a.n1, "N1", "stencil: points along i1 (1)", 0,
         &a.given_stencil},
        {"--radius", 0, CLI_U64, 1, 4, 0, 0, &a.radius, "R", "stencil: radius 1..4 (1)", 0,
         &a.given_stencil},
        {"--lead-pad", 0, CLI_FLAG, 0, 0, 0, 0, &a.lead_pad, 0, "stencil: the run used --lead-pad", 0,
         &a.given_stencil},
        {"--pad-leading-dim", 0, CLI_FLAG, 0, 0, 0, 0, &a.pad_ld, 0,
         "stencil: the run used --pad-leading-dim", 0, &a.given_stencil},
        {"--sms", 0, CLI_U64, 1, 1024, 0, 0, &a.sms, "SMS",
         "grid-stride copies: SMs (default: the run's '# device' line)", 0, &a.given_sms},
        {"--blocks-per-sm", 0, CLI_U64, 1, 64, 0, 0, &a.bps, "BPS",
         "grid-stride copies: resident blocks (default: the run's blocks_per_sm)", 0, &a.given_bps},
        CLI_END,
    };
    cli_parse_result r;
    int rc = cli_tool_parse(PROG, argc, argv, opts, 1, usage, &r);
    if (rc >= 0)
        return rc;
    fam_opts fo;
    memset(&fo, 0, sizeof fo);
    rc = check_args(&a, &r, &fo);
    if (rc)
        return rc;
    if (out_path) {
        char err[4400];
        OUT = outfile_open(&out_file, out_path, "w", err, sizeof err);
        if (!OUT) {
            fprintf(stderr, "%s: %s\n", PROG, err);
            return 1;
        }
    }
    return run_mode(&a, &r, &fo);
}

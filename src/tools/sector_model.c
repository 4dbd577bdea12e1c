/*
 * sector_model - what the memory system is predicted to move, from the
 * addresses alone (docs/sectors.md explains the models).
 *
 *   sector_model [--family copy|patterns|readonly|stencil] [--variant V,...] [--config LIST] ...
 *       one row per variant, configuration and op (ld, st) of the family
 *       (readonly when none is given): L1 requests,
 *       sectors, wavefronts, hits, L2 requests and sectors, DRAM sectors,
 *       bus utilization, and the background labs' figure beside it
 *   sector_model --list [FAMILY]        the modelled variants and their configurations
 *   sector_model --metrics FAMILY [--ncu-query FILE]
 *       the Nsight Compute metrics of a family (readonly too), comma-separated;
 *       with FILE (the output of `ncu --query-metrics`) only those the installed
 *       ncu has, the others named on stderr
 *   sector_model --lab [--markdown]     every lab figure beside the model's
 *   sector_model --list-families        the families with a model (the registry's)
 *   sector_model --ncu-recipe FAMILY [--quick] [--run-n N] [--wpb W] [--have FILE]
 *                [--batch-file FILE [--l2-fetch B]]
 *       the runs scripts/ncu_profile.sh makes for FAMILY (its model.c's recipe);
 *       with --batch-file, also the engine's batch file that runs them all in
 *       one process (one line a run, its fetch limit on it)
 *   sector_model --ncu-split FAMILY --recipe FILE --runs RUNS --ncu EXT --dir DIR
 *       that one process's table and bin/ncu_extract's table of its log, per
 *       run of the recipe: DIR/<run>_runs.tsv and DIR/<run>.tsv (ncu_split.h)
 *
 * Output is TSV with "#" metadata lines, or Markdown tables with --markdown.
 * Exit status: 0; 1 runtime failure (a write failed, a file unreadable);
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "outfile.h"
#include "family.h"
#include "sector_families.h"
#include "sector_family.h"
#include "ncu_split.h"
#include "sector_recipe.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "sector_model"


/* ------------------------------------------------------------ families */

/* What the family rows need besides the model's parameters. */
typedef struct fam_opts {
    const char *variants;    /* "stride,batch" or NULL: all */
    cli_list config;         /* --config, or empty: each variant's default list */
    int markdown;
} fam_opts;

static const char *FAM_COLS =
    "family\tvariant\tconfig\top\tl1_requests\tl1_sectors\tsectors_per_request\twavefronts"
    "\tl1_hits\tl1_hits_max\tl1_hit_pct\tl2_requests\tl2_requests_min\tl2_sectors"
    "\tl2_sectors_min\tdram_sectors\tl1_util_pct\tl2_util_pct\tdram_util_pct\tblocks\tlab"
    "\tlab_source\tlab_vs_model\n";

static double pct(double num, double den)
{
    return den > 0 ? 100 * num / den : NAN;
}

static void put_num(double v, const char *fmt)
{
    if (isnan(v))
        fputs("NA", stdout);
    else
        printf(fmt, v);
}

static void fam_row(const sf_variant *v, const sf_params *p, const sf_prediction *pr, sf_op op,
                    int markdown)
{
    const sf_counts *k = &pr->op[op];
    const double dram = op == SF_LD ? pr->dram_read_sectors : pr->dram_write_sectors;
    char lab[512], src[32], verdict[512], why[1024];
    if (sf_lab_row(v, p, op, lab, sizeof lab, src, sizeof src, verdict, sizeof verdict, why,
                   sizeof why) < 0)
        fprintf(stderr, "%s: %s: the lab's figure: %s\n", PROG, v->name, why);
    const double spr = k->requests > 0 ? k->sectors / k->requests : NAN;
    if (markdown) {
        printf("| %s | %s | %s | %.0f | %.0f | ", v->name, pr->config, op ? "st" : "ld",
               k->requests, k->sectors);
        put_num(spr, "%.2f");
        printf(" | %.0f | %.0f", k->wavefronts, k->hits);
        if (k->hits_max > k->hits)
            printf("..%.0f", k->hits_max);
        printf(" | %.0f", k->l2_requests);
        if (k->l2_requests_min < k->l2_requests)
            printf(" (>= %.0f)", k->l2_requests_min);
        printf(" | %.0f | %.0f | ", k->l2_sectors, dram);
        put_num(pct(k->bytes, 32 * k->sectors), "%.1f %%");
        if (strcmp(src, "-"))
            printf(" | %s | %s |\n", lab, verdict);
        else
            printf(" | - | - |\n");
        return;
    }
    printf("%s\t%s\t%s\t%s\t%.0f\t%.0f\t", sf_family_name(v), v->name, pr->config,
           op ? "st" : "ld", k->requests, k->sectors);
    put_num(spr, "%.4f");
    printf("\t%.0f\t%.0f\t%.0f\t", k->wavefronts, k->hits, k->hits_max);
    put_num(pct(k->hits, k->sectors), "%.2f");
    printf("\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t", k->l2_requests, k->l2_requests_min, k->l2_sectors,
           k->l2_sectors_min, dram);
    put_num(pct(k->bytes, 32 * k->sectors), "%.2f");
    putchar('\t');
    put_num(pct(k->bytes, 32 * k->l2_sectors), "%.2f");
    putchar('\t');
    put_num(pct(k->bytes, 32 * dram), "%.2f");
    printf("\t%llu\t%s\t%s\t%s\n", (unsigned long long)pr->blocks, lab, src, verdict);
}

/* Is NAME in the comma-separated list (NULL: everything is)? */
static int in_list(const char *list, const char *name)
{
    if (!list)
        return 1;
    const size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        const size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return 1;
        if (!c)
            break;
        p = c + 1;
    }
    return 0;
}

/* The configurations of v: --config, or its default list, or none. */
static int configs_of(const sf_variant *v, const sf_params *base, const fam_opts *o,
                      uint64_t *cfgs, size_t *ncfg, char *err, size_t errlen)
{
    *ncfg = 1;
    cfgs[0] = base->cfg;
    if (v->cfg == SF_CFG_NONE)
        return 0;
    if (o->config.n) {
        memcpy(cfgs, o->config.v, o->config.n * sizeof cfgs[0]);
        *ncfg = o->config.n;
        return 0;
    }
    return cli_parse_list("--config", v->cfg_default, 0, UINT64_MAX, cfgs, CLI_LIST_MAX, ncfg,
                          err, errlen);
}

static int family_rows(const struct fam_model *m, const sf_params *base, const fam_opts *o)
{
    char err[512];
    const char *fam = m->name;
    /* every name of --variant must be one of the family's */
    if (o->variants)
        for (const char *p = o->variants; *p;) {
            const char *c = strchr(p, ',');
            const size_t len = c ? (size_t)(c - p) : strlen(p);
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
            if (!sf_find(fam, name))
                return cli_usage_error(PROG, "--variant: %s has no variant '%s' (see --list %s)",
                                       fam, name, fam);
            if (!c)
                break;
            p = c + 1;
        }
    for (size_t i = 0; i < m->nvariants; i++) {
        const sf_variant *v = &m->variants[i];
        uint64_t cfgs[CLI_LIST_MAX];
        size_t ncfg;
        if (!in_list(o->variants, v->name) ||
            configs_of(v, base, o, cfgs, &ncfg, err, sizeof err))
            continue;
        for (size_t c = 0; c < ncfg; c++) {
            sf_params p = *base;
            p.cfg = cfgs[c];
            if (sf_check(v, &p, err, sizeof err)) {
                if (o->config.n) /* the user's --config: a usage error */
                    return cli_usage_error(PROG, "--config: %s %s: %s", fam, v->name, err);
                fprintf(stderr, "%s: %s %s: %s\n", PROG, fam, v->name, err);
                return 1;
            }
        }
    }
    if (o->markdown) {
        if (m->shape == SF_SHAPE_2D)
            printf("Predicted per launch: stencil %llu x %llu, radius %u%s%s, WPB %u, DRAM "
                   "granularity %u B\n\n", (unsigned long long)base->n0,
                   (unsigned long long)base->n1, base->radius, base->lead_pad ? ", lead pad" : "",
                   base->pad_ld ? ", leading-dim pad" : "", base->wpb, base->granule_bytes);
        else
            printf("Predicted per launch: %s, N = %llu, WPB %u, DRAM granularity %u B, L2 %llu B\n\n",
                   fam, (unsigned long long)base->n, base->wpb, base->granule_bytes,
                   (unsigned long long)base->l2_bytes);
        printf("| Variant | Config | Op | Requests | Sectors | Sectors/req | Wavefronts | L1 hits "
               "| L2 requests | L2 sectors | DRAM sectors | L1 util | Lab | Lab vs model |\n");
        printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
    } else {
        printf("# sector_model: predicted per launch (docs/sectors.md)\n");
        printf("# family\t%s\n", fam);
        if (m->shape != SF_SHAPE_2D)
            printf("# n\t%llu\n", (unsigned long long)base->n);
        printf("# wpb\t%u\n# dram_granularity_bytes\t%u\n# l2_bytes\t%llu\n# seed\t%llu\n",
               base->wpb, base->granule_bytes, (unsigned long long)base->l2_bytes,
               (unsigned long long)base->seed);
        if (m->shape == SF_SHAPE_2D)
            printf("# stencil\tn0 %llu, n1 %llu, radius %u, lead pad %s, leading-dim pad %s\n",
                   (unsigned long long)base->n0, (unsigned long long)base->n1, base->radius,
                   base->lead_pad ? "yes" : "no", base->pad_ld ? "yes" : "no");
        fputs(FAM_COLS, stdout);
    }
    for (size_t i = 0; i < m->nvariants; i++) {
        const sf_variant *v = &m->variants[i];
        if (!in_list(o->variants, v->name))
            continue;
        uint64_t cfgs[CLI_LIST_MAX];
        size_t ncfg;
        if (configs_of(v, base, o, cfgs, &ncfg, err, sizeof err)) {
            fprintf(stderr, "%s: internal: %s\n", PROG, err);
            return 1;
        }
        for (size_t c = 0; c < ncfg; c++) {
            sf_params p = *base;
            p.cfg = cfgs[c];
            sf_prediction pr;
            if (sf_predict(v, &p, &pr, err, sizeof err)) {
                fprintf(stderr, "%s: %s %s: %s\n", PROG, fam, v->name, err);
                return 1;
            }
            for (int op = 0; op < 2; op++)
                if (op == SF_LD ? pr.has_load : pr.has_store)
                    fam_row(v, &p, &pr, (sf_op)op, o->markdown);
        }
    }
    return 0;
}

static int list_variants(const char *fam)
{
    char names[256];
    const struct fam_model *want = fam ? sf_model(fam) : NULL;
    if (fam && (!want || !want->nvariants))
        return cli_usage_error(PROG, "--list: unknown family '%s' (%s)", fam,
                               sf_family_list(names, sizeof names, 0));
    printf("family\tvariant\tkernel\tconfig\tdefault\trule\n");
    for (const fam_entry *e = fam_registry; e->name; e++) {
        const struct fam_model *m = e->model;
        for (size_t i = 0; m && (!want || m == want) && i < m->nvariants; i++) {
            const sf_variant *v = &m->variants[i];
            printf("%s\t%s\t%s_%s\t%s\t%s\t%s\n", m->name, v->name, m->name, v->name,
                   v->cfg == SF_CFG_NONE ? "-" : sf_cfg_name(v->cfg),
                   v->cfg_default ? v->cfg_default : "-", v->rule);
        }
    }
    return 0;
}

static int list_metrics(const char *fam, const char *query, int proven_only)
{
    const struct fam_model *fm = sf_model(fam);
    if (!fm) {
        char names[256];
        return cli_usage_error(PROG, "--metrics: unknown family '%s' (%s)", fam,
                               sf_family_list(names, sizeof names, 1));
    }
    const unsigned bit = fm->metrics;
    char *q = NULL, err[512];
    size_t qlen = 0;
    if (query) {
        q = sf_query_read(query, &qlen, err, sizeof err);
        if (!q) {
            fprintf(stderr, "%s: %s\n", PROG, err);
            return 1;
        }
        if (!strstr(q, "__")) {
            fprintf(stderr, "%s: %s names no metric (is it the output of ncu --query-metrics?)\n",
                    PROG, query);
            free(q);
            return 1;
        }
    }
    /* which of the family's metrics this ncu has */
    int *have = calloc(sf_nmetrics, sizeof *have);
    if (!have) {
        fprintf(stderr, "%s: out of memory\n", PROG);
        free(q);
        return 1;
    }
    for (size_t i = 0; i < sf_nmetrics; i++) {
        const sf_metric *m = &sf_metrics[i];
        const char *dot = strchr(m->name, '.');
        const size_t blen = dot ? (size_t)(dot - m->name) : strlen(m->name);
        have[i] = (m->sets & bit) && !m->shown_only && (!q || m->always || sf_query_has(q, m->name, blen)) &&
                  (!proven_only || m->proven);
    }
    /* a list without the counters every H100 ncu has is not ncu's list */
    int proven_seen = !q;
    for (size_t i = 0; i < sf_nmetrics; i++)
        proven_seen |= have[i] && sf_metrics[i].proven && !sf_metrics[i].always;
    if (!proven_seen) {
        fprintf(stderr, "%s: %s lists none of the counters every ncu of an H100 has (e.g. "
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld): not the output of ncu --query-metrics?\n",
                PROG, query);
        free(q);
        free(have);
        return 1;
    }
    int n = 0;
    for (size_t i = 0; i < sf_nmetrics; i++) {
        const sf_metric *m = &sf_metrics[i];
        if (!(m->sets & bit) || m->shown_only || (proven_only && !m->proven))
            continue;
        if (have[i]) {
            printf("%s%s", n ? "," : "", m->name);
            n++;
            continue;
        }
        /* another name of the same quantity (lg / lgds) may stand in */
        const char *alt = NULL;
        for (size_t j = 0; j < sf_nmetrics && !alt; j++)
            if (j != i && have[j] && sf_metrics[j].m == m->m && sf_metrics[j].op == m->op)
                alt = sf_metrics[j].name;
        if (alt)
            fprintf(stderr, "%s: %s is not in this ncu; %s measures the same\n", PROG, m->name, alt);
        else
            fprintf(stderr, "%s: the installed ncu lacks %s: left out, its column will be NA\n",
                    PROG, m->name);
    }
    putchar('\n');
    free(q);
    free(have);
    if (n == 0) {
        fprintf(stderr, "%s: no metric of %s is available\n", PROG, fam);
        return 1;
    }
    return 0;
}

/* Each name of a comma-separated list, as one sentence on stderr. */
static void say_each(const char *list, const char *fmt_prefix, const char *fmt_suffix)
{
    for (const char *p = list; *p;) {
        const size_t k = strcspn(p, ",");
        fprintf(stderr, "%s: %s%.*s%s\n", PROG, fmt_prefix, (int)k, p, fmt_suffix);
        p += k + (p[k] == ',');
    }
}

/* The runs scripts/ncu_profile.sh makes for a family (sector_recipe.h). */
static int ncu_recipe(const char *fam, int quick, const char *n, unsigned wpb, const char *have_path,
                      const char *batch_path, const char *l2_fetch)
{
    static char v[8192], missing[8192], extra[8192];
    char names[256], err[512], pre[128];
    const struct fam_model *m = sf_model(fam);
    if (!m)
        return cli_usage_error(PROG, "--ncu-recipe: unknown family '%s' (%s)", fam,
                               sf_family_list(names, sizeof names, 1));
    char *have = NULL;
    size_t hlen = 0;
    if (have_path && !(have = sf_query_read(have_path, &hlen, err, sizeof err))) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    const int nv = sf_recipe_variants(m, have, v, sizeof v, missing, sizeof missing, extra,
                                      sizeof extra, err, sizeof err);
    free(have);
    if (nv < 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    if (m->nvariants) {   /* readonly's tables have no variant list to hold the program to */
        snprintf(pre, sizeof pre, "the %s program has no variant ", fam);
        say_each(missing, pre, ": left out");
        snprintf(pre, sizeof pre, "%s ", fam);
        say_each(extra, pre, " has no sector model (no kernel of its own?): not profiled");
        if (nv == 0) {
            fprintf(stderr, "%s: no variant of the %s program has a sector model\n", PROG, fam);
            return 1;
        }
    }
    if (!m->nncu) {
        fprintf(stderr, "%s: %s has no ncu recipe\n", PROG, fam);
        return 1;
    }
    outfile bo;
    FILE *batch = batch_path ? outfile_open(&bo, batch_path, "w", err, sizeof err) : NULL;
    if (batch_path && !batch) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    if (sf_recipe_write(stdout, batch, m, quick, n ? n : m->ncu_n, wpb, v, l2_fetch, err, sizeof err)) {
        if (batch)
            outfile_abort(&bo);
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    if (batch && outfile_commit(&bo, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    return 0;
}

/* One batch's table and launches, per run of the recipe (ncu_split.h). */
static int ncu_split(const char *fam, const char *recipe, const char *runs, const char *ncu,
                     const char *dir)
{
    char names[256], err[1024];
    if (!sf_model(fam))
        return cli_usage_error(PROG, "--ncu-split: unknown family '%s' (%s)", fam,
                               sf_family_list(names, sizeof names, 1));
    if (sns_split(recipe, runs, ncu, fam, dir, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    return 0;
}

/* Every lab figure, at parameters that match it, beside the model's value
 * (an entry for every load path, "spread_*", is shown for the first path). */
static int lab_table(int markdown, unsigned granule)
{
    char err[512];
    if (markdown) {
        printf("| Source | Family | Variant | Config | Op | Quantity | Lab | Model | H100 |\n");
        printf("|---|---|---|---|---|---|---:|---:|---|\n");
    } else {
        printf("# sector_model --lab: the background labs' figures beside the model\n");
        printf("source\tfamily\tvariant\tconfig\top\tquantity\tlab\tmodel\tverdict\tlab_says\th100\n");
    }
    for (const fam_entry *f = fam_registry; f->name; f++)
    for (size_t i = 0; f->model && i < f->model->nlabs; i++) {
        const sf_lab *e = &f->model->labs[i];
        for (size_t j = 0; j < f->model->nvariants; j++) {
            const sf_variant *v = &f->model->variants[j];
            sf_params p;
            sf_lab_params(e, v, NULL, &p);
            p.granule_bytes = granule;
            if (!sf_lab_matches(e, v, &p, e->op))
                continue;
            sf_prediction pr;
            if (sf_predict(v, &p, &pr, err, sizeof err)) {
                fprintf(stderr, "%s: %s: %s\n", PROG, v->name, err);
                return 1;
            }
            const double m = sf_quantity_value(&pr, e->op, e->q);
            const int ok = sf_lab_agrees(e, m);
            const size_t L = strlen(e->variant);
            const int prefix = L && e->variant[L - 1] == '*';
            if (markdown)
                printf("| %s | %s | %s%s | %s | %s | %s | %.4g | %.4g | %s |\n", e->source,
                       sf_family_name(v), v->name, prefix ? " (any path)" : "", pr.config,
                       e->op ? "st" : "ld",
                       sf_quantity_name(e->q), e->value, m,
                       ok ? "agrees" : e->h100 ? e->h100 : "DIFFERS (no reason known)");
            else
                printf("%s\t%s\t%s\t%s\t%s\t%s\t%.6g\t%.6g\t%s\t%s\t%s\n", e->source,
                       sf_family_name(v), v->name, pr.config, e->op ? "st" : "ld",
                       sf_quantity_name(e->q), e->value, m, ok ? "agrees" : "differs", e->what,
                       ok ? "-" : e->h100 ? e->h100 : "no reason known");
            if (prefix)
                break;
        }
    }
    return 0;
}

static void usage(FILE *f, const cli_opt *t)
{
    sf_params d;
    sf_params_default(&d);
    fprintf(f,
        "usage: sector_model [--family F] [--variant V,...] [--config LIST] [options]\n"
        "       sector_model --list [FAMILY] | --list-families | --metrics FAMILY [--ncu-query FILE] | --lab\n"
        "       sector_model --ncu-recipe FAMILY [--quick] [--run-n N] [--wpb W] [--have FILE]\n"
        "                    [--batch-file FILE [--l2-fetch B]]\n"
        "       sector_model --ncu-split FAMILY --recipe FILE --runs RUNS --ncu EXT --dir DIR\n"
        "  Predicted L1 requests, sectors, wavefronts and hits, L2 requests and sectors,\n"
        "  DRAM sectors, from the addresses alone (docs/sectors.md).\n\n");
    cli_print_options(f, t);
    fprintf(f,
        "Defaults: family readonly, N = 1e7; granularity %u B; L2 %llu B (one of the\n"
        "H100's two partitions); seed %llu.  Exit: 0 ok, 1 failure, 2 usage.\n",
        d.granule_bytes, (unsigned long long)d.l2_bytes, (unsigned long long)d.seed);
}

/* The values of the command line. */
typedef struct sm_args {
    int markdown, lab, lead_pad, pad_ld, proven, walk;
    int given_n, given_list, given_config, given_families, quick;
    uint64_t n, granule, l2, seed, wpb, n0, n1, radius, grid, sms, bps;
    const char *family, *variants, *list, *metrics, *query, *recipe, *run_n, *have;
    const char *batch, *l2_fetch, *split, *split_recipe, *runs, *ncu, *dir;
} sm_args;

/* --family F: the family's rows. */
static int run_family(const sm_args *a, fam_opts *fo)
{
    char names[256];
    sf_params fp;
    sf_params_default(&fp);
    const struct fam_model *fm = sf_model(a->family);
    if (!fm || !fm->nvariants)
        return cli_usage_error(PROG, "--family: unknown family '%s' (%s)", a->family,
                               sf_family_list(names, sizeof names, 0));
    fp.n = a->given_n ? a->n : fm->n_default;
    if (fp.n > SF_MAX_N)
        return cli_usage_error(PROG, "--n must be at most %llu for --family",
                               (unsigned long long)SF_MAX_N);
    fp.wpb = (unsigned)a->wpb;
    fp.seed = a->seed;
    fp.granule_bytes = (unsigned)a->granule;
    fp.l2_bytes = a->l2;
    fp.grid_blocks = a->grid;
    fp.sms = (unsigned)a->sms;
    fp.blocks_per_sm = (unsigned)a->bps;
    fp.n0 = a->n0;
    fp.n1 = a->n1;
    fp.radius = (unsigned)a->radius;
    fp.lead_pad = a->lead_pad;
    fp.pad_ld = a->pad_ld;
    fp.walk = a->walk;
    fo->variants = a->variants;
    fo->markdown = a->markdown;
    return family_rows(fm, &fp, fo);
}

int main(int argc, char **argv)
{
    sf_params d;
    sf_params_default(&d);
    sm_args a;
    memset(&a, 0, sizeof a);
    a.n = d.n, a.granule = d.granule_bytes, a.l2 = d.l2_bytes, a.seed = d.seed, a.wpb = d.wpb;
    a.n0 = d.n0, a.n1 = d.n1, a.radius = d.radius, a.sms = d.sms, a.bps = d.blocks_per_sm;
    fam_opts fo;
    memset(&fo, 0, sizeof fo);
    const cli_opt opts[] = {
        {"--n", 0, CLI_COUNT, 0, 1ull << 40, 0, 0, &a.n, "N", "elements of each array: 1e7 and 10000000 both work (default: the family's)", 0, &a.given_n},
        CLI_NUM_OPT("--dram-granularity", CLI_U64, 32, 128, &a.granule, "B", "L2 -> DRAM fetch granularity: 32, 64 or 128"),
        CLI_NUM_OPT("--l2-bytes", CLI_COUNT, 0, 1ull << 40, &a.l2, "B", "capacity of the LRU L2 model"),
        CLI_NUM_OPT("--seed", CLI_U64, 0, UINT64_MAX, &a.seed, "S", "the random permutation's seed (readonly random_access, patterns random)"),
        CLI_FLAG_OPT("--markdown", &a.markdown, "Markdown tables instead of TSV"),
        CLI_FLAG_OPT("--walk", &a.walk, "walk every warp even where the family counts by classes (the reference)"),
        CLI_STRING_OPT("--family", &a.family, "F", "copy, patterns, readonly or stencil: the family's rows (default readonly)"),
        CLI_STRING_OPT("--variant", &a.variants, "V,...", "only these variants (default: all the family's modelled ones)"),
        {"--config", 0, CLI_LIST, 0, 1ull << 32, 0, 0, &fo.config, "LIST", "the configurations (stride, batch or offset) instead of the defaults", 0, &a.given_config},
        CLI_NUM_OPT("--wpb", CLI_U64, 1, 32, &a.wpb, "W", "warps per block (default 4)"),
        CLI_NUM_OPT("--n0", CLI_COUNT, 0, SF_MAX_N, &a.n0, "N0", "stencil: points along i0 (32)"),
        CLI_NUM_OPT("--n1", CLI_COUNT, 0, SF_MAX_N, &a.n1, "N1", "stencil: points along i1 (1)"),
        CLI_NUM_OPT("--radius", CLI_U64, 1, 4, &a.radius, "R", "stencil: radius, 1..4 (1)"),
        CLI_FLAG_OPT("--lead-pad", &a.lead_pad, "stencil: pad the start so that point (0,0) begins a line"),
        CLI_FLAG_OPT("--pad-leading-dim", &a.pad_ld, "stencil: round the leading dimension up to 32 floats"),
        CLI_NUM_OPT("--grid-blocks", CLI_COUNT, 0, 1ull << 32, &a.grid, "G", "grid-stride copies: blocks launched (default SMS x BPS)"),
        CLI_NUM_OPT("--sms", CLI_U64, 1, 1024, &a.sms, "SMS", "grid-stride copies: SMs (132)"),
        CLI_NUM_OPT("--blocks-per-sm", CLI_U64, 1, 64, &a.bps, "BPS", "grid-stride copies: resident blocks per SM (16)"),
        CLI_FLAG_OPT("--list", &a.given_list, "list the modelled variants (of the FAMILY given as argument, or all)"),
        CLI_FLAG_OPT("--list-families", &a.given_families, "the families with a sector model, one a line (what ncu_profile.sh all profiles)"),
        CLI_STRING_OPT("--metrics", &a.metrics, "FAMILY", "print the Nsight Compute metrics of FAMILY (readonly, copy, patterns, stencil)"),
        CLI_STRING_OPT("--ncu-query", &a.query, "FILE", "with --metrics: keep those `ncu --query-metrics` printed into FILE"),
        CLI_FLAG_OPT("--proven", &a.proven, "with --metrics: only those seen in real H100 captures (a fallback)"),
        CLI_FLAG_OPT("--lab", &a.lab, "every lab figure beside the model"),
        CLI_STRING_OPT("--ncu-recipe", &a.recipe, "FAMILY", "the ncu runs of FAMILY (scripts/ncu_profile.sh), TSV: run, args, kernel, l2_fetch, compare, output"),
        CLI_FLAG_OPT("--quick", &a.quick, "with --ncu-recipe: the short set"),
        CLI_STRING_OPT("--run-n", &a.run_n, "N", "with --ncu-recipe: N as the program is given it (default: the family's)"),
        CLI_STRING_OPT("--have", &a.have, "FILE", "with --ncu-recipe: the program's --list-kernels; only the variants it has"),
        CLI_STRING_OPT("--batch-file", &a.batch, "FILE", "with --ncu-recipe: also write the engine's --batch-file of the runs, one line each"),
        CLI_STRING_OPT("--l2-fetch", &a.l2_fetch, "B", "with --batch-file: the limit of the runs that take the script's (32, 64 or 128)"),
        CLI_STRING_OPT("--ncu-split", &a.split, "FAMILY", "split one batch's table and launches per run of the recipe (--recipe, --runs, --ncu, --dir)"),
        CLI_STRING_OPT("--recipe", &a.split_recipe, "FILE", "with --ncu-split: the recipe (--ncu-recipe's output)"),
        CLI_STRING_OPT("--runs", &a.runs, "RUNS", "with --ncu-split: the batch's engine table (--table)"),
        CLI_STRING_OPT("--ncu", &a.ncu, "EXT", "with --ncu-split: bin/ncu_extract's table of the batch's log"),
        CLI_STRING_OPT("--dir", &a.dir, "DIR", "with --ncu-split: where <run>_runs.tsv and <run>.tsv go"),
        CLI_END,
    };
    cli_parse_result r;
    int rc = cli_tool_parse(PROG, argc, argv, opts, 1, usage, &r);
    if (rc >= 0)
        return rc;
    if (r.npos && !a.given_list)
        return cli_usage_error(PROG, "unexpected argument '%s'", r.pos[0]);
    a.list = r.npos ? r.pos[0] : NULL;
    if (a.granule != 32 && a.granule != 64 && a.granule != 128)
        return cli_usage_error(PROG, "--dram-granularity must be 32, 64 or 128 (got %llu)",
                               (unsigned long long)a.granule);
    if ((a.query || a.proven) && !a.metrics)
        return cli_usage_error(PROG, "--ncu-query and --proven go with --metrics FAMILY");
    if ((a.quick || a.run_n || a.have) && !a.recipe)
        return cli_usage_error(PROG, "--quick, --run-n and --have go with --ncu-recipe FAMILY");
    if ((a.batch || a.l2_fetch) && !a.recipe)
        return cli_usage_error(PROG, "--batch-file and --l2-fetch go with --ncu-recipe FAMILY");
    if (a.l2_fetch && (!a.batch || (strcmp(a.l2_fetch, "32") && strcmp(a.l2_fetch, "64") &&
                                    strcmp(a.l2_fetch, "128"))))
        return cli_usage_error(PROG, "--l2-fetch takes 32, 64 or 128, with --batch-file");
    if ((a.split_recipe || a.runs || a.ncu || a.dir) && !a.split)
        return cli_usage_error(PROG, "--recipe, --runs, --ncu and --dir go with --ncu-split FAMILY");
    if (a.split && !(a.split_recipe && a.runs && a.ncu && a.dir))
        return cli_usage_error(PROG, "--ncu-split needs --recipe, --runs, --ncu and --dir");
    if (!a.family)   /* the original study's kernels, as before the families came */
        a.family = "readonly";

    if (a.given_families) {
        for (const fam_entry *e = fam_registry; e->name; e++)
            if (e->model)
                printf("%s\n", e->name);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (a.given_list)
        rc = list_variants(a.list);
    else if (a.recipe)
        rc = ncu_recipe(a.recipe, a.quick, a.run_n, (unsigned)a.wpb, a.have, a.batch, a.l2_fetch);
    else if (a.split)
        rc = ncu_split(a.split, a.split_recipe, a.runs, a.ncu, a.dir);
    else if (a.metrics)
        rc = list_metrics(a.metrics, a.query, a.proven);
    else if (a.lab)
        rc = lab_table(a.markdown, (unsigned)a.granule);
    else
        rc = run_family(&a, &fo);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: cannot write the output: %s\n", PROG, strerror(errno));
        return 1;
    }
    return rc;
}

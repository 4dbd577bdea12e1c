/*
 * fleet.c - the figures of one GPU's results folder and the comparison of
 * many (contract and rule: fleet.h; how to read the output: docs/fleet.md).
 *
 * Why these figures: each one moves when a GPU is unwell in a way its
 * siblings are not.  DRAM latency rises with a memory clock set low or a
 * memory error being corrected; the L2 plateaus move with the L2 clock;
 * read bandwidth falls with either, and with a link or power limit; the SM
 * clock under load falls when the card throttles; the probes' overhead
 * rises when the SM clock or the L2 misbehave.  All come from files that
 * scripts/reference.sh writes anyway.
 */
#define _POSIX_C_SOURCE 200809L
#include "fleet.h"
#include "err.h"
#include "outfile.h"
#include "names.h"
#include "plateau.h"
#include "tsv.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const fleet_figure_def fleet_figures[FLEET_NFIG] = {
    [FLEET_DRAM_LAT_CYCLES]    = {"dram_lat_cycles", "cycles", 0.1,
                                  "DRAM latency: the last plateau of the latency ladder"},
    [FLEET_DRAM_LAT_NS]        = {"dram_lat_ns", "ns", 0.1,
                                  "DRAM latency in ns (the plateau's ns_per_load)"},
    [FLEET_L2_NEAR_LAT_CYCLES] = {"l2_near_lat_cycles", "cycles", 0.1,
                                  "L2 hit latency, near partition (or the only L2 plateau)"},
    [FLEET_L2_FAR_LAT_CYCLES]  = {"l2_far_lat_cycles", "cycles", 0.1,
                                  "L2 hit latency, far partition"},
    [FLEET_READ_BW_GBPS]       = {"read_bw_GBps", "GB/s", 0.1,
                                  "best read bandwidth (ceiling.tsv, else readonly float4 at WPB 4)", 1},
    [FLEET_SM_CLOCK_MHZ]       = {"sm_clock_MHz", "MHz", 1.0,
                                  "SM clock measured under a memory-bound load"},
    /* the overhead is a few percent and may be near 0: a relative floor alone
     * would flag a 0.5 against a 1.5 %; one percentage point is the spread of
     * overhead_pct between WPBs of one run */
    [FLEET_OVERHEAD_MAX_PCT]   = {"overhead_max_pct", "%", 1.0,
                                  "largest overhead of the probes (overhead.tsv)"},
};

int fleet_figure_find(const char *name)
{
    for (int i = 0; i < FLEET_NFIG; i++)
        if (name && !strcmp(name, fleet_figures[i].name)) return i;
    return -1;
}

void fleet_rule_default(fleet_rule *r)
{
    r->k_mads = 3.0;
    r->floor_pct = 1.0;
    r->min_group = 3;
    r->pct_below = 5.0;
}

/* ------------------------------------------------------------ statistics */

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the finite values of v, computed on a sorted copy. */
double fleet_median(const double *v, size_t n)
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) return NAN;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i])) s[k++] = v[i];
    double m = NAN;
    if (k) {
        qsort(s, k, sizeof *s, cmp_double);
        m = k % 2 ? s[k / 2] : 0.5 * (s[k / 2 - 1] + s[k / 2]);
    }
    free(s);
    return m;
}

double fleet_mad(const double *v, size_t n, double median)
{
    if (!isfinite(median)) return NAN;
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (!d) return NAN;
    for (size_t i = 0; i < n; i++) d[i] = isfinite(v[i]) ? fabs(v[i] - median) : NAN;
    const double m = fleet_median(d, n);
    free(d);
    return m;
}

void fleet_judge_values(const double *v, size_t n, double resolution, const fleet_rule *rule,
                        fleet_fig *out)
{
    size_t have = 0;
    for (size_t i = 0; i < n; i++) have += isfinite(v[i]) != 0;
    const double med = fleet_median(v, n);
    const double mad = fleet_mad(v, n, med);
    double floor_v = fabs(med) * rule->floor_pct / 100.0;
    if (!(floor_v >= resolution)) floor_v = resolution;
    const int judged = (int)have >= rule->min_group && isfinite(med) && isfinite(mad);
    for (size_t i = 0; i < n; i++) {
        fleet_fig *f = &out[i];
        f->n = (int)have;
        f->median = med;
        f->mad = mad;
        f->floor = floor_v;
        f->distance_mads = f->pct_from_median = NAN;
        f->flagged = -1;
        f->by_mad = f->by_pct = 0;
        f->note[0] = 0;
        if (!isfinite(v[i])) {
            snprintf(f->note, sizeof f->note, "no value");
        } else if (!judged) {
            snprintf(f->note, sizeof f->note,
                     "not judged: %zu GPU%s of this model with this figure, the rule needs %d",
                     have, have == 1 ? "" : "s", rule->min_group);
        } else {
            const double scale = mad > floor_v ? mad : floor_v;
            f->distance_mads = (v[i] - med) / scale;
            f->pct_from_median = med != 0 ? 100.0 * (v[i] - med) / fabs(med) : NAN;
            f->flagged = f->by_mad = fabs(f->distance_mads) > rule->k_mads;
            if (mad < floor_v)
                snprintf(f->note, sizeof f->note, "MAD %.3g below the floor: distance in floors of %.3g",
                         mad, floor_v);
        }
    }
}

void fleet_judge_below(fleet_fig *out, size_t n, double pct_below)
{
    for (size_t i = 0; i < n && pct_below > 0; i++)
        if (out[i].flagged >= 0 && out[i].pct_from_median < -pct_below) out[i].by_pct = out[i].flagged = 1;
}

void fleet_judge_figure(const double *v, size_t n, int fig, const fleet_rule *rule, fleet_fig *out)
{
    fleet_judge_values(v, n, fleet_figures[fig].resolution, rule, out);
    if (fleet_figures[fig].below_rule) fleet_judge_below(out, n, rule->pct_below);
}

const char *fleet_flag_rule(const fleet_fig *x)
{
    if (x->flagged != 1) return "-";
    return x->by_mad && x->by_pct ? "both" : x->by_pct ? "pct_below_median" : "mad";
}

int fleet_judge(fleet_gpu *gpus, size_t n, const fleet_rule *rule)
{
    if (!n) return 0;
    size_t *idx = malloc(n * sizeof *idx);
    double *v = malloc(n * sizeof *v);
    fleet_fig *res = malloc(n * sizeof *res);
    char *done = calloc(n, 1);
    if (!idx || !v || !res || !done) {
        free(idx), free(v), free(res), free(done);
        return -1;
    }
    for (size_t a = 0; a < n; a++) {
        if (done[a]) continue;
        size_t m = 0;   /* the group of gpus[a]: the same device name */
        for (size_t b = a; b < n; b++)
            if (!done[b] && !strcmp(gpus[b].name, gpus[a].name)) idx[m++] = b, done[b] = 1;
        for (int f = 0; f < FLEET_NFIG; f++) {
            for (size_t i = 0; i < m; i++) v[i] = gpus[idx[i]].fig[f].value;
            fleet_judge_figure(v, m, f, rule, res);
            for (size_t i = 0; i < m; i++) {   /* the judgement, not the value and its source */
                fleet_fig *dst = &gpus[idx[i]].fig[f];
                res[i].value = dst->value;
                memcpy(res[i].source, dst->source, sizeof res[i].source);
                *dst = res[i];
            }
        }
    }
    free(idx), free(v), free(res), free(done);
    return 0;
}

/* ------------------------------------------------------------ output */

/* A number as a TSV field: "nan" when not finite. */
static void put_num(FILE *f, const char *fmt, double v)
{
    if (isfinite(v)) fprintf(f, fmt, v);
    else fputs("nan", f);
}

static void put_rule(FILE *f, const fleet_rule *r, const fleet_gpu *g, size_t n)
{
    fprintf(f, "# rule\tflagged when |value - median| > %g x max(MAD, floor); median and MAD (median "
               "absolute deviation, unscaled) over the GPUs of one model (device name) that have the "
               "figure; floor = max(%g %% of |median|, the figure's resolution); models with fewer "
               "than %d such GPUs are not judged; read_bw_GBps is also flagged more than %g %% below the "
               "median, whatever the MAD rule says (0: off)\n",
            r->k_mads, r->floor_pct, r->min_group, r->pct_below);
    fprintf(f, "# k_mads\t%g\n# floor_pct\t%g\n# min_group\t%d\n# pct_below\t%g\n# gpus\t%zu\n", r->k_mads,
            r->floor_pct, r->min_group, r->pct_below, n);
    /* the models, each with its number of GPUs */
    size_t nmodels = 0;
    fprintf(f, "# models\t");
    for (size_t a = 0; a < n; a++) {
        int seen = 0;
        for (size_t b = 0; b < a && !seen; b++) seen = !strcmp(g[a].name, g[b].name);
        if (seen) continue;
        size_t c = 0;
        for (size_t b = a; b < n; b++) c += !strcmp(g[a].name, g[b].name);
        fprintf(f, "%s%s (%zu)", nmodels ? "; " : "", g[a].name, c);
        nmodels++;
    }
    fprintf(f, "\n# model_count\t%zu\n", nmodels);
}

static void write_fleet(FILE *f, const fleet_gpu *g, size_t n, const fleet_rule *r)
{
    fprintf(f, "# fleet: one row per GPU and figure (docs/fleet.md); figures are compared only among "
               "GPUs of one model\n");
    put_rule(f, r, g, n);
    for (int k = 0; k < FLEET_NFIG; k++)
        fprintf(f, "# figure_%s\t%s (%s)\n", fleet_figures[k].name, fleet_figures[k].what,
                fleet_figures[k].unit);
    fprintf(f, "# distance_mads\t(value - median) / max(mad, mad_floor), signed; flagged 1, 0, or - "
               "(not judged: see note); rule: what flagged it (mad, pct_below_median, both; - when not)\n");
    fprintf(f, "gpu\tname\tfigure\tvalue\tunit\tmedian\tmad\tdistance_mads\tpct_from_median\tflagged\trule\t"
               "uuid\tn\tmad_floor\tsource\tnote\tfolder\n");
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < FLEET_NFIG; k++) {
            const fleet_fig *x = &g[i].fig[k];
            fprintf(f, "%s\t%s\t%s\t", g[i].label, g[i].name, fleet_figures[k].name);
            put_num(f, "%.6g", x->value);
            fprintf(f, "\t%s\t", fleet_figures[k].unit);
            put_num(f, "%.6g", x->median);
            fputc('\t', f);
            put_num(f, "%.4g", x->mad);
            fputc('\t', f);
            put_num(f, "%.2f", x->distance_mads);
            fputc('\t', f);
            put_num(f, "%.2f", x->pct_from_median);
            fprintf(f, "\t%s\t%s\t%s\t%d\t", x->flagged < 0 ? "-" : x->flagged ? "1" : "0", fleet_flag_rule(x),
                    g[i].uuid, x->n);
            put_num(f, "%.4g", x->floor);
            char src[sizeof x->source], note[sizeof x->note], dir[sizeof g[i].dir];
            fleet_field_copy(src, sizeof src, x->source);
            fleet_field_copy(note, sizeof note, x->note);
            fleet_field_copy(dir, sizeof dir, g[i].dir);
            fprintf(f, "\t%s\t%s\t%s\n", src, note, dir);
        }
}

static void write_summary(FILE *f, const fleet_gpu *g, size_t n, const fleet_rule *r)
{
    fprintf(f, "# fleet summary: one row per GPU; verdict flagged (a figure beyond the rule), ok "
               "(every judged figure within it), not judged (too few GPUs of its model)\n");
    put_rule(f, r, g, n);
    size_t nflag = 0;
    for (size_t i = 0; i < n; i++) {
        int fl = 0;
        for (int k = 0; k < FLEET_NFIG; k++) fl |= g[i].fig[k].flagged == 1;
        nflag += fl;
    }
    fprintf(f, "# flagged_gpus\t%zu\n", nflag);
    fprintf(f, "gpu\tname\tuuid\tfigures\tjudged\tflagged\tverdict\tflagged_figures\tname_source\n");
    for (size_t i = 0; i < n; i++) {
        int have = 0, judged = 0, flagged = 0;
        char list[512] = "";
        for (int k = 0; k < FLEET_NFIG; k++) {
            const fleet_fig *x = &g[i].fig[k];
            have += isfinite(x->value) != 0;
            judged += x->flagged >= 0;
            if (x->flagged == 1) {
                flagged++;
                const size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, "%s%s %+.1f (%s)", l ? ", " : "", fleet_figures[k].name,
                         x->distance_mads, fleet_flag_rule(x));
            }
        }
        fprintf(f, "%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\n", g[i].label, g[i].name, g[i].uuid, have, judged,
                flagged, flagged ? "flagged" : judged ? "ok" : "not judged", flagged ? list : "-",
                g[i].name_source);
    }
}

/* The chart's data: per figure and model, each GPU's value against the
 * model's median and the band the rule allows. */
static void write_chart(FILE *f, const fleet_gpu *g, size_t n, const fleet_rule *r)
{
    fprintf(f, "# fleet chart data: per figure and model, each GPU's value, its ratio to the model's "
               "median and the band median +- k x max(MAD, floor) that the rule allows (read_bw_GBps: its "
               "low end at most pct_below %% below the median)\n");
    fprintf(f, "# k_mads\t%g\n", r->k_mads);
    fprintf(f, "figure\tunit\tname\tgpu\tindex\tvalue\tratio\tdistance_mads\tband_lo\tband_hi\tflagged\trule\n");
    for (int k = 0; k < FLEET_NFIG; k++) {
        for (size_t a = 0; a < n; a++) {
            int seen = 0;
            for (size_t b = 0; b < a && !seen; b++) seen = !strcmp(g[a].name, g[b].name);
            if (seen) continue;
            int index = 0;
            for (size_t b = a; b < n; b++) {
                if (strcmp(g[a].name, g[b].name) != 0) continue;
                const fleet_fig *x = &g[b].fig[k];
                if (!isfinite(x->value)) continue;
                const double scale = x->mad > x->floor ? x->mad : x->floor;
                double lo = x->median - r->k_mads * scale;   /* the band: both rules */
                if (fleet_figures[k].below_rule && r->pct_below > 0 && x->median * (1 - r->pct_below / 100) > lo)
                    lo = x->median * (1 - r->pct_below / 100);
                fprintf(f, "%s\t%s\t%s\t%s\t%d\t", fleet_figures[k].name, fleet_figures[k].unit, g[b].name,
                        g[b].label, ++index);
                put_num(f, "%.6g", x->value);
                fputc('\t', f);
                put_num(f, "%.5f", x->value / x->median);
                fputc('\t', f);
                put_num(f, "%.2f", x->distance_mads);
                fputc('\t', f);
                put_num(f, "%.6g", x->flagged >= 0 ? lo : NAN);
                fputc('\t', f);
                put_num(f, "%.6g", x->flagged >= 0 ? x->median + r->k_mads * scale : NAN);
                fprintf(f, "\t%s\t%s\n", x->flagged < 0 ? "-" : x->flagged ? "1" : "0", fleet_flag_rule(x));
            }
        }
    }
}

int fleet_write(const char *outdir, const fleet_gpu *gpus, size_t n, const fleet_rule *rule,
                char *err, size_t errlen)
{
    outfile o[3];
    static const char *const base[3] = {"fleet.tsv", "fleet_summary.tsv", "fleet_chart.tsv"};
    int k, rc = 0;
    memset(o, 0, sizeof o);
    if (strlen(outdir) > 4000) {
        set_err(err, errlen, "the output folder name is longer than 4000 characters");
        return -1;
    }
    for (k = 0; k < 3; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", outdir, base[k]);
        if (!outfile_open(&o[k], path, "w", err, errlen)) { rc = -1; break; }
    }
    if (rc == 0) {
        write_fleet(o[0].f, gpus, n, rule);
        write_summary(o[1].f, gpus, n, rule);
        write_chart(o[2].f, gpus, n, rule);
    }
    /* every file written before any is renamed: the three appear together */
    for (int i = 0; i < 3 && rc == 0; i++)
        if (outfile_close(&o[i], err, errlen) != 0) rc = -1;
    for (int i = 0; i < 3; i++) {
        if (rc == 0 && outfile_commit(&o[i], err, errlen) != 0) rc = -1;
        else if (rc != 0) outfile_abort(&o[i]);
    }
    return rc;
}

/* ------------------------------------------------------------ finding folders */

typedef struct dirlist {
    char **v;
    size_t n, cap;
} dirlist;

static int dl_add(dirlist *l, const char *p)
{
    if (l->n == l->cap) {
        const size_t cap = l->cap ? 2 * l->cap : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) return -1;
        l->v = v, l->cap = cap;
    }
    if (!(l->v[l->n] = strdup(p))) return -1;
    l->n++;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Depth-first, in name order.  A folder that cannot be listed is skipped: a
 * fleet's shared folder may hold other people's folders.  A symbolic link to
 * a folder is not followed (lstat): three links to "." made the walk grow as
 * 3^depth.  -1 only when memory runs out. */
static int walk(const char *dir, int depth, int max_depth, dirlist *l)
{
    if (fleet_is_results_dir(dir)) return dl_add(l, dir);
    if (depth >= max_depth) return 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    dirlist sub = {0};
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;   /* ., .., and a task's unfinished folder */
        char p[1400];
        struct stat st;
        if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= sizeof p) continue;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) rc = dl_add(&sub, p);
    }
    closedir(d);
    if (sub.n) qsort(sub.v, sub.n, sizeof *sub.v, cmp_str);
    for (size_t i = 0; i < sub.n && rc == 0; i++) rc = walk(sub.v[i], depth + 1, max_depth, l);
    fleet_free_dirs(sub.v, sub.n);
    return rc;
}

int fleet_find(const char *root, int max_depth, char ***dirs, size_t *n, char *err, size_t errlen)
{
    dirlist l = {0};
    *dirs = NULL, *n = 0;
    char r[1024];
    if (strlen(root) >= sizeof r) {
        set_err(err, errlen, "the folder name is longer than %zu characters", sizeof r - 1);
        return -1;
    }
    snprintf(r, sizeof r, "%s", root);
    for (size_t k = strlen(r); k > 1 && r[k - 1] == '/'; k--) r[k - 1] = 0;
    DIR *d = opendir(r);
    if (!d) {
        set_err(err, errlen, "cannot list %s: %s", r, strerror(errno));
        return -1;
    }
    closedir(d);
    if (walk(r, 0, max_depth, &l) != 0) {
        set_err(err, errlen, "out of memory listing %s", r);
        fleet_free_dirs(l.v, l.n);
        return -1;
    }
    *dirs = l.v, *n = l.n;
    return 0;
}

void fleet_free_dirs(char **dirs, size_t n)
{
    for (size_t i = 0; i < n; i++) free(dirs[i]);
    free(dirs);
}

/* ------------------------------------------------------------ keys */

int fleet_gpu_key(char *buf, size_t len, int ordinal, const char *uuid, const char *name)
{
    if (!name || !*name) return -1;
    if (uuid && names_gpu(buf, len, ordinal, uuid, name) == 0) return 0;
    /* no UUID (an older results folder): the contract's name with "nouuid"
     * in the UUID's place; names_gpu builds the rest so that the name part
     * stays the contract's */
    char tmp[256];
    if (names_gpu(tmp, sizeof tmp, ordinal, "00000000", name) != 0) return -1;
    const char *rest = strstr(tmp, "-00000000-");
    if (!rest) return -1;
    const int w = snprintf(buf, len, "gpu%d-nouuid-%s", ordinal, rest + 10);
    return w < 0 || (size_t)w >= len ? -1 : 0;
}

/* report_glance.c - the first screen and summary.json (report_glance.h). */
#define _POSIX_C_SOURCE 200809L
#include "report_glance.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drift.h"
#include "fleet.h"
#include "outfile.h"

/* ------------------------------------------------------------ what the sections register */

typedef struct glance_fam {
    char family[64];
    char kernel[128], config[128];
    double wpb, bw, pct, gflops;
    char headline[1024];
    char why[1024], why_section[96];
} glance_fam;

struct rc_glance {
    glance_fam fam[RC_MAX_GPUS][RC_MAX_FAMILIES];
    int nfam[RC_MAX_GPUS];
};

struct rc_glance *rc_glance_new(void) { return rc_xcalloc(1, sizeof(struct rc_glance)); }

static glance_fam *fam_of(const rc_ctx *c, int gi, const char *family)
{
    if (!c->glance || gi < 0 || gi >= RC_MAX_GPUS) return NULL;
    struct rc_glance *g = c->glance;
    for (int k = 0; k < g->nfam[gi]; k++)
        if (!strcmp(g->fam[gi][k].family, family)) return &g->fam[gi][k];
    if (g->nfam[gi] == RC_MAX_FAMILIES) return NULL;
    glance_fam *f = &g->fam[gi][g->nfam[gi]++];
    memset(f, 0, sizeof *f);
    snprintf(f->family, sizeof f->family, "%s", family);
    f->wpb = f->bw = f->pct = f->gflops = NAN;
    return f;
}

void rc_glance_headline(const rc_ctx *c, int gi, const char *family, const char *kernel, const char *config,
                        double wpb, double bw, double pct, double gflops, const char *text)
{
    glance_fam *f = fam_of(c, gi, family);
    if (!f || *f->headline) return;
    snprintf(f->kernel, sizeof f->kernel, "%s", kernel ? kernel : "");
    snprintf(f->config, sizeof f->config, "%s", config && strcmp(config, "-") ? config : "");
    f->wpb = wpb;
    f->bw = bw;
    f->pct = pct;
    f->gflops = gflops;
    snprintf(f->headline, sizeof f->headline, "%s", text);
}

void rc_glance_why(const rc_ctx *c, int gi, const char *family, const char *text, const char *section)
{
    glance_fam *f = fam_of(c, gi, family);
    if (!f || *f->why) return;
    snprintf(f->why, sizeof f->why, "%s", text);
    snprintf(f->why_section, sizeof f->why_section, "%s", section);
}

/* ------------------------------------------------------------ text */

void rc_glance_sentence(const char *text, size_t max, char *buf, size_t len)
{
    if (!len) return;
    /* the first sentence: up to ". " before a capital letter, or the end */
    size_t n = strlen(text);
    for (size_t i = 0; text[i]; i++)
        if (text[i] == '.' && text[i + 1] == ' ' && isupper((unsigned char)text[i + 2])) { n = i + 1; break; }
    if (n > max) {
        /* cut at the last clause boundary before max */
        size_t cut = 0;
        for (size_t i = 0; i + 1 < max; i++)
            if ((text[i] == ';' || text[i] == ':' || text[i] == ',') && text[i + 1] == ' ') cut = i;
        n = cut > max / 3 ? cut : max;
        snprintf(buf, len, "%.*s ...", (int)n, text);
        return;
    }
    snprintf(buf, len, "%.*s", (int)n, text);
}

/* The text between a and b (after a, before the first b after it) into
 * buf; 0, or -1 when either is not there. */
static int between(const char *text, const char *a, const char *b, char *buf, size_t len)
{
    const char *p = strstr(text, a);
    if (!p) return -1;
    p += strlen(a);
    const char *q = strstr(p, b);
    if (!q) return -1;
    snprintf(buf, len, "%.*s", (int)(q - p), p);
    return 0;
}

void rc_glance_littles(const char *text, char *buf, size_t len)
{
    /* "K reaches P% of peak at W warps per block; at the measured L-cycle
     * median latency Little's law needs ... (X per SM), while R hold Y per
     * SM: VERDICT..." -> "Little's law at K's L-cycle median latency needs X
     * in flight per SM; R hold Y: VERDICT" */
    char k[128], l[64], x[64], r[160], y[64], v[400];
    if (sscanf(text, "%127s reaches", k) != 1 || between(text, "at the measured ", " median", l, sizeof l) ||
        between(text, "GPU (", " per SM)", x, sizeof x) || between(text, "while ", " hold ", r, sizeof r) ||
        between(text, " hold ", " per SM: ", y, sizeof y)) {
        rc_glance_sentence(text, 220, buf, len);
        return;
    }
    const char *vv = strstr(text, " per SM: ");
    snprintf(v, sizeof v, "%s", vv + 9);
    v[strcspn(v, "(:;")] = 0;
    size_t n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == ',' || v[n - 1] == '.')) v[--n] = 0;
    snprintf(buf, len, "Little's law at %s's %s median latency needs %s in flight per SM; %s hold %s: %s.", k, l, x, r,
             y, v);
}

void rc_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch == '\n') fputs("\\n", f);
        else if (ch == '\t') fputs("\\t", f);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

/* {"value": v, "unit": "u"}, or null for NAN */
static void json_fig(FILE *f, double v, const char *unit)
{
    if (!isfinite(v)) { fputs("null", f); return; }
    fprintf(f, "{\"value\": %.10g, \"unit\": ", v);
    rc_json_str(f, unit);
    fputc('}', f);
}

/* The first finding of section id for GPU G (its "h100: " prefix when
 * several GPUs are shown, taken off), or NULL. */
static const char *first_finding(const report_doc *d, const rc_ctx *c, const rc_gpu *G, const char *id)
{
    char p[64];
    rc_pfx(c, G, p, sizeof p);
    for (size_t s = 0; s < d->nsection; s++) {
        const rd_section *sec = &d->section[s];
        if (!sec->id || strcmp(sec->id, id)) continue;
        for (size_t b = 0; b < sec->nblock; b++) {
            const rd_block *k = &sec->block[b];
            if (k->kind == RD_FINDING && k->text && !strncmp(k->text, p, strlen(p))) return k->text + strlen(p);
        }
    }
    return NULL;
}

static int has_section(const report_doc *d, const char *id)
{
    for (size_t s = 0; s < d->nsection; s++)
        if (d->section[s].id && !strcmp(d->section[s].id, id)) return 1;
    return 0;
}

/* ------------------------------------------------------------ the figures of one GPU */

#define MAX_MC 8
typedef struct glance_gpu {
    double l1_cyc, l1_ns, l2n_cyc, l2n_ns, l2f_cyc, l2f_ns, dram_cyc, dram_ns;
    double read_GBps, read_pct;
    double overhead_max_pct;
    char overhead_src[224];
    /* model check: one per summary */
    int nmc;
    char mc_name[MAX_MC][64];
    double mc_agree[MAX_MC], mc_rows[MAX_MC], mc_pct[MAX_MC];
    /* drift (gpu mode): -1 not measured */
    int drift_within, drift_outside, drift_nc, drift_done;
    char drift_outside_names[256], drift_bundled[1024], drift_note[256];
} glance_gpu;

static void mc_read(glance_gpu *x, const char *path, const char *name)
{
    tsv_table t;
    char err[256];
    if (x->nmc == MAX_MC || !rc_exists(path) || tsv_read(path, &t, err, sizeof err) != 0) return;
    const long all = tsv_find(&t, "family", "all", 0);
    if (all >= 0) {
        snprintf(x->mc_name[x->nmc], sizeof x->mc_name[0], "%s", name);
        x->mc_agree[x->nmc] = tsv_num(&t, (size_t)all, "agree");
        x->mc_rows[x->nmc] = tsv_num(&t, (size_t)all, "rows");
        x->mc_pct[x->nmc] = tsv_num(&t, (size_t)all, "agree_pct");
        x->nmc++;
    }
    tsv_free(&t);
}

static int name_cmp(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

static void gpu_figures(const rc_gpu *G, const char *mode, const char *ref_root, glance_gpu *x)
{
    memset(x, 0, sizeof *x);
    x->l1_cyc = x->l1_ns = x->l2n_cyc = x->l2n_ns = x->l2f_cyc = x->l2f_ns = x->dram_cyc = x->dram_ns = NAN;
    for (int k = 0; k < G->nlv; k++) {
        const plateau_level *l = &G->lv[k];
        if (!strcmp(l->name, "L1")) x->l1_cyc = l->cycles, x->l1_ns = l->ns;
        else if (!strcmp(l->name, "L2") || !strcmp(l->name, "L2-near")) x->l2n_cyc = l->cycles, x->l2n_ns = l->ns;
        else if (!strcmp(l->name, "L2-far")) x->l2f_cyc = l->cycles, x->l2f_ns = l->ns;
        else if (!strcmp(l->name, "DRAM")) x->dram_cyc = l->cycles, x->dram_ns = l->ns;
    }
    x->read_GBps = x->read_pct = NAN;
    for (int k = 0; k < G->nceiling; k++)
        if (!strcmp(G->ceiling[k].op, "read")) x->read_GBps = G->ceiling[k].bw_GBps, x->read_pct = G->ceiling[k].pct_theoretical;
    fleet_gpu *fg = rc_xcalloc(1, sizeof *fg);
    char err[512];
    x->overhead_max_pct = NAN;
    if (fleet_read_gpu(G->r.dir, G->label, fg, err, sizeof err) == 0) {
        x->overhead_max_pct = fg->fig[FLEET_OVERHEAD_MAX_PCT].value;
        snprintf(x->overhead_src, sizeof x->overhead_src, "%s", fg->fig[FLEET_OVERHEAD_MAX_PCT].source);
    }
    free(fg);
    char path[4608];
    snprintf(path, sizeof path, "%s/model_check_summary.tsv", G->r.dir);
    mc_read(x, path, "this run");
    snprintf(path, sizeof path, "%s/model_check", G->r.dir);
    DIR *dp = opendir(path);
    if (dp) {
        char names[MAX_MC][256];
        int n = 0;
        for (struct dirent *e; (e = readdir(dp)) && n < MAX_MC;)
            if (!strncmp(e->d_name, "seed", 4)) snprintf(names[n++], sizeof names[0], "%s", e->d_name);
        closedir(dp);
        qsort(names, (size_t)n, sizeof names[0], name_cmp);
        for (int i = 0; i < n; i++) {
            snprintf(path, sizeof path, "%s/model_check/%s/model_check_summary.tsv", G->r.dir, names[i]);
            char nm[64];
            snprintf(nm, sizeof nm, "seed %.50s", names[i] + 4);
            mc_read(x, path, nm);
        }
    }
    x->drift_done = 0;
    if (strcmp(mode, "gpu")) {
        snprintf(x->drift_note, sizeof x->drift_note, "not measured: this report shows results already on disk");
        return;
    }
    if (drift_find_bundled(ref_root, G->name, x->drift_bundled, sizeof x->drift_bundled) != 0) {
        snprintf(x->drift_note, sizeof x->drift_note, "not compared: %s has no bundled results of %s", ref_root, G->name);
        return;
    }
    drift_row rows[FLEET_NFIG];
    if (drift_compare(G->r.dir, x->drift_bundled, rows, err, sizeof err) < 0) {
        snprintf(x->drift_note, sizeof x->drift_note, "not compared: %.200s", err);
        return;
    }
    x->drift_done = 1;
    for (int i = 0; i < FLEET_NFIG; i++) {
        if (rows[i].verdict == 1) x->drift_within++;
        else if (rows[i].verdict == 0) {
            x->drift_outside++;
            const size_t u = strlen(x->drift_outside_names);
            snprintf(x->drift_outside_names + u, sizeof x->drift_outside_names - u, "%s%s", u ? ", " : "",
                     rows[i].figure);
        } else x->drift_nc++;
    }
}

/* ------------------------------------------------------------ the section */

static void line(report_doc *d, rd_section *s, const char *text, const char *id, const char *title)
{
    char target[128];
    snprintf(target, sizeof target, "#%s", id);
    rd_links_start(d, s, text);
    rd_link(d, s, target, title);
}

static const char *section_title(const report_doc *d, const char *id)
{
    for (size_t s = 0; s < d->nsection; s++)
        if (d->section[s].id && !strcmp(d->section[s].id, id)) return d->section[s].title;
    return id;
}

static void lat(char *buf, size_t len, const char *name, double cyc, double ns)
{
    if (!isfinite(cyc)) { buf[0] = 0; return; }
    snprintf(buf, len, "%s %.0f cycles (%.0f ns)", name, cyc, ns);
}

static void gpu_block(report_doc *d, rd_section *s, const rc_ctx *c, int gi, const glance_gpu *x)
{
    const rc_gpu *G = &c->g[gi];
    char t[2048], b[4][96];
    rd_heading(d, s, "%s%s%s", c->ng > 1 ? G->label : "", c->ng > 1 ? ": " : "", G->name);
    snprintf(t, sizeof t, "Device: %.0f SMs at %.0f MHz (%s), memory %.0f MHz x %.0f bits: DRAM peak %.0f GB/s.",
             G->dev.sm_count, G->dev.sm_clock_MHz, *G->clock_src ? G->clock_src : "nominal", G->mem_clock_MHz,
             G->bus_bits, G->dev.peak_GBps);
    line(d, s, t, "device", section_title(d, "device"));
    if (isfinite(x->read_GBps)) {
        snprintf(t, sizeof t, "Ceiling: the best read reaches %.1f GB/s, %.1f%% of the theoretical %.0f GB/s.",
                 x->read_GBps, x->read_pct, G->dev.peak_GBps);
        line(d, s, t, has_section(d, "ceiling") ? "ceiling" : "device",
             section_title(d, has_section(d, "ceiling") ? "ceiling" : "device"));
    }
    lat(b[0], sizeof b[0], "L1", x->l1_cyc, x->l1_ns);
    lat(b[1], sizeof b[1], isfinite(x->l2f_cyc) ? "L2 near" : "L2", x->l2n_cyc, x->l2n_ns);
    lat(b[2], sizeof b[2], "L2 far", x->l2f_cyc, x->l2f_ns);
    lat(b[3], sizeof b[3], "DRAM", x->dram_cyc, x->dram_ns);
    if (*b[0] || *b[3]) {
        size_t u = (size_t)snprintf(t, sizeof t, "Ladder (dependent loads):");
        int k = 0;
        for (int i = 0; i < 4 && u < sizeof t; i++)
            if (*b[i]) u += (size_t)snprintf(t + u, sizeof t - u, "%s %s", k++ ? "," : "", b[i]);
        if (u < sizeof t) snprintf(t + u, sizeof t - u, ".");
        line(d, s, t, "ladder", section_title(d, "ladder"));
    }
    const struct rc_glance *g = c->glance;
    for (int k = 0; g && k < g->nfam[gi]; k++) {
        const glance_fam *f = &g->fam[gi][k];
        char id[96], sent[600];
        snprintf(id, sizeof id, "family-%s", f->family);
        if (*f->headline) {
            rc_glance_sentence(f->headline, 220, sent, sizeof sent);
            snprintf(t, sizeof t, "%s: %s", f->family, sent);
            line(d, s, t, id, section_title(d, id));
        }
        if (*f->why) {
            if (strstr(f->why, "Little's law needs")) rc_glance_littles(f->why, sent, sizeof sent);
            else rc_glance_sentence(f->why, 220, sent, sizeof sent);
            snprintf(t, sizeof t, "%s, why: %s", f->family, sent);
            line(d, s, t, f->why_section, section_title(d, f->why_section));
        }
    }
    if (isfinite(x->overhead_max_pct)) {
        snprintf(t, sizeof t, "Probes: their largest overhead is %+.2f%% of the clean kernel's time (%s).",
                 x->overhead_max_pct, x->overhead_src);
        line(d, s, t, "overhead", section_title(d, "overhead"));
    }
    if (x->drift_done) {
        snprintf(t, sizeof t, "Drift against the bundled results: %d figure%s within tolerance, %d outside%s%s%s, %d not compared.",
                 x->drift_within, x->drift_within == 1 ? "" : "s", x->drift_outside, *x->drift_outside_names ? " (" : "",
                 x->drift_outside_names, *x->drift_outside_names ? ")" : "", x->drift_nc);
        line(d, s, t, "run", section_title(d, "run"));
    } else if (!strncmp(x->drift_note, "not compared", 12)) {
        snprintf(t, sizeof t, "Drift: %s.", x->drift_note);
        line(d, s, t, "run", section_title(d, "run"));
    }
    if (x->nmc) {
        size_t u = (size_t)snprintf(t, sizeof t, "Model check on random configurations:");
        for (int i = 0; i < x->nmc && u < sizeof t; i++)
            u += (size_t)snprintf(t + u, sizeof t - u, "%s %.0f of %.0f rows agree (%.1f%%, %s)", i ? ";" : "",
                                  x->mc_agree[i], x->mc_rows[i], x->mc_pct[i], x->mc_name[i]);
        if (u < sizeof t) snprintf(t + u, sizeof t - u, ".");
        line(d, s, t, "sectors", section_title(d, "sectors"));
    }
}

/* ------------------------------------------------------------ the fleet */

/* A field of fleet.tsv's row r, "" when the column is missing. */
static const char *ff(const tsv_table *t, size_t r, const char *col)
{
    const char *v = tsv_get(t, r, col);
    return v ? v : "";
}

/* The row whose a is va and b is vb, or -1. */
static long tsv_find2(const tsv_table *t, const char *a, const char *va, const char *b, const char *vb)
{
    for (long r = tsv_find(t, a, va, 0); r >= 0; r = tsv_find(t, a, va, (size_t)r + 1))
        if (!strcmp(ff(t, (size_t)r, b), vb)) return r;
    return -1;
}

static void fleet_value(char *buf, size_t len, const tsv_table *t, size_t r)
{
    const double v = tsv_num(t, r, "value");
    const char *fmt = !strcmp(ff(t, r, "unit"), "%") ? "%.2f" : "%.1f";
    if (!isfinite(v)) { snprintf(buf, len, "-"); return; }
    int u = snprintf(buf, len, fmt, v);
    if (!strcmp(ff(t, r, "flagged"), "1") && u > 0 && (size_t)u < len)
        snprintf(buf + u, len - (size_t)u, " (flagged: %s)", ff(t, r, "rule"));
}

/* One model's table: a row per GPU, a column per figure that some GPU of
 * the model has, the verdict; then the median and the MAD.  The flags as
 * findings, each with its rule.  Returns the GPUs flagged. */
static int fleet_model(report_doc *d, rd_section *s, const tsv_table *t, const tsv_table *sum, const char *model)
{
    int figs[FLEET_NFIG], nf = 0, ngpu = 0, nflag = 0;
    const char *gpus[RC_MAX_GPUS * 8];
    for (int k = 0; k < FLEET_NFIG; k++) {
        int any = 0;
        for (size_t r = 0; r < t->nrow; r++)
            any |= !strcmp(ff(t, r, "name"), model) && !strcmp(ff(t, r, "figure"), fleet_figures[k].name) &&
                   isfinite(tsv_num(t, r, "value"));
        if (any) figs[nf++] = k;
    }
    for (size_t r = 0; r < t->nrow; r++) {
        if (strcmp(ff(t, r, "name"), model)) continue;
        int seen = 0;
        for (int i = 0; i < ngpu && !seen; i++) seen = !strcmp(gpus[i], ff(t, r, "gpu"));
        if (!seen && ngpu < (int)(sizeof gpus / sizeof gpus[0])) gpus[ngpu++] = ff(t, r, "gpu");
    }
    rd_table *tab = rd_table_new((size_t)nf + 2);
    rd_table_set(tab, 0, 0, "gpu");
    for (int j = 0; j < nf; j++) rd_table_set(tab, 0, (size_t)j + 1, "%s", fleet_figures[figs[j]].name);
    rd_table_set(tab, 0, (size_t)nf + 1, "verdict");
    char cell[160];
    for (int i = 0; i < ngpu; i++) {
        rd_table_set(tab, (size_t)i + 1, 0, "%s", gpus[i]);
        for (int j = 0; j < nf; j++) {
            const long r = tsv_find2(t, "gpu", gpus[i], "figure", fleet_figures[figs[j]].name);
            if (r < 0) { rd_table_set(tab, (size_t)i + 1, (size_t)j + 1, "-"); continue; }
            fleet_value(cell, sizeof cell, t, (size_t)r);
            rd_table_set(tab, (size_t)i + 1, (size_t)j + 1, "%s", cell);
        }
        const long v = sum ? tsv_find(sum, "gpu", gpus[i], 0) : -1;
        rd_table_set(tab, (size_t)i + 1, (size_t)nf + 1, "%s", v >= 0 ? ff(sum, (size_t)v, "verdict") : "-");
    }
    static const char *const stat[2] = {"median", "mad"};
    for (int q = 0; q < 2; q++) {
        rd_table_set(tab, (size_t)ngpu + 1 + q, 0, "%s", q ? "MAD" : "median");
        for (int j = 0; j < nf; j++) {
            const long r = ngpu ? tsv_find2(t, "gpu", gpus[0], "figure", fleet_figures[figs[j]].name) : -1;
            const double v = r >= 0 ? tsv_num(t, (size_t)r, stat[q]) : NAN;
            const int pct = !strcmp(fleet_figures[figs[j]].unit, "%");
            rd_table_set(tab, (size_t)ngpu + 1 + q, (size_t)j + 1, isfinite(v) ? (q || pct ? "%.2f" : "%.1f") : "-", v);
        }
        rd_table_set(tab, (size_t)ngpu + 1 + q, (size_t)nf + 1, "-");
    }
    rd_table_add(d, s, tab);
    const char *note = NULL;
    for (size_t r = 0; r < t->nrow; r++) {
        if (strcmp(ff(t, r, "name"), model)) continue;
        if (!strcmp(ff(t, r, "flagged"), "-") && !strncmp(ff(t, r, "note"), "not judged", 10) && !note) note = ff(t, r, "note");
        if (strcmp(ff(t, r, "flagged"), "1")) continue;
        nflag++;
        rd_finding(d, s, "Flagged: %s, %s %s %s against the median %s (%+.2f%%, %+.1f MADs): rule %s.", ff(t, r, "gpu"),
                   ff(t, r, "figure"), ff(t, r, "value"), ff(t, r, "unit"), ff(t, r, "median"),
                   tsv_num(t, r, "pct_from_median"), tsv_num(t, r, "distance_mads"), ff(t, r, "rule"));
    }
    if (!nflag && note) rd_finding(d, s, "%s: not judged (%s).", model, note + strlen("not judged: "));
    else if (!nflag) rd_finding(d, s, "%s: no GPU stands out; every figure is within both rules.", model);
    return nflag;
}

/* The fleet of a report of several GPUs measured together: data/fleet.tsv
 * (bin/fleet collect), a table per model, and the flags with their rule.
 * Nothing when the report has no fleet.tsv (one GPU). */
static void fleet_block(report_doc *d, rd_section *s, const rc_ctx *c)
{
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/data/fleet.tsv", c->outdir);
    if (!rc_exists(path)) return;
    tsv_table t, sum;
    if (tsv_read(path, &t, err, sizeof err) != 0) {
        rd_failed(d, s, "the fleet table (data/fleet.tsv)", err);
        return;
    }
    snprintf(path, sizeof path, "%s/data/fleet_summary.tsv", c->outdir);
    const int have_sum = rc_exists(path) && tsv_read(path, &sum, err, sizeof err) == 0;
    rd_heading(d, s, "The fleet: %.0f GPUs measured at once", tsv_meta_num(&t, "gpus"));
    rd_para(d, s, "Each figure of each GPU against the median of the GPUs of its model (bin/fleet, docs/fleet.md): "
                  "flagged when it lies more than %g MADs from the median (rule mad), or, for read_bw_GBps, more "
                  "than %g%% below it (rule pct_below_median); a model with fewer than %g GPUs is not judged.",
            tsv_meta_num(&t, "k_mads"), tsv_meta_num(&t, "pct_below"), tsv_meta_num(&t, "min_group"));
    const char *models[RC_MAX_GPUS * 8];
    int nm = 0;
    for (size_t r = 0; r < t.nrow; r++) {
        int seen = 0;
        for (int i = 0; i < nm && !seen; i++) seen = !strcmp(models[i], ff(&t, r, "name"));
        if (!seen && nm < (int)(sizeof models / sizeof models[0])) models[nm++] = ff(&t, r, "name");
    }
    for (int i = 0; i < nm; i++) fleet_model(d, s, &t, have_sum ? &sum : NULL, models[i]);
    rd_links_start(d, s, "data:");
    rd_link(d, s, "data/fleet.tsv", "fleet.tsv");
    if (have_sum) rd_link(d, s, "data/fleet_summary.tsv", "fleet_summary.tsv");
    if (have_sum) tsv_free(&sum);
    tsv_free(&t);
}

/* ------------------------------------------------------------ summary.json */

static void json_lat(FILE *f, const char *name, double cyc, double ns, int last)
{
    fprintf(f, "        ");
    rc_json_str(f, name);
    fputs(": {\"cycles\": ", f);
    json_fig(f, cyc, "cycles");
    fputs(", \"time\": ", f);
    json_fig(f, ns, "ns");
    fprintf(f, "}%s\n", last ? "" : ",");
}

static int write_json(FILE *f, const rc_ctx *c, const glance_gpu *xs, const char *mode)
{
    fputs("{\n  \"format\": \"warplat report summary\",\n  \"version\": 1,\n  \"mode\": ", f);
    rc_json_str(f, mode);
    fputs(",\n  \"gpus\": [\n", f);
    for (int gi = 0; gi < c->ng; gi++) {
        const rc_gpu *G = &c->g[gi];
        const glance_gpu *x = &xs[gi];
        fputs("    {\n      \"label\": ", f);
        rc_json_str(f, G->label);
        fputs(",\n      \"device\": {\"name\": ", f);
        rc_json_str(f, G->name);
        fputs(", \"sm_count\": ", f);
        json_fig(f, G->dev.sm_count, "SMs");
        fputs(", \"sm_clock\": ", f);
        json_fig(f, G->dev.sm_clock_MHz, "MHz");
        fputs(", \"sm_clock_source\": ", f);
        rc_json_str(f, *G->clock_src ? G->clock_src : "nominal");
        fputs(", \"memory_clock\": ", f);
        json_fig(f, G->mem_clock_MHz, "MHz");
        fputs(", \"memory_bus\": ", f);
        json_fig(f, G->bus_bits, "bits");
        fputs(", \"dram_peak\": ", f);
        json_fig(f, G->dev.peak_GBps, "GB/s");
        fputs("},\n      \"ceiling\": {\"read\": ", f);
        json_fig(f, x->read_GBps, "GB/s");
        fputs(", \"pct_of_theoretical\": ", f);
        json_fig(f, x->read_pct, "%");
        fputs("},\n      \"ladder\": {\n", f);
        json_lat(f, "L1", x->l1_cyc, x->l1_ns, 0);
        json_lat(f, "L2_near", x->l2n_cyc, x->l2n_ns, 0);
        json_lat(f, "L2_far", x->l2f_cyc, x->l2f_ns, 0);
        json_lat(f, "DRAM", x->dram_cyc, x->dram_ns, 1);
        fputs("      },\n      \"families\": [\n", f);
        const struct rc_glance *g = c->glance;
        for (int k = 0; g && k < g->nfam[gi]; k++) {
            const glance_fam *q = &g->fam[gi][k];
            fputs("        {\"family\": ", f);
            rc_json_str(f, q->family);
            fputs(", \"kernel\": ", f);
            rc_json_str(f, q->kernel);
            fputs(", \"config\": ", f);
            rc_json_str(f, q->config);
            fputs(", \"warps_per_block\": ", f);
            json_fig(f, q->wpb, "warps");
            fputs(", \"bandwidth\": ", f);
            json_fig(f, isfinite(q->gflops) ? NAN : q->bw, "GB/s");
            fputs(", \"pct_of_peak\": ", f);
            json_fig(f, isfinite(q->gflops) ? NAN : q->pct, "%");
            fputs(", \"compute\": ", f);
            json_fig(f, q->gflops, "GFLOP/s");
            fputs(",\n         \"headline\": ", f);
            rc_json_str(f, q->headline);
            fputs(",\n         \"why\": ", f);
            rc_json_str(f, q->why);
            fputs(", \"why_section\": ", f);
            rc_json_str(f, q->why_section);
            fprintf(f, "}%s\n", k + 1 < g->nfam[gi] ? "," : "");
        }
        fputs("      ],\n      \"probe_overhead_max\": ", f);
        json_fig(f, x->overhead_max_pct, "%");
        fputs(",\n      \"probe_overhead_source\": ", f);
        rc_json_str(f, x->overhead_src);
        fputs(",\n      \"drift\": ", f);
        if (x->drift_done) {
            fprintf(f, "{\"verdict\": \"%s\", \"within\": %d, \"outside\": %d, \"not_compared\": %d, \"outside_figures\": ",
                    x->drift_outside ? "outside" : "within", x->drift_within, x->drift_outside, x->drift_nc);
            rc_json_str(f, x->drift_outside_names);
            fputs(", \"bundled\": ", f);
            rc_json_str(f, x->drift_bundled);
            fputs("}", f);
        } else {
            fputs("{\"verdict\": ", f);
            rc_json_str(f, x->drift_note);
            fputs("}", f);
        }
        fputs(",\n      \"model_check\": [", f);
        for (int i = 0; i < x->nmc; i++) {
            fprintf(f, "%s\n        {\"summary\": ", i ? "," : "");
            rc_json_str(f, x->mc_name[i]);
            fprintf(f, ", \"agree\": %.0f, \"rows\": %.0f, \"agree_pct\": ", x->mc_agree[i], x->mc_rows[i]);
            json_fig(f, x->mc_pct[i], "%");
            fputs("}", f);
        }
        fprintf(f, "%s]\n    }%s\n", x->nmc ? "\n      " : "", gi + 1 < c->ng ? "," : "");
    }
    fputs("  ]\n}\n", f);
    return ferror(f) ? -1 : 0;
}

int rc_glance_finish(report_doc *d, const rc_ctx *c, const char *mode, const char *ref_root)
{
    glance_gpu *xs = rc_xcalloc((size_t)(c->ng > 0 ? c->ng : 1), sizeof *xs);
    /* what explains each family where no section said so yet: the first
     * finding of the family's own section */
    for (int gi = 0; gi < c->ng && c->glance; gi++)
        for (int k = 0; k < c->glance->nfam[gi]; k++) {
            glance_fam *f = &c->glance->fam[gi][k];
            if (*f->why) continue;
            const char *w = first_finding(d, c, &c->g[gi], f->family);
            if (w) rc_glance_why(c, gi, f->family, w, f->family);
        }
    rd_section *s = rd_section_add(d, "glance", "At a glance");
    rd_para(d, s, "The answers first, one block per GPU; each line links to the section it comes from. "
                  "The same figures, with their units, are in summary.json beside this page.");
    fleet_block(d, s, c);
    for (int gi = 0; gi < c->ng; gi++) {
        gpu_figures(&c->g[gi], mode, ref_root, &xs[gi]);
        gpu_block(d, s, c, gi, &xs[gi]);
    }
    rd_links_start(d, s, "data:");
    rd_link(d, s, "summary.json", "summary.json");
    rd_section_to_front(d, s);
    char path[4200], err[4400];
    snprintf(path, sizeof path, "%s/summary.json", c->outdir);
    outfile o;
    FILE *f = outfile_open(&o, path, "w", err, sizeof err);
    int rc = 0;
    if (!f) { fprintf(stderr, RC_PROG ": %s\n", err); rc = -1; }
    else if (write_json(f, c, xs, mode) != 0) {
        outfile_abort(&o);
        fprintf(stderr, RC_PROG ": cannot write %s\n", path);
        rc = -1;
    } else if (outfile_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, RC_PROG ": %s\n", err);
        rc = -1;
    }
    free(xs);
    return rc;
}

/* report_ctx.c - the helpers of the report's sections (report_ctx.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "names.h"
#include "report_ctx.h"

int rc_in_list(const char *const *list, const char *s)
{
    for (; list && *list; list++)
        if (!strcmp(*list, s)) return 1;
    return 0;
}
/* ------------------------------------------------------------ chart names */

/* charts/<label>/<name>.svg, relative to OUTDIR */
void rc_chart_rel(char *buf, size_t len, const rc_gpu *G, const char *fmt, ...)
{
    char name[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    snprintf(buf, len, "charts/%s/%s.svg", G->label, name);
}
const fam_chart *rc_chart_of(const char *kind, const char **family)
{
    for (const fam_entry *e = fam_registry; e->name; e++)
        for (size_t k = 0; e->report && k < e->report->ncharts; k++)
            if (!strcmp(e->report->charts[k].kind, kind)) {
                if (family) *family = e->name;
                return &e->report->charts[k];
            }
    return NULL;
}

const char *rc_shown_n(const rc_gpu *G, const char *exp)
{
    const char *best = NULL;
    double bv = 0;
    for (const res_file *f = res_find(&G->r, NAMES_SUMMARY, exp, NULL, NULL, 0, ""); f;
         f = res_next(&G->r, f, NAMES_SUMMARY, exp, NULL, NULL, 0, "")) {
        const double v = res_n_value(f->n) + (res_find(&G->r, NAMES_NCU_TABLE, exp, NULL, f->n, 0, "") ? 1e30 : 0);
        if (!best || v > bv) { bv = v; best = f->n; }
    }
    return best;
}

int rc_chart_n(const rc_gpu *G, const char *family, const fam_chart *fc, char *n, size_t len)
{
    n[0] = 0;
    if (fc->needs == FAM_CHART_SECTORS) return res_find(&G->r, NAMES_SECTORS, family, NULL, NULL, 0, "") != NULL;
    if (fc->needs == FAM_CHART_PER_N) {
        const char *t = rc_shown_n(G, family);
        if (t) snprintf(n, len, "%s", t);
        return t != NULL;
    }
    return res_find(&G->r, NAMES_SUMMARY, family, NULL, NULL, 0, "") != NULL;
}

void rc_chart_name(char *buf, size_t len, const rc_gpu *G, const fam_chart *fc, const char *n)
{
    if (*n) rc_chart_rel(buf, len, G, "%s_%s", fc->kind, n);
    else rc_chart_rel(buf, len, G, "%s", fc->kind);
}

/* ------------------------------------------------------------ render helpers */

/* The error a job left for output rel (OUTDIR/rel), or NULL.  The output
 * is looked for as failures.tsv holds it: a control character (a TAB or a
 * newline of OUTDIR) as \xNN (outfile_put_field). */
const char *rc_failure_of(const rc_ctx *c, const char *rel)
{
    if (!c->have_failures) return NULL;
    char abs[2048], field[8192];
    snprintf(abs, sizeof abs, "%s/%s", c->outdir, rel);
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)abs; *p && n + 5 < sizeof field; p++) {
        if (*p < 0x20 || *p == 0x7f) n += (size_t)snprintf(field + n, 5, "\\x%02x", *p);
        else field[n++] = (char)*p;
    }
    field[n] = '\0';
    long r = tsv_find(&c->failures, "output", field, 0);
    return r < 0 ? NULL : tsv_get(&c->failures, (size_t)r, "error");
}

/* A chart: its figure when drawn, its failure when not. 1 when shown. */
int rc_figure(report_doc *d, rd_section *s, const rc_ctx *c, const char *rel, const char *caption)
{
    char abs[2048];
    snprintf(abs, sizeof abs, "%s/%s", c->outdir, rel);
    if (rc_exists(abs)) {
        /* what the chart's own check found (rc_pc_finish), in its caption */
        char notes[2200], full[4400];
        snprintf(notes, sizeof notes, "%s", abs);
        char *dot = strrchr(notes, '.');
        FILE *nf = NULL;
        if (dot && (size_t)(dot - notes) + 7 < sizeof notes) { strcpy(dot, ".notes"); nf = fopen(notes, "r"); }
        if (nf && fgets(notes, sizeof notes, nf)) {
            notes[strcspn(notes, "\n")] = 0;
            snprintf(full, sizeof full, "%s. This chart's own check: %s.", caption, notes);
            rd_figure(d, s, rel, full);
        } else rd_figure(d, s, rel, caption);
        if (nf) fclose(nf);
        return 1;
    }
    const char *e = rc_failure_of(c, rel);
    char what[1200];
    snprintf(what, sizeof what, "chart %s", rel);
    rd_failed(d, s, what, e ? e : "it was not drawn (run scripts/report.sh, which draws the charts first)");
    return 0;
}

/* "h100: " when several GPUs are shown. */
const char *rc_pfx(const rc_ctx *c, const rc_gpu *G, char *buf, size_t len)
{
    if (c->ng > 1) snprintf(buf, len, "%s: ", G->label);
    else buf[0] = 0;
    return buf;
}

/* Where a GPU's results came from, for the commands of missing notes. */
const char *rc_src_dir(const rc_gpu *G) { return G->source ? G->source : G->r.dir; }

void rc_missing(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *base,
                    const char *why)
{
    char cmd[2048], what[1024], p[64];
    if (names_command(cmd, sizeof cmd, rc_src_dir(G), base) != 0) cmd[0] = 0;
    snprintf(what, sizeof what, "%s%s%s%s", rc_pfx(c, G, p, sizeof p), base, why ? " " : "", why ? why : "");
    rd_missing(d, s, what, *cmd ? cmd : NULL);
}

/* The file's path relative to OUTDIR (for links), or its full path. */
const char *rc_rel_to_out(const rc_ctx *c, const char *path)
{
    const size_t l = strlen(c->outdir);
    return !strncmp(path, c->outdir, l) && path[l] == '/' ? path + l + 1 : path;
}
/* "kernel" or "kernel (config)" of row r. */
void rc_row_key(const tsv_table *t, size_t r, char *buf, size_t len)
{
    const char *k = tsv_get(t, r, "kernel"), *cf = tsv_get(t, r, "config");
    if (cf && *cf && strcmp(cf, "-")) snprintf(buf, len, "%s (%s)", k ? k : "?", cf);
    else snprintf(buf, len, "%s", k ? k : "?");
}

/* Tables side by side: rows keyed by column 0, one group of columns per
 * table, "-" where a table has no such row. */
rd_table *rc_join(const rd_table *const *parts, const char *const *labels, int n)
{
    size_t ncol = 1, nkey = 0;
    for (int i = 0; i < n; i++) if (parts[i]) ncol += parts[i]->ncol - 1;
    rd_table *t = rd_table_new(ncol);
    if (!t) return NULL;
    const char *head = NULL;
    for (int i = 0; i < n && !head; i++) if (parts[i]) head = rd_table_get(parts[i], 0, 0);
    rd_table_set(t, 0, 0, "%s", head ? head : "");
    /* keys in order of first appearance */
    const char **keys = rc_xcalloc(512, sizeof *keys);
    for (int i = 0; i < n; i++)
        for (size_t r = 1; parts[i] && r <= parts[i]->nrow; r++) {
            const char *k = rd_table_get(parts[i], r, 0);
            size_t j = 0;
            while (j < nkey && strcmp(keys[j], k)) j++;
            if (j == nkey && nkey < 512) keys[nkey++] = k;
        }
    for (size_t j = 0; j < nkey; j++) rd_table_set(t, j + 1, 0, "%s", keys[j]);
    size_t col = 1;
    for (int i = 0; i < n; i++) {
        if (!parts[i]) continue;
        const rd_table *p = parts[i];
        if (n > 1) rd_table_group(t, labels[i], p->ncol - 1);
        for (size_t cc = 1; cc < p->ncol; cc++) rd_table_set(t, 0, col + cc - 1, "%s", rd_table_get(p, 0, cc));
        for (size_t j = 0; j < nkey; j++) {
            size_t r = 1;
            while (r <= p->nrow && strcmp(rd_table_get(p, r, 0), keys[j])) r++;
            for (size_t cc = 1; cc < p->ncol; cc++)
                rd_table_set(t, j + 1, col + cc - 1, "%s", r <= p->nrow ? rd_table_get(p, r, cc) : "-");
        }
        col += p->ncol - 1;
    }
    free(keys);
    return t;
}
int rc_cmp_n(const void *a, const void *b)
{
    const char *x = a, *y = b;
    const double u = strtod(x, NULL), v = strtod(y, NULL);
    if (u != v) return u < v ? -1 : 1;
    return strcmp(x, y);
}

/* A table as it is: every column, every row. */
rd_table *rc_plain_table(const tsv_table *t)
{
    rd_table *r = rd_table_new(t->ncol);
    for (size_t k = 0; r && k < t->ncol; k++) rd_table_set(r, 0, k, "%s", t->col[k]);
    for (size_t row = 0; r && row < t->nrow; row++)
        for (size_t k = 0; k < t->ncol; k++) rd_table_set(r, row + 1, k, "%s", t->cell[row * t->ncol + k]);
    return r;
}
/* The summary of exp at N (NULL: the largest N) and WPB 4 (else the first). */
int rc_read_summary(const res_gpu *r, const char *exp, const char *n, tsv_table *t, char *err,
                               size_t errlen)
{
    if (!n) n = res_main_n(r, exp);
    const res_file *f = n ? res_find(r, NAMES_SUMMARY, exp, NULL, n, 4, "") : NULL;
    if (!f && n) f = res_find(r, NAMES_SUMMARY, exp, NULL, n, 0, "");
    if (!f) { snprintf(err, errlen, "no %s summary in %s", exp, r->dir); return -1; }
    return tsv_read(f->path, t, err, errlen);
}

int rc_read_sectors(const res_gpu *r, const char *exp, tsv_table *t, char *err, size_t errlen)
{
    const res_file *f = res_find(r, NAMES_SECTORS, exp, NULL, NULL, 0, "");
    if (!f) { snprintf(err, errlen, "no sectors_%s.tsv in %s", exp, r->dir); return -1; }
    return tsv_read(f->path, t, err, errlen);
}

/* The device of a table's metadata, for titles. */
void rc_table_device(const tsv_table *t, char *buf, size_t len)
{
    double sms = NAN;
    buf[0] = 0;
    rc_parse_device_meta(tsv_meta(t, "device"), buf, len, &sms);
}

double rc_ceiling_in(const res_gpu *r, const char *op)
{
    char p[4400], err[512];
    snprintf(p, sizeof p, "%s/ceiling.tsv", r->dir);
    tsv_table t;
    if (!rc_exists(p) || tsv_read(p, &t, err, sizeof err) != 0) return NAN;
    rfm_ceiling c[16];
    const int n = rfm_ceiling_read(&t, c, 16);
    tsv_free(&t);
    return n > 0 ? rfm_ceiling_of(c, (size_t)n, op) : NAN;
}

/* The series of kernel=K over the config key, column col (summary). */
void rc_kseries(const tsv_table *t, const char *kernel, const char *key, const char *col, rfm_series *out)
{
    char f[96];
    snprintf(f, sizeof f, "kernel=%s", kernel);
    const char *flt[] = {f, NULL};
    rfm_series_get(t, flt, key, col, out);
}

/* Of a sectors table: variant=V, op=O. */
void rc_sseries(const tsv_table *t, const char *variant, const char *op, const char *key, const char *col,
                rfm_series *out)
{
    char f[96], o[32];
    snprintf(f, sizeof f, "variant=%s", variant);
    snprintf(o, sizeof o, "op=%s", op);
    const char *flt[] = {f, o, NULL};
    rfm_series_get(t, flt, key, col, out);
}
/* ------------------------------------------------------------ the families' sections */

/* "same", "differs (x1.01)" or "not measured". */
static const char *vs_lab(const rfm_labrow *x, char *buf, size_t len)
{
    if (!isfinite(x->f.measured)) snprintf(buf, len, "not measured");
    else if (rfm_lab_same(x->f.quantity, x->f.lab, x->f.measured)) snprintf(buf, len, "same");
    else if (x->f.lab != 0) snprintf(buf, len, "differs (x%.3g)", x->f.measured / x->f.lab);
    else snprintf(buf, len, "differs");
    return buf;
}

void rc_family_close(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *exp,
                     const char *p, int hs, tsv_table *t, int hc, tsv_table *sec, const char *missing_why)
{
    char summary[256], sectors[256];
    names_summary(summary, sizeof summary, exp, "1e8", 4);
    names_sectors(sectors, sizeof sectors, exp);
    if (hc) {
        rd_heading(d, s, "%sThe labs' figures: lab, model and %s", p, G->label);
        rc_lab_table(d, s, c, G, sec);
    } else if (missing_why) {
        rc_missing(d, s, c, G, sectors, missing_why);
    }
    const char *const files[] = {summary, sectors, NULL};
    rc_file_links(d, s, c, G, files);
    if (hs) tsv_free(t);
    if (hc) tsv_free(sec);
}

/* The labs' figures of a sectors table: lab, model, this GPU. */
void rc_lab_table(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const tsv_table *t)
{
    static rfm_labrow r[512];
    const size_t n = rfm_lab_rows(t, r, 512);
    char p[64], b[64];
    rc_pfx(c, G, p, sizeof p);
    if (!n) {
        rd_para(d, s, "%sNo row of %s carries a lab figure.", p, t->name);
        return;
    }
    rd_table *x = rd_table_new(9);
    static const char *const head[] = {"variant", "op", "configuration", "quantity", "lab", "source",
                                       "model (lab's setting)", "measured", "measured against lab"};
    for (size_t k = 0; k < 9; k++) rd_table_set(x, 0, k, "%s", head[k]);
    rd_table_set(x, 0, 7, "%s measured", G->label);
    for (size_t i = 0; i < n; i++) {
        rd_table_set(x, i + 1, 0, "%s", r[i].variant);
        rd_table_set(x, i + 1, 1, "%s", r[i].op);
        rd_table_set(x, i + 1, 2, "%s", r[i].configs);
        rd_table_set(x, i + 1, 3, "%s", r[i].f.quantity);
        rd_table_set(x, i + 1, 4, "%.4g", r[i].f.lab);
        rd_table_set(x, i + 1, 5, "%s", r[i].f.source);
        rd_table_set(x, i + 1, 6, "%s", rc_num(b, sizeof b, "%.4g", r[i].f.model));
        rd_table_set(x, i + 1, 7, "%s", rc_num(b, sizeof b, "%.4g", r[i].f.measured));
        rd_table_set(x, i + 1, 8, "%s", vs_lab(&r[i], b, sizeof b));
    }
    rd_table_add(d, s, x);
    char note[8192];
    if (rfm_lab_note(r, n, G->name, note, sizeof note) == 0) rd_finding(d, s, "%s%s", p, note);
}

/* A GPU's summary of exp (its largest N, WPB 4), read; 0 when absent. */
int rc_gpu_summary(const rc_gpu *G, const char *exp, tsv_table *t)
{
    char err[512];
    return rc_read_summary(&G->r, exp, NULL, t, err, sizeof err) == 0;
}

int rc_gpu_sectors(const rc_gpu *G, const char *exp, tsv_table *t)
{
    char err[512];
    return rc_read_sectors(&G->r, exp, t, err, sizeof err) == 0;
}

/* The family chart of a GPU, its figure (or failure). */
void rc_family_figure(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *kind,
                          const char *caption)
{
    const char *fam = NULL;
    const fam_chart *fc = rc_chart_of(kind, &fam);
    char n[64], rel[1024], cap[512], p[64];
    if (!fc || !rc_chart_n(G, fam, fc, n, sizeof n)) return;
    rc_chart_name(rel, sizeof rel, G, fc, n);
    snprintf(cap, sizeof cap, "%s%s", rc_pfx(c, G, p, sizeof p), caption);
    rc_figure(d, s, c, rel, cap);
}

/* Links to a GPU's files of the given bases. */
void rc_file_links(report_doc *d, rd_section *s, const rc_ctx *c, const rc_gpu *G, const char *const *bases)
{
    int any = 0;
    for (; *bases; bases++)
        for (size_t k = 0; k < G->r.nfile; k++) {
            if (strcmp(G->r.file[k].rel, *bases)) continue;
            if (!any) { rd_links_start(d, s, "data:"); any = 1; }
            char text[512];
            snprintf(text, sizeof text, "%s/%s", G->label, G->r.file[k].rel);
            rd_link(d, s, rc_rel_to_out(c, G->r.file[k].path), text);
        }
}

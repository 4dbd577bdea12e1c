/* report_labs.c - the series of the families' charts and the labs'
 * figures against the model and the GPU (report_families.h). */
#define _POSIX_C_SOURCE 200809L
#include "report_families.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "report_facts.h"
#include "sbuf.h"

static int pos(double v) { return isfinite(v) && v > 0; }

double rfm_num(const char *s)
{
    if (!s || !*s) return NAN;
    char *end;
    const double v = strtod(s, &end);
    return end != s && !*end ? v : NAN;
}

/* ------------------------------------------------------------ series */

/* Row r passes every "col=value" filter. */
static int row_matches(const tsv_table *t, size_t r, const char *const *filters)
{
    for (; filters && *filters; filters++) {
        const char *eq = strchr(*filters, '=');
        if (!eq) return 0;
        char col[64];
        const size_t cl = (size_t)(eq - *filters);
        if (cl >= sizeof col) return 0;
        memcpy(col, *filters, cl);
        col[cl] = 0;
        const char *v = tsv_get(t, r, col);
        if (!v || strcmp(v, eq + 1)) return 0;
    }
    return 1;
}

size_t rfm_series_get(const tsv_table *t, const char *const *filters, const char *key,
                      const char *ycol, rfm_series *out)
{
    out->n = 0;
    for (size_t r = 0; r < t->nrow && out->n < RFM_MAX_POINTS; r++) {
        if (!row_matches(t, r, filters)) continue;
        char b[64];
        const char *cfg = tsv_get(t, r, "config");
        const double x = rfm_num(cfg ? ceiling_config_get(cfg, key, b, sizeof b) : NULL);
        const double y = tsv_num(t, r, ycol);
        if (!isfinite(x) || !isfinite(y)) continue;
        /* insertion keeps x ascending */
        size_t k = out->n++;
        while (k > 0 && out->x[k - 1] > x) {
            out->x[k] = out->x[k - 1];
            out->y[k] = out->y[k - 1];
            k--;
        }
        out->x[k] = x;
        out->y[k] = y;
    }
    return out->n;
}

long rfm_row(const tsv_table *t, const char *const *filters, const char *config)
{
    for (size_t r = 0; r < t->nrow; r++) {
        if (!row_matches(t, r, filters)) continue;
        const char *c = tsv_get(t, r, "config");
        if (config && (!c || strcmp(c, config))) continue;
        return (long)r;
    }
    return -1;
}

double rfm_value(const tsv_table *t, const char *const *filters, const char *config, const char *col)
{
    const long r = rfm_row(t, filters, config);
    return r < 0 ? NAN : tsv_num(t, (size_t)r, col);
}

/* ------------------------------------------------------------ labs */

void rfm_trim(char *dst, size_t len, const char *a, const char *b)
{
    while (a < b && *a == ' ') a++;
    while (b > a && b[-1] == ' ') b--;
    size_t n = (size_t)(b - a);
    if (n >= len) n = len - 1;
    memcpy(dst, a, n);
    dst[n] = 0;
}

/* One figure "QUANTITY VALUE [SRC]" in [a, b).  0, or -1. */
static int parse_figure(const char *a, const char *b, rfm_lab *f)
{
    const char *lb = NULL;
    for (const char *p = a; p < b; p++)
        if (*p == '[') lb = p;
    if (!lb) return -1;
    const char *rb = memchr(lb, ']', (size_t)(b - lb));
    if (!rb) return -1;
    rfm_trim(f->source, sizeof f->source, lb + 1, rb);
    const char *e = lb;
    while (e > a && e[-1] == ' ') e--;
    const char *v = e;
    while (v > a && v[-1] != ' ') v--;
    char val[48];
    rfm_trim(val, sizeof val, v, e);
    f->lab = rfm_num(val);
    rfm_trim(f->quantity, sizeof f->quantity, a, v);
    f->model = f->lab;
    f->measured = NAN;
    return isfinite(f->lab) && *f->quantity ? 0 : -1;
}

size_t rfm_lab_parse(const char *lab, const char *verdict, rfm_lab *out, size_t max)
{
    size_t n = 0;
    if (!lab || !strcmp(lab, "-")) return 0;
    for (const char *p = lab; *p && n < max;) {
        const char *end = strstr(p, "; ");
        const char *b = end ? end : p + strlen(p);
        if (parse_figure(p, b, &out[n]) == 0) n++;
        p = end ? end + 2 : b;
    }
    /* "differs: Q lab X [SRC], model Y; Q2 lab ..." */
    if (verdict && !strncmp(verdict, "differs:", 8)) {
        for (const char *p = verdict + 8; *p;) {
            const char *end = strstr(p, "; ");
            const char *b = end ? end : p + strlen(p);
            const char *m = strstr(p, ", model ");
            const char *l = strstr(p, " lab ");
            if (m && l && m < b && l < m) {
                char q[48], src[8] = "";
                rfm_trim(q, sizeof q, p, l);
                const char *lb = memchr(l, '[', (size_t)(m - l));
                const char *rb = lb ? memchr(lb, ']', (size_t)(m - lb)) : NULL;
                if (lb && rb) rfm_trim(src, sizeof src, lb + 1, rb);
                char mv[48];
                rfm_trim(mv, sizeof mv, m + 8, b);
                for (size_t i = 0; i < n; i++)
                    if (!strcmp(out[i].quantity, q) && !strcmp(out[i].source, src)) out[i].model = rfm_num(mv);
            }
            p = end ? end + 2 : b;
        }
    }
    return n;
}

static double ratio_cols(const tsv_table *t, size_t r, const char *a, const char *b)
{
    const double x = tsv_num(t, r, a), y = tsv_num(t, r, b);
    return pos(y) && isfinite(x) ? x / y : NAN;
}

double rfm_lab_measured(const tsv_table *t, size_t r, const char *q)
{
    if (!q) return NAN;
    if (!strcmp(q, "sectors/request")) {
        const double v = tsv_num(t, r, "sectors_per_request_meas");
        return isfinite(v) ? v : ratio_cols(t, r, "l1_sectors_meas", "l1_requests_meas");
    }
    if (!strcmp(q, "wavefronts/request")) return ratio_cols(t, r, "wavefronts_meas", "l1_requests_meas");
    if (!strcmp(q, "L2 requests/request")) return ratio_cols(t, r, "l2_requests_meas", "l1_requests_meas");
    if (!strcmp(q, "DRAM sectors/request")) return ratio_cols(t, r, "dram_sectors_meas", "l1_requests_meas");
    if (!strcmp(q, "sectors")) return tsv_num(t, r, "l1_sectors_meas");
    if (!strcmp(q, "L1 hits")) return tsv_num(t, r, "l1_hits_meas");
    if (!strcmp(q, "L1 hit rate %")) return tsv_num(t, r, "l1_hit_pct_meas");
    if (!strcmp(q, "L2 requests")) return tsv_num(t, r, "l2_requests_meas");
    if (!strcmp(q, "L1 bus utilization %")) return tsv_num(t, r, "l1_util_pct_meas");
    if (!strcmp(q, "DRAM bus utilization %")) return tsv_num(t, r, "dram_util_pct_meas");
    if (!strcmp(q, "elements/request")) {
        /* bytes asked = utilization x bytes moved at L1; 4 B elements */
        const double u = tsv_num(t, r, "l1_util_pct_meas"), s = tsv_num(t, r, "l1_sectors_meas");
        const double req = tsv_num(t, r, "l1_requests_meas");
        return isfinite(u) && isfinite(s) && pos(req) ? u / 100 * s * 32 / 4 / req : NAN;
    }
    return NAN;
}

int rfm_lab_same(const char *q, double lab, double measured)
{
    if (!isfinite(lab) || !isfinite(measured)) return 0;
    /* percentages are quoted to 0.1 by the labs (44.4 for 4/9) */
    const size_t l = q ? strlen(q) : 0;
    if (l && q[l - 1] == '%' && fabs(measured - lab) <= 0.05) return 1;
    return fabs(measured - lab) <= fmax(0.01 * fabs(lab), 1e-9);
}

static int cmp_long(const void *a, const void *b)
{
    const long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

void rfm_compact_configs(const char *const *configs, size_t n, char *buf, size_t len)
{
    sb s;
    sb_init(&s, buf, len);
    if (!n) return;
    /* all "key=integer" with one key? */
    const char *eq = strchr(configs[0], '=');
    size_t kl = eq ? (size_t)(eq - configs[0]) : 0;
    long *v = kl ? malloc(n * sizeof *v) : NULL;
    int ok = v != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        char *end;
        if (strncmp(configs[i], configs[0], kl + 1)) { ok = 0; break; }
        v[i] = strtol(configs[i] + kl + 1, &end, 10);
        ok = *end == 0 && end != configs[i] + kl + 1;
    }
    if (ok) {
        qsort(v, n, sizeof *v, cmp_long);
        sb_add(&s, "%.*s=", (int)kl, configs[0]);
        for (size_t i = 0; i < n;) {
            size_t j = i;
            while (j + 1 < n && v[j + 1] <= v[j] + 1) j++;
            if (v[j] == v[i]) sb_add(&s, "%s%ld", i ? "," : "", v[i]);
            else sb_add(&s, "%s%ld-%ld", i ? "," : "", v[i], v[j]);
            i = j + 1;
        }
    } else {
        for (size_t i = 0; i < n; i++) sb_add(&s, "%s%s", i ? "; " : "", configs[i]);
    }
    free(v);
    if (s.over && len > 4) snprintf(buf + len - 4, 4, "...");
}

size_t rfm_lab_rows(const tsv_table *t, rfm_labrow *out, size_t max)
{
    size_t n = 0;
    /* the configurations of each merged row, pointers into t */
    const char ***cfg = calloc(max ? max : 1, sizeof *cfg);
    if (!cfg) return 0;
    for (size_t r = 0; r < t->nrow; r++) {
        rfm_lab f[16];
        const size_t nf = rfm_lab_parse(tsv_get(t, r, "lab"), tsv_get(t, r, "lab_vs_model"), f, 16);
        const char *var = tsv_get(t, r, "variant"), *op = tsv_get(t, r, "op"), *c = tsv_get(t, r, "config");
        if (!var) var = "?";
        if (!op) op = "";
        if (!c) c = "-";
        for (size_t i = 0; i < nf; i++) {
            f[i].measured = rfm_lab_measured(t, r, f[i].quantity);
            char key[64];
            snprintf(key, sizeof key, "%.4g|%.4g|%.4g", f[i].lab, f[i].model, f[i].measured);
            size_t k = 0;
            for (; k < n; k++) {
                char k2[64];
                snprintf(k2, sizeof k2, "%.4g|%.4g|%.4g", out[k].f.lab, out[k].f.model, out[k].f.measured);
                if (!strcmp(out[k].variant, var) && !strcmp(out[k].op, op) &&
                    !strcmp(out[k].f.quantity, f[i].quantity) && !strcmp(out[k].f.source, f[i].source) &&
                    !strcmp(k2, key))
                    break;
            }
            if (k == n) {
                if (n == max) continue;
                memset(&out[n], 0, sizeof out[n]);
                snprintf(out[n].variant, sizeof out[n].variant, "%s", var);
                snprintf(out[n].op, sizeof out[n].op, "%s", op);
                out[n].f = f[i];
                n++;
            }
            const char **g = realloc(cfg[k], (out[k].nconfig + 1) * sizeof *g);
            if (!g) continue;
            cfg[k] = g;
            g[out[k].nconfig++] = c;
        }
    }
    for (size_t k = 0; k < n; k++) {
        rfm_compact_configs(cfg[k], out[k].nconfig, out[k].configs, sizeof out[k].configs);
        free(cfg[k]);
    }
    free(cfg);
    return n;
}

int rfm_lab_note(const rfm_labrow *r, size_t n, const char *gpu, char *buf, size_t len)
{
    size_t figs = 0, same = 0, rsame = 0, measured = 0;
    for (size_t i = 0; i < n; i++) {
        figs += r[i].nconfig;
        if (!isfinite(r[i].f.measured)) continue;
        measured += r[i].nconfig;
        if (rfm_lab_same(r[i].f.quantity, r[i].f.lab, r[i].f.measured)) { same += r[i].nconfig; rsame++; }
    }
    if (!figs) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s measures the lab's figure in %zu of %zu", gpu && *gpu ? gpu : "The GPU", same, figs);
    if (measured < figs) sb_add(&s, " (%zu not measured)", figs - measured);
    if (same == measured) {
        sb_add(&s, ".");
        return sb_done(&s);
    }
    sb_add(&s, "; it differs in %zu (%zu of the %zu rows above):", measured - same, n - rsame, n);
    const char *sep = " ";
    for (size_t i = 0; i < n; i++) {
        const rfm_labrow *x = &r[i];
        if (!isfinite(x->f.measured) || rfm_lab_same(x->f.quantity, x->f.lab, x->f.measured)) continue;
        sb_add(&s, "%s%s of %s %s", sep, x->f.quantity, x->variant, x->op);
        if (strcmp(x->configs, "-")) sb_add(&s, " (%s)", x->configs);
        sb_add(&s, ": lab %.4g [%s], model %.4g, measured %.4g", x->f.lab, x->f.source, x->f.model,
               x->f.measured);
        sep = "; ";
    }
    sb_add(&s, ".");
    return sb_done(&s);
}

size_t rfm_patterns_util(const tsv_table *t, rfm_util_row *out, size_t max)
{
    static const char *const paths[3] = {"_ca", "_cg", "_nc"};
    size_t n = 0;
    char bases[64][40], cfgs[64][64];
    for (size_t r = 0; r < t->nrow && n < max && n < 64; r++) {
        const char *var = tsv_get(t, r, "variant"), *op = tsv_get(t, r, "op");
        const char *lab = tsv_get(t, r, "lab"), *c = tsv_get(t, r, "config");
        if (!var || !op || strcmp(op, "ld") || !lab || !strstr(lab, "L1 bus utilization %")) continue;
        const size_t vl = strlen(var);
        int path = -1;
        for (int p = 0; p < 3; p++)
            if (vl > 3 && !strcmp(var + vl - 3, paths[p])) path = p;
        if (path < 0 || vl - 3 >= sizeof bases[0]) continue;
        char base[40];
        memcpy(base, var, vl - 3);
        base[vl - 3] = 0;
        size_t k = 0;
        while (k < n && strcmp(bases[k], base)) k++;
        if (k < n) continue;
        snprintf(bases[n], sizeof bases[n], "%s", base);
        snprintf(cfgs[n], sizeof cfgs[n], "%s", c ? c : "-");
        rfm_util_row *u = &out[n];
        memset(u, 0, sizeof *u);
        if (!strcmp(cfgs[n], "-")) snprintf(u->pattern, sizeof u->pattern, "%s", base);
        else snprintf(u->pattern, sizeof u->pattern, "%s (%s)", base, cfgs[n]);
        u->lab_cached = u->lab_uncached = NAN;
        double any002 = NAN;
        for (int p = 0; p < 3; p++) {
            u->model[p] = u->measured[p] = NAN;
            char v[64];
            snprintf(v, sizeof v, "%s%s", base, paths[p]);
            for (size_t q = 0; q < t->nrow; q++) {
                const char *qv = tsv_get(t, q, "variant"), *qo = tsv_get(t, q, "op"), *qc = tsv_get(t, q, "config");
                if (!qv || strcmp(qv, v) || !qo || strcmp(qo, "ld") || !qc || strcmp(qc, cfgs[n])) continue;
                u->model[p] = tsv_num(t, q, "l1_util_pct_pred");
                u->measured[p] = tsv_num(t, q, "l1_util_pct_meas");
                rfm_lab f[16];
                const size_t nf = rfm_lab_parse(tsv_get(t, q, "lab"), NULL, f, 16);
                for (size_t i = 0; i < nf; i++) {
                    if (strcmp(f[i].quantity, "L1 bus utilization %")) continue;
                    if (!strcmp(f[i].source, "001")) {
                        if (p == 0) u->lab_cached = f[i].lab;
                        if (p == 1) u->lab_uncached = f[i].lab;
                    } else if (!isfinite(any002)) {
                        any002 = f[i].lab;
                    }
                }
                break;
            }
        }
        if (isfinite(u->lab_cached) || isfinite(u->lab_uncached)) {
            snprintf(u->lab_source, sizeof u->lab_source, "001");
        } else {
            /* lab 002's scenarios speak of any path */
            u->lab_cached = u->lab_uncached = any002;
            snprintf(u->lab_source, sizeof u->lab_source, "002");
        }
        n++;
    }
    return n;
}

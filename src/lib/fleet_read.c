/*
 * fleet_read.c - one GPU's headline figures from its results folder
 * (contract: fleet.h; the judging and the tables: fleet.c).  Every figure is
 * read by column name; a figure a folder cannot give is NAN with a sentence.
 */
#define _POSIX_C_SOURCE 200809L
#include "fleet.h"
#include "err.h"
#include "names.h"
#include "plateau.h"
#include "tsv.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------ one folder */

static int file_exists(const char *dir, const char *base)
{
    char p[1400];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, base);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The readonly summary at WPB 4 with the largest N in dir (1e8 for a full
 * run, 1e7 for --quick): its base name into best, 0; -1 when there is none. */
static int find_readonly_wpb4(const char *dir, char *best, size_t len)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    double best_n = -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        char exp[64], n[64];
        unsigned wpb = 0;
        if (names_parse(e->d_name, exp, NULL, NULL, n, sizeof exp, &wpb) != NAMES_SUMMARY) continue;
        if (strcmp(exp, "readonly") != 0 || wpb != 4) continue;
        const double nv = tsv_parse_num(n);
        if (isfinite(nv) && nv > best_n && file_exists(dir, e->d_name)) {
            best_n = nv;
            snprintf(best, len, "%s", e->d_name);
        }
    }
    closedir(d);
    return best_n > 0 ? 0 : -1;
}

int fleet_is_results_dir(const char *dir)
{
    static const char *const marks[] = {"device.tsv", "latency_ca.tsv", "latency_cg.tsv",
                                        "ceiling.tsv", "overhead.tsv"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (file_exists(dir, marks[i])) return 1;
    char b[256];
    return find_readonly_wpb4(dir, b, sizeof b) == 0;
}

/* Keep a string fit for one TSV field: no tab or newline, never empty. */
void fleet_field_copy(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src && *src ? src : "-");
    for (char *p = dst; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r') *p = ' ';
}

static void set_fig(fleet_fig *f, double v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_fig(fleet_fig *f, double v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->source, sizeof f->source, fmt, ap);
    va_end(ap);
    for (char *p = f->source; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r') *p = ' ';
    f->value = isfinite(v) ? v : NAN;
}

/* The device name and UUID: device.tsv (key/value rows) first, then the
 * metadata of the tables.  An older summary says "# device<TAB>NAME (sm_90,
 * ...)": the part before " (" is the name. */
static void read_identity(const char *dir, fleet_gpu *g)
{
    snprintf(g->name, sizeof g->name, "unknown");
    snprintf(g->uuid, sizeof g->uuid, "-");
    snprintf(g->name_source, sizeof g->name_source, "-");
    char path[1400], err[256], ro[256];
    tsv_table t;
    int have_name = 0, have_uuid = 0;

    snprintf(path, sizeof path, "%s/device.tsv", dir);
    if (file_exists(dir, "device.tsv") && tsv_read(path, &t, err, sizeof err) == 0) {
        long r = tsv_find(&t, "key", "device_name", 0);
        const char *s = r >= 0 ? tsv_get(&t, (size_t)r, "value") : NULL;
        if (s && *s) {
            fleet_field_copy(g->name, sizeof g->name, s);
            snprintf(g->name_source, sizeof g->name_source, "device.tsv");
            have_name = 1;
        }
        r = tsv_find(&t, "key", "device_uuid", 0);
        s = r >= 0 ? tsv_get(&t, (size_t)r, "value") : NULL;
        if (s && *s) fleet_field_copy(g->uuid, sizeof g->uuid, s), have_uuid = 1;
        tsv_free(&t);
    }
    const char *tables[4] = {"latency_ca.tsv", "latency_cg.tsv", NULL, "ceiling.tsv"};
    if (find_readonly_wpb4(dir, ro, sizeof ro) == 0) tables[2] = ro;
    for (int i = 0; i < 4 && !(have_name && have_uuid); i++) {
        if (!tables[i] || !file_exists(dir, tables[i])) continue;
        snprintf(path, sizeof path, "%s/%s", dir, tables[i]);
        if (tsv_read(path, &t, err, sizeof err) != 0) continue;
        const char *s = tsv_meta(&t, "device_name");
        char buf[128];
        if (!s && (s = tsv_meta(&t, "device"))) {
            snprintf(buf, sizeof buf, "%s", s);
            char *paren = strstr(buf, " (");
            if (paren) *paren = 0;
            s = buf;
        }
        if (!have_name && s && *s && strcmp(s, "?") != 0) {
            fleet_field_copy(g->name, sizeof g->name, s);
            snprintf(g->name_source, sizeof g->name_source, "%.60s", tables[i]);
            have_name = 1;
        }
        const char *u = tsv_meta(&t, "device_uuid");
        if (!have_uuid && u && *u) fleet_field_copy(g->uuid, sizeof g->uuid, u), have_uuid = 1;
        tsv_free(&t);
    }
}

/* DRAM and L2 plateaus of the ladder (latency_ca.tsv, else latency_cg.tsv). */
static void read_ladder(const char *dir, fleet_gpu *g)
{
    const char *file = file_exists(dir, "latency_ca.tsv") ? "latency_ca.tsv"
                       : file_exists(dir, "latency_cg.tsv") ? "latency_cg.tsv" : NULL;
    fleet_fig *dc = &g->fig[FLEET_DRAM_LAT_CYCLES], *dn = &g->fig[FLEET_DRAM_LAT_NS];
    fleet_fig *ln = &g->fig[FLEET_L2_NEAR_LAT_CYCLES], *lf = &g->fig[FLEET_L2_FAR_LAT_CYCLES];
    if (!file) {
        const char *why = "no latency_ca.tsv (scripts/reference.sh --only latency writes it)";
        set_fig(dc, NAN, "%s", why), set_fig(dn, NAN, "%s", why);
        set_fig(ln, NAN, "%s", why), set_fig(lf, NAN, "%s", why);
        return;
    }
    char path[1400], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    plateau_series s;
    plateau_level lv[PLATEAU_MAX_LEVELS];
    int k = -1;
    if (plateau_read_tsv(path, &s, err, sizeof err) == 0) {
        k = plateau_find(s.pts, s.n, NULL, lv, PLATEAU_MAX_LEVELS, err, sizeof err);
        if (k > 0) plateau_label(lv, k, plateau_series_l1_bypassed(&s));
        plateau_series_free(&s);
    }
    if (k < 0) {
        set_fig(dc, NAN, "%s: %s", file, err), set_fig(dn, NAN, "%s: %s", file, err);
        set_fig(ln, NAN, "%s: %s", file, err), set_fig(lf, NAN, "%s: %s", file, err);
        return;
    }
    const plateau_level *dram = NULL, *near = NULL, *far = NULL, *l2 = NULL;
    for (int i = 0; i < k; i++) {
        if (!strcmp(lv[i].name, "DRAM")) dram = &lv[i];
        else if (!strcmp(lv[i].name, "L2-near")) near = &lv[i];
        else if (!strcmp(lv[i].name, "L2-far")) far = &lv[i];
        else if (!strcmp(lv[i].name, "L2")) l2 = &lv[i];
    }
    if (k < 2 || !dram) {
        char why[200];
        snprintf(why, sizeof why, "%s: %d plateau%s found, no DRAM level", file, k, k == 1 ? "" : "s");
        set_fig(dc, NAN, "%s", why), set_fig(dn, NAN, "%s", why);
    } else {
        set_fig(dc, dram->cycles, "%s DRAM plateau (%zu points, %.0f B to %.0f B)", file, dram->npoints,
                dram->from_bytes, dram->to_bytes);
        if (dram->ns > 0)
            set_fig(dn, dram->ns, "%s DRAM plateau (%zu points)", file, dram->npoints);
        else
            set_fig(dn, NAN, "%s has no ns_per_load column", file);
    }
    if (!near && l2) {
        set_fig(ln, l2->cycles, "%s L2 plateau (the only L2 level, %zu points)", file, l2->npoints);
        set_fig(lf, NAN, "%s: one L2 level, no far partition seen", file);
        return;
    }
    if (near)
        set_fig(ln, near->cycles, "%s L2-near plateau (%zu points)", file, near->npoints);
    else
        set_fig(ln, NAN, "%s: no L2 plateau found (%d levels)", file, k);
    if (far)
        set_fig(lf, far->cycles, "%s L2-far plateau (%zu points)", file, far->npoints);
    else
        set_fig(lf, NAN, "%s: no L2-far plateau found (%d levels)", file, k);
}

/* Read bandwidth and the SM clock under load. */
static void read_bandwidth(const char *dir, fleet_gpu *g)
{
    char path[1400], err[256], ro[256];
    tsv_table t;
    fleet_fig *bw = &g->fig[FLEET_READ_BW_GBPS], *clk = &g->fig[FLEET_SM_CLOCK_MHZ];
    const int have_ro = find_readonly_wpb4(dir, ro, sizeof ro) == 0;
    set_fig(bw, NAN, "no ceiling.tsv and no readonly_<N>_wpb4.tsv");
    set_fig(clk, NAN, "no readonly_<N>_wpb4.tsv and no latency ladder with sm_clock_measured_MHz");

    int got_bw = 0;
    if (file_exists(dir, "ceiling.tsv")) {
        snprintf(path, sizeof path, "%s/ceiling.tsv", dir);
        if (tsv_read(path, &t, err, sizeof err) != 0) {
            set_fig(bw, NAN, "%s", err);
        } else {
            const long r = tsv_find(&t, "operation", "read", 0);
            const double v = r >= 0 ? tsv_num(&t, (size_t)r, "bw_GBps") : NAN;
            if (isfinite(v) && v > 0) {
                set_fig(bw, v, "ceiling.tsv read");
                got_bw = 1;
            } else {
                set_fig(bw, NAN, "ceiling.tsv has no read row with a bw_GBps");
            }
            tsv_free(&t);
        }
    }
    if (have_ro) {
        snprintf(path, sizeof path, "%s/%s", dir, ro);
        if (tsv_read(path, &t, err, sizeof err) != 0) {
            if (!got_bw) set_fig(bw, NAN, "%s", err);
            set_fig(clk, NAN, "%s", err);
        } else {
            if (!got_bw) {
                const long r = tsv_find(&t, "kernel", "float4", 0);
                const char *valid = r >= 0 ? tsv_get(&t, (size_t)r, "valid") : NULL;
                const double v = r >= 0 ? tsv_num(&t, (size_t)r, "bw_GBps") : NAN;
                if (r < 0)
                    set_fig(bw, NAN, "%s has no float4 row", ro);
                else if (valid && strcmp(valid, "ok") != 0)
                    set_fig(bw, NAN, "%s float4 row not valid (%s)", ro, valid);
                else
                    set_fig(bw, v, "%s float4 (fallback: no ceiling.tsv read row)", ro);
            }
            /* the clock of every variant's run, not just one: a card that
             * throttles under load does so in all of them */
            double c[256];
            size_t nc = 0;
            for (size_t r = 0; r < t.nrow && nc < 256; r++) {
                const double v = tsv_num(&t, r, "sm_clock_MHz");
                if (isfinite(v) && v > 0) c[nc++] = v;
            }
            if (nc)
                set_fig(clk, fleet_median(c, nc), "%s sm_clock_MHz, median of %zu rows", ro, nc);
            tsv_free(&t);
        }
    }
    if (!isfinite(clk->value)) {
        const char *file = file_exists(dir, "latency_ca.tsv") ? "latency_ca.tsv"
                           : file_exists(dir, "latency_cg.tsv") ? "latency_cg.tsv" : NULL;
        if (file) {
            snprintf(path, sizeof path, "%s/%s", dir, file);
            if (tsv_read(path, &t, err, sizeof err) == 0) {
                const double v = tsv_meta_num(&t, "sm_clock_measured_MHz");
                if (isfinite(v) && v > 0)
                    set_fig(clk, v, "%s sm_clock_measured_MHz (fallback: one chasing thread, not under load)",
                            file);
                tsv_free(&t);
            }
        }
    }
}

static void read_overhead(const char *dir, fleet_gpu *g)
{
    fleet_fig *f = &g->fig[FLEET_OVERHEAD_MAX_PCT];
    if (!file_exists(dir, "overhead.tsv")) {
        set_fig(f, NAN, "no overhead.tsv (scripts/reference.sh --only overhead writes it)");
        return;
    }
    char path[1400], err[256];
    snprintf(path, sizeof path, "%s/overhead.tsv", dir);
    tsv_table t;
    if (tsv_read(path, &t, err, sizeof err) != 0) {
        set_fig(f, NAN, "%s", err);
        return;
    }
    double best = NAN;
    long at = -1;
    for (size_t r = 0; r < t.nrow; r++) {
        const double v = tsv_num(&t, r, "overhead_pct");
        if (isfinite(v) && (!isfinite(best) || v > best)) best = v, at = (long)r;
    }
    if (at < 0) {
        set_fig(f, NAN, "overhead.tsv has no overhead_pct value");
    } else {
        const char *var = tsv_get(&t, (size_t)at, "variant");
        const char *wpb = tsv_get(&t, (size_t)at, "wpb");
        set_fig(f, best, "overhead.tsv max over %zu rows (%s, WPB %s)", t.nrow, var ? var : "?",
                wpb ? wpb : "?");
    }
    tsv_free(&t);
}

int fleet_read_gpu(const char *dir, const char *label, fleet_gpu *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        set_err(err, errlen, "%s: not a folder", dir);
        return -1;
    }
    if (!fleet_is_results_dir(dir)) {
        set_err(err, errlen,
                "%s holds no GPU results (none of device.tsv, latency_ca.tsv, latency_cg.tsv, "
                "ceiling.tsv, overhead.tsv, readonly_<N>_wpb4.tsv)", dir);
        return -1;
    }
    snprintf(g->dir, sizeof g->dir, "%s", dir);
    fleet_field_copy(g->label, sizeof g->label, label);
    for (int f = 0; f < FLEET_NFIG; f++) {
        g->fig[f].value = NAN;
        g->fig[f].median = g->fig[f].mad = g->fig[f].floor = g->fig[f].distance_mads = NAN;
        g->fig[f].pct_from_median = NAN;
        g->fig[f].flagged = -1;
    }
    read_identity(dir, g);
    read_ladder(dir, g);
    read_bandwidth(dir, g);
    read_overhead(dir, g);
    return 0;
}


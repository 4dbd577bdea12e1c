/* report_gpu.c - the GPUs of a report and their device facts (report_ctx.h,
 * report_cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "family.h"
#include "names.h"
#include "report_cmd.h"
#include "stats.h"

const struct fam_report *rc_family(const char *name)
{
    const fam_entry *e = fam_lookup(name);
    return e ? e->report : NULL;
}

const struct fam_text *rc_family_text(const char *name)
{
    static const struct fam_text none;
    const fam_entry *e = fam_lookup(name);
    return e && e->text ? e->text : &none;
}

int rc_family_has_sectors(const char *name)
{
    const fam_entry *e = fam_lookup(name);
    return e && e->model;
}

void rc_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, RC_PROG ": ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void *rc_xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s);
    if (!p) rc_die("out of memory");
    return p;
}

int rc_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

int rc_is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "n/a" for NAN, else fmt. */
const char *rc_num(char *buf, size_t len, const char *fmt, double v)
{
    if (!isfinite(v)) snprintf(buf, len, "n/a");
    else snprintf(buf, len, fmt, v);
    return buf;
}
int rc_read_header(const char *path, warplog_header *h)
{
    char err[256];
    warplog_reader *r = warplog_reader_open(path, err, sizeof err);
    if (!r) return -1;
    *h = *warplog_reader_header(r);
    warplog_reader_close(r);
    return 0;
}

/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, L2 51200 KiB)" -> name and SMs. */
void rc_parse_device_meta(const char *v, char *name, size_t len, double *sms)
{
    if (!v) return;
    const char *p = strstr(v, " (");
    snprintf(name, len, "%.*s", p ? (int)(p - v) : (int)strlen(v), v);
    const char *s = p ? strstr(p, " SMs") : NULL;
    if (s) {
        const char *d = s;
        while (d > p && d[-1] >= '0' && d[-1] <= '9') d--;
        if (d < s) *sms = strtod(d, NULL);
    }
}

/* The value of a "key<TAB>value" row of device.tsv as a number. */
static double kv_num(const tsv_table *t, const char *key)
{
    long r = tsv_find(t, "key", key, 0);
    return r < 0 ? NAN : tsv_num(t, (size_t)r, "value");
}

/* nvidia_smi.csv: "name, driver_version, ..." then one row; the field of col. */
static int smi_field(const char *path, const char *col, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char hdr[2048], row[2048];
    int rc = -1;
    if (fgets(hdr, sizeof hdr, f) && fgets(row, sizeof row, f)) {
        char *hs = NULL, *rs = NULL;
        char *h = strtok_r(hdr, ",\n", &hs), *v = strtok_r(row, ",\n", &rs);
        while (h && v) {
            while (*h == ' ') h++;
            while (*v == ' ') v++;
            if (!strcmp(h, col)) { snprintf(out, len, "%s", v); rc = 0; break; }
            h = strtok_r(NULL, ",\n", &hs);
            v = strtok_r(NULL, ",\n", &rs);
        }
    }
    fclose(f);
    return rc;
}

/* The device facts, from the best source present: device.tsv, a log's
 * header, a summary's metadata, the ladder's metadata. */
static void device_facts(rc_gpu *G)
{
    rf_device_unknown(&G->dev);
    G->mem_clock_MHz = G->bus_bits = G->nominal_MHz = NAN;
    snprintf(G->name, sizeof G->name, "%s", G->label);
    char err[512];
    const res_file *f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, res_timeline_dir(&G->r));
    if (!f) f = res_find(&G->r, NAMES_LOG, NULL, NULL, NULL, 0, NULL);
    if (f && rc_read_header(f->path, &G->hdr) == 0) {
        G->have_hdr = 1;
        const warplog_header *h = &G->hdr;
        snprintf(G->name, sizeof G->name, "%s", h->device_name);
        G->dev.sm_count = h->sm_count;
        G->dev.peak_GBps = h->peak_dram_GBps;
        G->dev.l2_bytes = h->l2_bytes;
        G->dev.max_warps_per_sm = h->max_threads_per_sm / 32.0;
        G->mem_clock_MHz = h->mem_clock_khz / 1000.0;
        G->bus_bits = h->bus_width_bits;
        G->nominal_MHz = h->sm_clock_nominal_khz / 1000.0;
        snprintf(G->date, sizeof G->date, "%.10s", h->date);
        if (h->sm_clock_measured_MHz > 0) {
            G->dev.sm_clock_MHz = h->sm_clock_measured_MHz;
            snprintf(G->clock_src, sizeof G->clock_src, "measured by the run of %s", f->rel);
        }
    }
    const res_file *dv = res_find(&G->r, NAMES_FIXED, NULL, NULL, NULL, 0, "");
    for (; dv; dv = res_next(&G->r, dv, NAMES_FIXED, NULL, NULL, NULL, 0, ""))
        if (!strcmp(dv->base, "device.tsv")) break;
    tsv_table t;
    if (dv && tsv_read(dv->path, &t, err, sizeof err) == 0) {
        long r = tsv_find(&t, "key", "device_name", 0);
        if (r >= 0) snprintf(G->name, sizeof G->name, "%s", tsv_get(&t, (size_t)r, "value"));
        G->dev.sm_count = kv_num(&t, "sm_count");
        G->dev.peak_GBps = kv_num(&t, "peak_dram_GBps");
        G->dev.l2_bytes = kv_num(&t, "l2_bytes");
        G->dev.max_warps_per_sm = kv_num(&t, "max_threads_per_sm") / 32;
        G->mem_clock_MHz = kv_num(&t, "mem_clock_khz") / 1000;
        G->bus_bits = kv_num(&t, "bus_width_bits");
        G->nominal_MHz = kv_num(&t, "sm_clock_nominal_khz") / 1000;
        tsv_free(&t);
    }
    /* the measured clock: the log's, else the summaries' sm_clock_MHz, else
     * the ladder's */
    if (!(G->dev.sm_clock_MHz > 0)) {
        double v[256];
        size_t n = 0;
        for (const res_file *s = res_find(&G->r, NAMES_SUMMARY, NULL, NULL, NULL, 0, ""); s;
             s = res_next(&G->r, s, NAMES_SUMMARY, NULL, NULL, NULL, 0, "")) {
            if (tsv_read(s->path, &t, err, sizeof err) != 0) continue;
            for (size_t r = 0; r < t.nrow && n < 256; r++) {
                const double c = tsv_num(&t, r, "sm_clock_MHz");
                if (c > 0) v[n++] = c;
            }
            if (!isfinite(G->dev.peak_GBps)) G->dev.peak_GBps = tsv_meta_lead_num(&t, "peak_dram_GBps");
            if (!isfinite(G->nominal_MHz)) G->nominal_MHz = tsv_meta_num(&t, "sm_clock_nominal_MHz");
            if (!G->have_hdr && !dv) rc_parse_device_meta(tsv_meta(&t, "device"), G->name, sizeof G->name, &G->dev.sm_count);
            tsv_free(&t);
        }
        if (n) {
            G->dev.sm_clock_MHz = stats_median_inplace(v, n);
            snprintf(G->clock_src, sizeof G->clock_src, "measured: median over the summaries' sm_clock_MHz");
        }
    }
    const res_file *lad = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
    if (!(G->dev.sm_clock_MHz > 0) && lad && tsv_read(lad->path, &t, err, sizeof err) == 0) {
        const double c = tsv_meta_num(&t, "sm_clock_measured_MHz");
        if (c > 0) {
            G->dev.sm_clock_MHz = c;
            snprintf(G->clock_src, sizeof G->clock_src, "measured by the latency ladder");
        }
        tsv_free(&t);
    }
    if (!(G->dev.sm_clock_MHz > 0) && G->nominal_MHz > 0) {
        G->dev.sm_clock_MHz = G->nominal_MHz;
        snprintf(G->clock_src, sizeof G->clock_src, "nominal (not measured)");
    }
    for (const res_file *s = res_find(&G->r, NAMES_FIXED, NULL, NULL, NULL, 0, ""); s;
         s = res_next(&G->r, s, NAMES_FIXED, NULL, NULL, NULL, 0, ""))
        if (!strcmp(s->base, "nvidia_smi.csv")) smi_field(s->path, "driver_version", G->driver, sizeof G->driver);
}

/* The achievable ceiling (ceiling.tsv) and the ladder's levels. */
static void ceiling_facts(rc_gpu *G)
{
    char err[512];
    G->nceiling = 0;
    G->dram_ns = G->dram_cycles = NAN;
    G->nlv = 0;
    const res_file *f = rc_fixed(G, "ceiling.tsv");
    tsv_table t;
    if (f && tsv_read(f->path, &t, err, sizeof err) == 0) {
        const int n = rfm_ceiling_read(&t, G->ceiling, 16);
        G->nceiling = n > 0 ? n : 0;
        tsv_free(&t);
    }
    const res_file *ca = res_find(&G->r, NAMES_LADDER, NULL, NULL, NULL, 0, "");
    while (ca && strcmp(ca->base, "latency_ca.tsv")) ca = res_next(&G->r, ca, NAMES_LADDER, NULL, NULL, NULL, 0, "");
    if (ca && plateau_dram_latency_from_tsv(ca->path, &G->dram_cycles, &G->dram_ns, err, sizeof err) != 0)
        G->dram_cycles = G->dram_ns = NAN;
    if (ca && rc_ladder_levels(ca->path, G->lv, &G->nlv, err, sizeof err) != 0) G->nlv = 0;
}

/* The ceiling of operation op on this GPU, NAN without ceiling.tsv. */
double rc_ceiling_of(const rc_gpu *G, const char *op)
{
    return rfm_ceiling_of(G->ceiling, (size_t)G->nceiling, op);
}

int rc_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}
void rc_load_gpus(rc_ctx *c, int nsrc, char **src)
{
    char data[4096];
    snprintf(data, sizeof data, "%s/data", c->outdir);
    DIR *d = opendir(data);
    if (!d) rc_die("cannot read %s: %s", data, strerror(errno));
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        if (e->d_name[0] == '.') continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", data, e->d_name);
        if (rc_is_dir(p) && res_is_gpu_dir(p)) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, rc_cmp_str);
    if (n > RC_MAX_GPUS) rc_die("%d GPU folders in %s: at most %d", n, data, RC_MAX_GPUS);
    for (int i = 0; i < n; i++) {
        rc_gpu *G = &c->g[c->ng++];
        char p[4400], err[512];
        snprintf(p, sizeof p, "%s/%s", data, names[i]);
        if (res_scan(p, names[i], &G->r, err, sizeof err) != 0) rc_die("%s", err);
        G->label = G->r.label;
        G->source = NULL;
        for (int k = 0; k < nsrc; k++) {
            const size_t l = strlen(names[i]);
            if (!strncmp(src[k], names[i], l) && src[k][l] == '=') G->source = src[k] + l + 1;
        }
        device_facts(G);
        ceiling_facts(G);
        free(names[i]);
    }
}

/* Families: those found in any GPU's results, then any of --families. */
void rc_find_families(rc_ctx *c, const char *list)
{
    for (int i = 0; i < c->ng; i++) {
        char f[RC_MAX_FAMILIES][64];
        const size_t n = res_families(&c->g[i].r, f, RC_MAX_FAMILIES);
        for (size_t k = 0; k < n; k++) {
            size_t j = 0;
            while (j < c->nfam && strcmp(c->families[j], f[k])) j++;
            if (j == c->nfam && c->nfam < RC_MAX_FAMILIES) snprintf(c->families[c->nfam++], 64, "%.63s", f[k]);
        }
    }
    if (list && *list) {
        char *dup = strdup(list), *save = NULL;
        if (!dup) rc_die("out of memory");
        for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            size_t j = 0;
            while (j < c->nfam && strcmp(c->families[j], t)) j++;
            if (j == c->nfam && c->nfam < RC_MAX_FAMILIES && names_valid_exp(t))
                snprintf(c->families[c->nfam++], 64, "%s", t);
        }
        free(dup);
    }
}

const res_file *rc_fixed(const rc_gpu *G, const char *base)
{
    for (const res_file *f = res_find(&G->r, NAMES_FIXED, NULL, NULL, NULL, 0, ""); f;
         f = res_next(&G->r, f, NAMES_FIXED, NULL, NULL, NULL, 0, ""))
        if (!strcmp(f->base, base)) return f;
    return NULL;
}

int rc_ladder_levels(const char *path, plateau_level *lv, int *n, char *err, size_t errlen)
{
    plateau_series se;
    if (plateau_read_tsv(path, &se, err, errlen) != 0) return -1;
    *n = plateau_find(se.pts, se.n, NULL, lv, PLATEAU_MAX_LEVELS, err, errlen);
    if (*n >= 0) plateau_label(lv, *n, plateau_series_l1_bypassed(&se));
    plateau_series_free(&se);
    return *n < 0 ? -1 : 0;
}

const char *rc_set_n(const res_gpu *r, int *quick)
{
    const char *n = NULL;
    for (const fam_entry *e = fam_registry; e->name && !n; e++)
        if (e->report && e->report->sets_n) n = res_main_n(r, e->name);
    if (quick) *quick = n && !strcmp(n, "1e7");
    return n ? n : "1e8";
}

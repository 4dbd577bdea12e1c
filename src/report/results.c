/* results.c - see results.h. */
#define _POSIX_C_SOURCE 200809L
#include "results.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "err.h"

double res_n_value(const char *n)
{
    uint64_t v;
    char err[128];
    if (!n) return 0;
    /* a 2-D size, the stencil's N0xN1: the elements it holds */
    const char *x = strchr(n, 'x');
    if (x && x > n && x[1]) {
        char a[64];
        uint64_t w;
        if ((size_t)(x - n) >= sizeof a) return 0;
        memcpy(a, n, (size_t)(x - n));
        a[x - n] = 0;
        if (cli_parse_count("N0", a, UINT64_MAX, &v, err, sizeof err) != 0 ||
            cli_parse_count("N1", x + 1, UINT64_MAX, &w, err, sizeof err) != 0)
            return 0;
        return (double)v * (double)w;
    }
    if (cli_parse_count("N", n, UINT64_MAX, &v, err, sizeof err) != 0) return 0;
    return (double)v;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int add_file(res_gpu *g, const char *where, const char *name, size_t *cap)
{
    if (g->nfile == *cap) {
        const size_t c = *cap ? *cap * 2 : 64;
        res_file *f = realloc(g->file, c * sizeof *f);
        if (!f) return -1;
        g->file = f;
        *cap = c;
    }
    res_file *f = &g->file[g->nfile];
    memset(f, 0, sizeof *f);
    const size_t rl = strlen(where) + strlen(name) + 2;
    f->rel = malloc(rl);
    f->path = malloc(strlen(g->dir) + rl + 1);
    if (!f->rel || !f->path) { free(f->rel); free(f->path); return -1; }
    snprintf(f->rel, rl, "%s%s%s", where, *where ? "/" : "", name);
    sprintf(f->path, "%s/%s", g->dir, f->rel);
    f->base = f->rel + (*where ? strlen(where) + 1 : 0);
    snprintf(f->where, sizeof f->where, "%s", where);
    f->kind = names_parse(name, f->exp, f->variant, f->label, f->n, sizeof f->exp, &f->wpb);
    if (!strncmp(where, "legacy", 6)) f->kind = NAMES_LEGACY;
    g->nfile++;
    return 0;
}

/* Every regular file of dir/where (one level), or of its whole tree when deep. */
static int scan(res_gpu *g, const char *where, int deep, size_t *cap, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", g->dir, *where ? "/" : "", where);
    DIR *d = opendir(path);
    if (!d) { set_err(err, errlen, "cannot read the folder %s", path); return -1; }
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue; /* ".", "..", hidden and .tmp leftovers of others */
        const size_t nl = strlen(e->d_name);
        if (nl > 4 && !strcmp(e->d_name + nl - 4, ".tmp")) continue;
        char sub[4400];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (is_dir(sub)) {
            char w[512];
            snprintf(w, sizeof w, "%s%s%s", where, *where ? "/" : "", e->d_name);
            if (deep) rc = scan(g, w, 1, cap, err, errlen);
            else if (!*where) {
                const names_kind k = names_parse(e->d_name, NULL, NULL, NULL, NULL, 0, NULL);
                if (k == NAMES_LOGDIR || !strcmp(e->d_name, "ncu")) rc = scan(g, w, 0, cap, err, errlen);
                else if (k == NAMES_LEGACY) rc = scan(g, w, 1, cap, err, errlen);
            }
            continue;
        }
        if (add_file(g, where, e->d_name, cap) != 0) {
            set_err(err, errlen, "out of memory listing %s", path);
            rc = -1;
        }
    }
    closedir(d);
    return rc;
}

static int by_rel(const void *a, const void *b)
{
    return strcmp(((const res_file *)a)->rel, ((const res_file *)b)->rel);
}

int res_scan(const char *dir, const char *label, res_gpu *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (!is_dir(dir)) { set_err(err, errlen, "%s is not a folder", dir); return -1; }
    g->dir = strdup(dir);
    g->label = strdup(label ? label : "");
    if (!g->dir || !g->label) { res_free(g); set_err(err, errlen, "out of memory"); return -1; }
    size_t cap = 0;
    if (scan(g, "", 0, &cap, err, errlen) != 0) { res_free(g); return -1; }
    if (g->nfile > 1) qsort(g->file, g->nfile, sizeof *g->file, by_rel); /* file is NULL when empty */
    /* base points into rel, which qsort did not move */
    return 0;
}

void res_free(res_gpu *g)
{
    if (!g) return;
    for (size_t i = 0; i < g->nfile; i++) {
        free(g->file[i].rel);
        free(g->file[i].path);
    }
    free(g->file);
    free(g->dir);
    free(g->label);
    memset(g, 0, sizeof *g);
}

int res_is_gpu_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    int yes = 0;
    while (!yes && (e = readdir(d))) {
        const names_kind k = names_parse(e->d_name, NULL, NULL, NULL, NULL, 0, NULL);
        yes = k != NAMES_UNKNOWN && k != NAMES_LEGACY && k != NAMES_NCU;
    }
    closedir(d);
    return yes;
}

static int match(const res_file *f, names_kind k, const char *exp, const char *variant,
                 const char *n, unsigned wpb, const char *where)
{
    return f->kind == k && (!exp || !strcmp(f->exp, exp)) && (!variant || !strcmp(f->variant, variant)) &&
           (!n || !strcmp(f->n, n)) && (!wpb || f->wpb == wpb) && (!where || !strcmp(f->where, where));
}

const res_file *res_find(const res_gpu *g, names_kind k, const char *exp, const char *variant,
                         const char *n, unsigned wpb, const char *where)
{
    for (size_t i = 0; i < g->nfile; i++)
        if (match(&g->file[i], k, exp, variant, n, wpb, where)) return &g->file[i];
    return NULL;
}

const res_file *res_next(const res_gpu *g, const res_file *after, names_kind k, const char *exp,
                         const char *variant, const char *n, unsigned wpb, const char *where)
{
    if (!after) return res_find(g, k, exp, variant, n, wpb, where);
    for (size_t i = (size_t)(after - g->file) + 1; i < g->nfile; i++)
        if (match(&g->file[i], k, exp, variant, n, wpb, where)) return &g->file[i];
    return NULL;
}

size_t res_families(const res_gpu *g, char (*out)[64], size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < g->nfile; i++) {
        const res_file *f = &g->file[i];
        if (f->kind != NAMES_SUMMARY || *f->where) continue;
        size_t j = 0;
        while (j < n && strcmp(out[j], f->exp)) j++;
        if (j < n || n == max) continue;
        snprintf(out[n++], 64, "%s", f->exp);
    }
    for (size_t a = 1; a < n; a++) /* insertion sort: a handful of names */
        for (size_t b = a; b > 0 && strcmp(out[b - 1], out[b]) > 0; b--) {
            char t[64];
            memcpy(t, out[b], 64); memcpy(out[b], out[b - 1], 64); memcpy(out[b - 1], t, 64);
        }
    return n;
}

const char *res_main_n(const res_gpu *g, const char *exp)
{
    const char *best = NULL;
    double bv = -1;
    for (size_t i = 0; i < g->nfile; i++) {
        const res_file *f = &g->file[i];
        if (f->kind != NAMES_SUMMARY || *f->where || strcmp(f->exp, exp)) continue;
        const double v = res_n_value(f->n);
        if (v > bv) { bv = v; best = f->n; }
    }
    return best;
}

size_t res_wpbs(const res_gpu *g, const char *exp, const char *n, unsigned *out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < g->nfile; i++) {
        const res_file *f = &g->file[i];
        if (!match(f, NAMES_SUMMARY, exp, NULL, n, 0, "")) continue;
        size_t j = 0;
        while (j < k && out[j] != f->wpb) j++;
        if (j == k && k < max) out[k++] = f->wpb;
    }
    for (size_t a = 1; a < k; a++)
        for (size_t b = a; b > 0 && out[b - 1] > out[b]; b--) {
            unsigned t = out[b]; out[b] = out[b - 1]; out[b - 1] = t;
        }
    return k;
}

const char *res_timeline_dir(const res_gpu *g)
{
    const char *best = NULL;
    double bv = 0;
    for (size_t i = 0; i < g->nfile; i++) {
        const res_file *f = &g->file[i];
        if (f->kind != NAMES_LOG || strncmp(f->where, "logs_", 5)) continue;
        const double v = res_n_value(f->where + 5);
        if (v > 0 && (!best || v < bv)) { bv = v; best = f->where; }
    }
    return best;
}

/* report_files.c - the files a complete results folder has:
 * bin/report expected and gpus, and the report's Files section (report_cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "outfile.h"
#include "report_cmd.h"

/* ------------------------------------------------------------ expected files */

void rc_expected(const res_gpu *r, char (*fams)[64], size_t nfam, void (*fn)(const char *base, void *arg),
                 void *arg)
{
    static const unsigned WPBS[] = {2, 4, 8, 16, 32};
    char b[256];
    int quick = 0;
    const char *setn = rc_set_n(r, &quick);
    fn("device.tsv", arg);
    fn("nvidia_smi.csv", arg);
    for (size_t fa = 0; fa < nfam; fa++) {
        const struct fam_report *fi = rc_family(fams[fa]);
        if (fi && fi->expected) {
            fi->expected(quick, fn, arg);
        } else if (!fi || !fi->no_summaries) {
            const char *n = res_main_n(r, fams[fa]);
            if (!n) n = setn;
            for (size_t w = 0; w < sizeof WPBS / sizeof WPBS[0]; w++) {
                if (!(fi && fi->all_wpbs) && WPBS[w] != 4) continue;
                names_summary(b, sizeof b, fams[fa], n, WPBS[w]);
                fn(b, arg);
            }
        }
        if (!(fi && fi->no_sass)) {
            names_sass(b, sizeof b, fams[fa]);
            fn(b, arg);
        }
        for (const char *const *v = fi ? fi->sweep_variants : NULL; v && *v; v++) {
            if (quick && v != fi->sweep_variants) continue; /* --quick: the first sweep */
            names_sweep(b, sizeof b, fams[fa], *v, fi->sweep_wpb);
            fn(b, arg);
        }
        if (rc_family_has_sectors(fams[fa])) {
            names_sectors(b, sizeof b, fams[fa]);
            fn(b, arg);
        }
    }
    names_latency_stats(b, sizeof b, setn, 4);
    fn(b, arg);
    fn("overhead.tsv", arg);
    fn("sampling.tsv", arg);
    names_logdir(b, sizeof b, "1e6");
    fn(b, arg);
    fn("latency_ca.tsv", arg);
    fn("latency_cg.tsv", arg);
}

typedef struct miss_ctx {
    const res_gpu *r;
    const char *dir;       /* for the commands */
    void (*out)(const char *base, const char *cmd, void *arg);
    void *arg;
    size_t n;
} miss_ctx;

static void check_one(const char *base, void *arg)
{
    miss_ctx *m = arg;
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", m->r->dir, base);
    if (rc_exists(p)) return;
    char cmd[2048];
    if (names_command(cmd, sizeof cmd, m->dir, base) != 0) snprintf(cmd, sizeof cmd, "scripts/reference.sh %s", m->dir);
    m->out(base, cmd, m->arg);
    m->n++;
}

static void print_missing(const char *base, const char *cmd, void *arg)
{
    (void)arg;
    printf("%s\t%s\n", base, cmd);
}

typedef struct doc_arg {
    report_doc *d;
    rd_section *s;
    rd_table *t;
    size_t row;
} doc_arg;

static void table_missing(const char *base, const char *cmd, void *arg)
{
    doc_arg *a = arg;
    a->row++;
    rd_table_set(a->t, a->row, 0, "%s", base);
    rd_table_set(a->t, a->row, 1, "%s", cmd);
}

void rc_sec_files(report_doc *d, const rc_ctx *c)
{
    rd_section *s = rc_section_open(d, RC_SEC_FILES);
    char p[64];
    for (int i = 0; i < c->ng; i++) {
        const rc_gpu *G = &c->g[i];
        doc_arg a = {d, s, rd_table_new(2), 0};
        rd_table_set(a.t, 0, 0, "missing file");
        rd_table_set(a.t, 0, 1, "made by");
        miss_ctx m = {&G->r, rc_src_dir(G), table_missing, &a, 0};
        rc_expected(&G->r, (char (*)[64])c->families, c->nfam, check_one, &m);
        rd_heading(d, s, "%s%s", rc_pfx(c, G, p, sizeof p), G->name);
        if (m.n) {
            rd_para(d, s, "%zu expected file(s) missing:", m.n);
            rd_table_add(d, s, a.t);
        } else {
            rd_table_free(a.t);
            rd_para(d, s, "Every expected file is there.");
        }
        int any = 0;
        for (size_t k = 0; k < G->r.nfile; k++) {
            const res_file *f = &G->r.file[k];
            if (f->kind != NAMES_LEGACY && f->kind != NAMES_UNKNOWN) continue;
            if (!any) { rd_links_start(d, s, "Other files:"); any = 1; }
            rd_link(d, s, rc_rel_to_out(c, f->path), f->rel);
        }
    }
}

int rc_cmd_expected(const char *dir, const char *families)
{
    res_gpu r;
    char err[512];
    if (res_scan(dir, "", &r, err, sizeof err) != 0) rc_die("%s", err);
    char fams[RC_MAX_FAMILIES][64];
    size_t nf = res_families(&r, fams, RC_MAX_FAMILIES);
    if (families && *families) {
        char *dup = strdup(families), *save = NULL;
        for (char *t = strtok_r(dup, ",", &save); t && nf < RC_MAX_FAMILIES; t = strtok_r(NULL, ",", &save)) {
            size_t j = 0;
            while (j < nf && strcmp(fams[j], t)) j++;
            if (j == nf && names_valid_exp(t)) snprintf(fams[nf++], 64, "%s", t);
        }
        free(dup);
    }
    miss_ctx m = {&r, dir, print_missing, NULL, 0};
    printf("file\tcommand\n");
    rc_expected(&r, fams, nf, check_one, &m);
    res_free(&r);
    return outfile_check_stdout(RC_PROG);
}

/* The results folders of dir: itself, or its sub-folders that are, sorted. */
int rc_cmd_gpus(const char *dir, int nul)
{
    const int end = nul ? '\0' : '\n';
    if (!rc_is_dir(dir)) rc_die("%s is not a folder", dir);
    if (res_is_gpu_dir(dir)) { printf("%s%c", dir, end); return outfile_check_stdout(RC_PROG); }
    DIR *d = opendir(dir);
    if (!d) rc_die("cannot read %s: %s", dir, strerror(errno));
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        if (e->d_name[0] == '.') continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (!rc_is_dir(p) || !res_is_gpu_dir(p)) continue;
        if (!(names[n++] = strdup(p))) rc_die("out of memory");
    }
    closedir(d);
    qsort(names, n, sizeof *names, rc_cmp_str);
    for (size_t i = 0; i < n; i++) { printf("%s%c", names[i], end); free(names[i]); }
    return outfile_check_stdout(RC_PROG);
}

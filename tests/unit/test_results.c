/* test_results.c - a results folder is read by the naming contract. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "results.h"

static char root[256];

static void touch(const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    if (f) fclose(f);
}

static void mk(const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    mkdir(p, 0777);
}

int main(void)
{
    snprintf(root, sizeof root, "%s/test_results.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(root)) { perror("mkdtemp"); return 1; }
    mk("gpu");
    mk("gpu/logs_1e6");
    mk("gpu/logs_1e7");
    mk("gpu/ncu");
    mk("gpu/legacy");
    mk("gpu/legacy/old");
    mk("gpu/other");
    touch("gpu/readonly_1e8_wpb4.tsv");
    touch("gpu/readonly_1e8_wpb16.tsv");
    touch("gpu/readonly_1e8_wpb2.tsv");
    touch("gpu/readonly_1e7_wpb4.tsv");
    touch("gpu/copy_1e8_wpb4.tsv");
    touch("gpu/sweep_readonly_random_access_4.tsv");
    touch("gpu/sectors_readonly.tsv");
    touch("gpu/latency_ca.tsv");
    touch("gpu/overhead.tsv");
    touch("gpu/notes.txt");
    touch("gpu/readonly_1e8_wpb4.tsv.tmp");
    touch("gpu/logs_1e6/readonly_baseline_4.bin");
    touch("gpu/logs_1e6/readonly_1e6_wpb4.tsv");
    touch("gpu/logs_1e7/readonly_baseline_4.bin");
    touch("gpu/ncu/readonly_strided_8.csv");
    touch("gpu/legacy/profile_1e8_wpb4.tsv");
    touch("gpu/legacy/old/x.txt");
    touch("gpu/other/readonly_1e8_wpb8.tsv"); /* not a folder of the contract: not read */

    char dir[512], err[256];
    snprintf(dir, sizeof dir, "%s/gpu", root);
    CHECK(res_is_gpu_dir(dir));
    CHECK(!res_is_gpu_dir(root)); /* a folder of GPU folders */
    res_gpu g;
    CHECK(res_scan(dir, "h100", &g, err, sizeof err) == 0);
    CHECK(!strcmp(g.label, "h100"));

    /* every file of the contract's folders, none of the others, no .tmp */
    int seen_other = 0, seen_tmp = 0, seen_legacy_deep = 0;
    for (size_t i = 0; i < g.nfile; i++) {
        seen_other |= !strncmp(g.file[i].rel, "other/", 6);
        seen_tmp |= strstr(g.file[i].rel, ".tmp") != NULL;
        seen_legacy_deep |= !strcmp(g.file[i].rel, "legacy/old/x.txt") && g.file[i].kind == NAMES_LEGACY;
    }
    CHECK(!seen_other);
    CHECK(!seen_tmp);
    CHECK(seen_legacy_deep);
    for (size_t i = 1; i < g.nfile; i++) CHECK(strcmp(g.file[i - 1].rel, g.file[i].rel) < 0);

    const res_file *f = res_find(&g, NAMES_SWEEP, "readonly", "random_access", NULL, 4, "");
    CHECK(f && !strcmp(f->base, "sweep_readonly_random_access_4.tsv"));
    CHECK(f && !strcmp(f->path + strlen(f->path) - strlen(f->rel), f->rel));
    CHECK(res_find(&g, NAMES_SWEEP, "readonly", "float4", NULL, 4, "") == NULL);
    f = res_find(&g, NAMES_LOG, "readonly", "baseline", NULL, 4, NULL);
    CHECK(f && !strcmp(f->where, "logs_1e6"));
    f = res_next(&g, f, NAMES_LOG, "readonly", "baseline", NULL, 4, NULL);
    CHECK(f && !strcmp(f->where, "logs_1e7"));
    CHECK(res_next(&g, f, NAMES_LOG, "readonly", "baseline", NULL, 4, NULL) == NULL);
    CHECK(!strcmp(res_timeline_dir(&g), "logs_1e6"));
    f = res_find(&g, NAMES_NCU, "readonly", NULL, NULL, 0, "ncu");
    CHECK(f && !strcmp(f->label, "strided_8"));
    f = res_find(&g, NAMES_UNKNOWN, NULL, NULL, NULL, 0, "");
    CHECK(f && !strcmp(f->base, "notes.txt"));

    /* families: top-level summaries only, sorted; the largest N; its WPBs */
    char fam[8][64];
    CHECK_EQ_U(res_families(&g, fam, 8), 2);
    CHECK(!strcmp(fam[0], "copy") && !strcmp(fam[1], "readonly"));
    CHECK(!strcmp(res_main_n(&g, "readonly"), "1e8"));
    CHECK(res_main_n(&g, "nosuch") == NULL);
    unsigned w[8];
    CHECK_EQ_U(res_wpbs(&g, "readonly", "1e8", w, 8), 3);
    CHECK(w[0] == 2 && w[1] == 4 && w[2] == 16);
    CHECK_NEAR(res_n_value("1e8"), 1e8, 0);
    CHECK_NEAR(res_n_value("100000000"), 1e8, 0);
    CHECK_NEAR(res_n_value("x"), 0, 0);
    CHECK_NEAR(res_n_value("1024x97656"), 99999744, 0);
    CHECK_NEAR(res_n_value("32x"), 0, 0);
    CHECK_NEAR(res_n_value("x32"), 0, 0);
    res_free(&g);

    snprintf(dir, sizeof dir, "%s/nosuch", root);
    CHECK(res_scan(dir, "x", &g, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "is not a folder");

    /* an empty folder: no files, no families (and no qsort of NULL: the
     * sanitizer build of the tests caught that through bin/report) */
    mk("empty");
    touch("empty/.keep");
    snprintf(dir, sizeof dir, "%s/empty", root);
    CHECK(res_scan(dir, "e", &g, err, sizeof err) == 0);
    CHECK_EQ_U(g.nfile, 0);
    CHECK_EQ_U(res_families(&g, fam, 8), 0);
    res_free(&g);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
    return check_report("test_results");
}

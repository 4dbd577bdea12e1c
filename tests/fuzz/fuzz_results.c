/* fuzz_results - a GPU's results folder as the report classifies it
 * (src/report/results.h): each input line is a file name, made (empty) in a
 * scratch folder, in logs_1e6/ when it starts with "L:", in ncu/ with "N:";
 * the folder is then scanned and queried as bin/report does. */
#include "fuzz_common.h"
#include "results.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static const char *const subs[] = {"", "logs_1e6", "ncu"};

/* Empty the scratch folder (one level of sub-folders). */
static void clear(void)
{
    char p[512];
    for (int s = 2; s >= 0; s--) {
        snprintf(p, sizeof p, "%s/%s", dir, subs[s]);
        DIR *d = opendir(p);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char q[800];
            snprintf(q, sizeof q, "%s/%s", p, e->d_name);
            if (unlink(q) != 0) rmdir(q);
        }
        if (d) closedir(d);
    }
}

static void remove_dir(void)
{
    clear();
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_results.XXXXXX");
        if (!mkdtemp(dir)) abort();
        atexit(remove_dir);
    }
    clear();
    char *s = fuzz_string(data, size);
    int made = 0;
    for (char *save = NULL, *line = strtok_r(s, "\n", &save); line && made < 64;
         line = strtok_r(NULL, "\n", &save)) {
        int sub = 0;
        if (!strncmp(line, "L:", 2)) sub = 1, line += 2;
        else if (!strncmp(line, "N:", 2)) sub = 2, line += 2;
        /* a name, not a path: no '/', not . or .., at most 200 bytes */
        if (!*line || strchr(line, '/') || !strcmp(line, ".") || !strcmp(line, "..") ||
            strlen(line) > 200)
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, subs[sub]);
        mkdir(p, 0700);
        snprintf(p, sizeof p, "%s/%s/%s", dir, subs[sub], line);
        FILE *f = fopen(p, "w");
        if (f) fclose(f), made++;
    }
    free(s);
    res_gpu g;
    char err[512];
    if (res_scan(dir, "fuzz", &g, err, sizeof err) == 0) {
        res_is_gpu_dir(dir);
        char fam[16][64];
        size_t nf = res_families(&g, fam, 16);
        for (size_t i = 0; i < nf; i++) {
            const char *n = res_main_n(&g, fam[i]);
            unsigned wpb[32];
            if (n) {
                res_wpbs(&g, fam[i], n, wpb, 32);
                res_n_value(n);
            }
            for (const res_file *r = res_find(&g, NAMES_LOG, fam[i], NULL, NULL, 0, NULL); r;
                 r = res_next(&g, r, NAMES_LOG, fam[i], NULL, NULL, 0, NULL)) {}
        }
        res_timeline_dir(&g);
        res_free(&g);
    }
    return 0;
}

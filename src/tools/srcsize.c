/*
 * srcsize - the size rules of the sources: no function longer than 120
 * lines, no source file longer than 800 (tests/cli/style_size.sh: src/,
 * instrument/, include/ and scripts/).
 *
 *   bin/srcsize [--allow FILE] [--max-func N] [--max-lines N] PATH...
 *
 * Every .c, .cu, .cuh, .h and .sh file under the PATHs (folders are walked,
 * in name order) is measured (src/lib/srcsize.c finds the functions: those
 * written as C writes them; a shell script's "f() {" is measured as a file
 * only).  Each
 * offender is one line on stdout:
 *   src/x.c: 912 lines (limit 800)
 *   src/x.c:main: 260 lines from line 88 (limit 120)
 * --allow FILE lists known offenders, one "path" or "path:function" a line
 * ('#' starts a comment): they are printed with "allowed: " in front and
 * do not fail.  An allowed entry that no longer offends fails ("no longer
 * over the limit: remove it from FILE"), so the list only shrinks.
 * Exit status: 0 no failure; 1 an offender not allowed, a stale entry or an
 * unreadable file; 2 usage.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "outfile.h"
#include "srcsize.h"

#define PROG "srcsize"
#define MAX_ALLOW 512

static const char usage_text[] =
    "usage: srcsize [--allow FILE] [--max-func N] [--max-lines N] PATH...\n"
    "  Print every function longer than --max-func lines (120) and every\n"
    "  .c/.cu/.cuh/.h/.sh file longer than --max-lines lines (800) under the\n"
    "  PATHs.  Known offenders\n"
    "  listed in --allow FILE (\"path\" or \"path:function\" a line) do not fail; a\n"
    "  listed entry that no longer offends does.\n"
    "  Exit status: 0 no failure; 1 an offender not allowed, a stale entry or an\n"
    "  unreadable file; 2 usage.\n"
    "options:\n";

typedef struct run {
    uint64_t max_func, max_lines;
    char *allow[MAX_ALLOW];
    int used[MAX_ALLOW];
    int nallow;
    int failed;
    const char *path; /* the file being measured */
} run;

/* Is "path" or "path:func" (func NULL: the file) in the allowlist?  Marks it used. */
static int allowed(run *r, const char *path, const char *func)
{
    char key[1200];
    if (func) snprintf(key, sizeof key, "%s:%s", path, func);
    else snprintf(key, sizeof key, "%s", path);
    for (int i = 0; i < r->nallow; i++)
        if (strcmp(r->allow[i], key) == 0) {
            r->used[i] = 1;
            return 1;
        }
    return 0;
}

static void on_func(const srcsize_func *f, void *ctx)
{
    run *r = ctx;
    if (f->lines <= r->max_func) return;
    const int ok = allowed(r, r->path, f->name);
    printf("%s%s:%s: %zu lines from line %zu (limit %llu)\n", ok ? "allowed: " : "", r->path,
           f->name, f->lines, f->first_line, (unsigned long long)r->max_func);
    if (!ok) r->failed = 1;
}

static int is_source(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (!strcmp(dot, ".c") || !strcmp(dot, ".cu") || !strcmp(dot, ".cuh") ||
                   !strcmp(dot, ".h") || !strcmp(dot, ".sh"));
}

static void measure_file(run *r, const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t len = 0, cap = 0;
    int oom = 0;
    if (f) {
        for (;;) {
            if (len + 4096 > cap) {
                /* a failed allocation is a failure, never the end of the file */
                char *t = realloc(text, cap = cap * 2 + 65536);
                if (!t) {
                    oom = 1;
                    break;
                }
                text = t;
            }
            const size_t got = fread(text + len, 1, cap - len, f);
            len += got;
            if (got == 0) break;
        }
    }
    if (!f || ferror(f) || !text || oom) {
        fprintf(stderr, PROG ": cannot read %s%s\n", path, oom ? ": out of memory" : "");
        r->failed = 1;
        if (f) fclose(f);
        free(text);
        return;
    }
    fclose(f);
    r->path = path;
    const size_t lines = srcsize_scan(text, len, on_func, r);
    free(text);
    if (lines > r->max_lines) {
        const int ok = allowed(r, path, NULL);
        printf("%s%s: %zu lines (limit %llu)\n", ok ? "allowed: " : "", path, lines,
               (unsigned long long)r->max_lines);
        if (!ok) r->failed = 1;
    }
}

static void measure(run *r, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, PROG ": no file or folder %s\n", path);
        r->failed = 1;
        return;
    }
    if (S_ISREG(st.st_mode)) {
        measure_file(r, path);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        /* a device or a FIFO may never end (/dev/zero) */
        fprintf(stderr, PROG ": %s is not a source file or a folder\n", path);
        r->failed = 1;
        return;
    }
    struct dirent **ents = NULL;
    const int n = scandir(path, &ents, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, PROG ": cannot list %s\n", path);
        r->failed = 1;
        return;
    }
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        char sub[4096];
        const size_t pl = strlen(path);
        snprintf(sub, sizeof sub, "%s%s%s", path, pl && path[pl - 1] == '/' ? "" : "/", name);
        if (name[0] != '.' && stat(sub, &st) == 0 && (S_ISDIR(st.st_mode) || is_source(name)))
            measure(r, sub);
        free(ents[i]);
    }
    free(ents);
}

/* Read the allowlist: one entry a line, blanks and '#' comments skipped. */
static int read_allow(run *r, const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, PROG ": cannot read the allowlist %s\n", file);
        return -1;
    }
    char line[1200];
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *b = line, *e = line + strlen(line);
        while (*b == ' ' || *b == '\t') b++;
        while (e > b && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) e--;
        *e = '\0';
        if (!*b) continue;
        if (r->nallow == MAX_ALLOW) {
            fprintf(stderr, PROG ": %s has more than %d entries\n", file, MAX_ALLOW);
            fclose(f);
            return -1;
        }
        r->allow[r->nallow++] = strdup(b);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    static run r;
    const char *allow = NULL;
    r.max_func = 120;
    r.max_lines = 800;
    const cli_opt opts[] = {
        {"--allow", 0, CLI_STRING, 0, 0, 0, 0, &allow, "FILE",
         "known offenders, \"path\" or \"path:function\" a line", 0, 0},
        {"--max-func", 0, CLI_U64, 1, 1000000, 0, 0, &r.max_func, "N",
         "the longest function allowed, in lines (120)", 0, 0},
        {"--max-lines", 0, CLI_U64, 1, 100000000, 0, 0, &r.max_lines, "N",
         "the longest file allowed, in lines (800)", 0, 0},
        CLI_END};
    cli_parse_result res;
    const int prc = cli_main_parse(PROG, argc, argv, opts, CLI_MAX_POS, usage_text, 1, &res);
    if (prc >= 0) return prc;
    if (res.npos == 0) return cli_usage_error(PROG, "give at least one PATH");
    if (allow && read_allow(&r, allow) != 0) return 1;
    for (int i = 0; i < res.npos; i++) measure(&r, res.pos[i]);
    for (int i = 0; i < r.nallow; i++) {
        if (!r.used[i]) {
            printf("%s: no longer over the limit (or gone): remove it from %s\n", r.allow[i], allow);
            r.failed = 1;
        }
        free(r.allow[i]);
    }
    const int rc = outfile_check_stdout(PROG);
    return rc ? rc : r.failed;
}

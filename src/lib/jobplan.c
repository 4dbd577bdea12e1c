/* jobplan.c - the report's chart jobs as data (jobplan.h).
 *
 * Why a field count and not an empty field to end a job: an argv element
 * may be empty ("--note ''"), and a count also lets the reader say which
 * job was cut short. */
#define _POSIX_C_SOURCE 200809L
#include "jobplan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

static void job_free(jp_job *j)
{
    free(j->output);
    free(j->out_stdout);
    free(j->what);
    for (int i = 0; j->argv && i < j->argc; i++) free(j->argv[i]);
    free(j->argv);
    memset(j, 0, sizeof *j);
}

void jp_free(jp_plan *p)
{
    for (size_t i = 0; i < p->n; i++) job_free(&p->jobs[i]);
    free(p->jobs);
    memset(p, 0, sizeof *p);
}

static char *dup_or_null(const char *s, int *oom)
{
    if (!s) return NULL;
    char *d = strdup(s);
    if (!d) *oom = 1;
    return d;
}

int jp_add(jp_plan *p, const char *output, const char *out_stdout, const char *what, int argc,
           const char *const *argv, char *err, size_t errlen)
{
    if (!output || !*output || !what || !*what || argc < 1 || !argv[0] || !*argv[0]) {
        set_err(err, errlen, "a job needs an output, its words and a program");
        return -1;
    }
    if (argc > JP_MAX_ARGS) {
        set_err(err, errlen, "the job for %s has %d arguments (at most %d)", output, argc, JP_MAX_ARGS);
        return -1;
    }
    if (p->n == p->cap) {
        const size_t cap = p->cap ? 2 * p->cap : 32;
        jp_job *j = realloc(p->jobs, cap * sizeof *j);
        if (!j) goto oom;
        p->jobs = j;
        p->cap = cap;
    }
    jp_job *j = &p->jobs[p->n];
    memset(j, 0, sizeof *j);
    int oom = 0;
    j->output = dup_or_null(output, &oom);
    j->out_stdout = dup_or_null(out_stdout, &oom);
    j->what = dup_or_null(what, &oom);
    j->argv = calloc((size_t)argc + 1, sizeof *j->argv);
    if (!j->argv) oom = 1;
    for (int i = 0; j->argv && i < argc; i++) {
        j->argv[i] = dup_or_null(argv[i] ? argv[i] : "", &oom);
        j->argc = i + 1;
    }
    if (oom) {
        job_free(j);
        goto oom;
    }
    p->n++;
    return 0;
oom:
    set_err(err, errlen, "out of memory");
    return -1;
}

void jp_write_tsv(FILE *f, const jp_plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        const jp_job *j = &p->jobs[i];
        fprintf(f, "%s\t%s\t%s", j->output, j->out_stdout ? j->out_stdout : "-", j->what);
        for (int a = 0; a < j->argc; a++) fprintf(f, "\t%s", j->argv[a]);
        fputc('\n', f);
    }
}

static void put0(FILE *f, const char *s)
{
    fputs(s, f);
    fputc('\0', f);
}

void jp_write_nul(FILE *f, const jp_plan *p)
{
    put0(f, JP_MAGIC);
    for (size_t i = 0; i < p->n; i++) {
        const jp_job *j = &p->jobs[i];
        fprintf(f, "%d", j->argc + 3);
        fputc('\0', f);
        put0(f, j->output);
        /* "-" is a name like any other here: an empty field says "not kept" */
        put0(f, j->out_stdout ? j->out_stdout : "");
        put0(f, j->what);
        for (int a = 0; a < j->argc; a++) put0(f, j->argv[a]);
    }
}

/* The next NUL-ended field at *pos, or NULL when the buffer ends first. */
static const char *next_field(const char *buf, size_t len, size_t *pos)
{
    if (*pos >= len) return NULL;
    const char *s = buf + *pos, *z = memchr(s, '\0', len - *pos);
    if (!z) return NULL;
    *pos += (size_t)(z - s) + 1;
    return s;
}

int jp_parse_nul(const char *buf, size_t len, const char *name, jp_plan *p, char *err, size_t errlen)
{
    size_t pos = 0;
    const char *m = next_field(buf, len, &pos);
    if (!m || strcmp(m, JP_MAGIC)) {
        set_err(err, errlen, "%s is not a plan in the NUL form (it does not start with \"%s\": "
                             "write it with bin/report plan --nul)", name, JP_MAGIC);
        return -1;
    }
    const char *argv[JP_MAX_ARGS];
    while (pos < len) {
        const size_t job = p->n + 1;
        const char *c = next_field(buf, len, &pos);
        char *end = NULL;
        errno = 0;
        const long nf = c ? strtol(c, &end, 10) : 0;
        if (!c || !*c || *end || errno || nf < 4 || nf > JP_MAX_ARGS + 3) {
            set_err(err, errlen, "%s: job %zu: its field count is not a number from 4 to %d", name, job,
                    JP_MAX_ARGS + 3);
            goto fail;
        }
        const char *f[3];
        for (int i = 0; i < 3; i++) f[i] = next_field(buf, len, &pos);
        int argc = 0;
        for (; f[2] && argc < (int)nf - 3; argc++)
            if (!(argv[argc] = next_field(buf, len, &pos))) break;
        if (!f[2] || argc < (int)nf - 3) {
            set_err(err, errlen, "%s: job %zu is cut short (%ld fields announced)", name, job, nf);
            goto fail;
        }
        if (jp_add(p, f[0], *f[1] ? f[1] : NULL, f[2], argc, argv, err, errlen) != 0) goto fail;
    }
    return 0;
fail:
    jp_free(p);
    return -1;
}

int jp_read_nul(const char *path, jp_plan *p, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    int rc = -1;
    for (size_t got; buf; len += got) {
        if (len == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) break;
            buf = b;
        }
        got = fread(buf + len, 1, cap - len, f);
        if (!got) {
            rc = ferror(f) ? -2 : 0;
            break;
        }
    }
    if (!buf || rc == -1) set_err(err, errlen, "out of memory reading %s", path);
    else if (rc == -2) set_err(err, errlen, "cannot read %s", path);
    else rc = jp_parse_nul(buf, len, path, p, err, errlen);
    if (rc) rc = -1;
    free(buf);
    if (f != stdin) fclose(f);
    return rc;
}

int jp_is_chart(const jp_job *j)
{
    const char *dot = strrchr(j->output, '.');
    return dot && (!strcmp(dot, ".svg") || !strcmp(dot, ".png") || !strcmp(dot, ".pdf"));
}

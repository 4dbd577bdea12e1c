/*
 * tsvscale.c - a table copied with columns scaled (see tsvscale.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "tsvscale.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "tsv.h"

/* Split line (modified in place) at tabs; returns the number of fields. */
static int split(char *line, char **fld)
{
    int n = 0;
    fld[n++] = line;
    for (char *p = line; *p; p++)
        if (*p == '\t') {
            *p = 0;
            if (n == TSVSCALE_MAX_FIELDS) return -1;
            fld[n++] = p + 1;
        }
    return n;
}

/* The number of digits after the point of a plain decimal ("680.14" -> 2),
 * or -1 when it has an exponent (then %.6g). */
static int decimals(const char *s)
{
    if (strpbrk(s, "eE")) return -1;
    const char *dot = strchr(s, '.');
    return dot ? (int)strlen(dot + 1) : 0;
}

typedef struct state {
    const tsvscale_spec *s;
    const char *name;
    FILE *out;
    int ncol, from_idx;
    int scale[TSVSCALE_MAX_FIELDS];
    char *fld[TSVSCALE_MAX_FIELDS];
} state;

/* The header line: find the columns, write the "# scaled" line and it. */
static int header(state *st, const char *line, long lineno, char *err, size_t errlen)
{
    const tsvscale_spec *s = st->s;
    char hdr[8192];
    snprintf(hdr, sizeof hdr, "%s", line);
    if ((st->ncol = split(hdr, st->fld)) < 0) {
        snprintf(err, errlen, "%s:%ld: more than %d columns", st->name, lineno, TSVSCALE_MAX_FIELDS);
        return -1;
    }
    char list[1024];
    snprintf(list, sizeof list, "%s", s->columns);
    for (char *save = NULL, *c = strtok_r(list, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < st->ncol && strcmp(st->fld[k], c) != 0) k++;
        if (k == st->ncol) {
            snprintf(err, errlen, "%s has no column '%s'", st->name, c);
            return -1;
        }
        st->scale[k] = 1;
    }
    if (s->from_col && s->from_col[0]) {
        while (++st->from_idx < st->ncol && strcmp(st->fld[st->from_idx], s->from_col) != 0) {}
        if (st->from_idx == st->ncol) {
            snprintf(err, errlen, "%s has no column '%s' (--rows-from)", st->name, s->from_col);
            return -1;
        }
    }
    fprintf(st->out, "# scaled\t%s x %.6g", s->columns, s->factor);
    if (s->from_col && s->from_col[0])
        fprintf(st->out, " in the rows with %s >= %.15g", s->from_col, s->from_v);
    fprintf(st->out, " by tsv_scale: test data, not a measurement\n%s\n", line);
    return 0;
}

/* A data row (modified in place): 1 scaled, 0 copied, -1 with err filled. */
static int row(state *st, char *line, long lineno, char *err, size_t errlen)
{
    const int n = split(line, st->fld);
    if (n != st->ncol) {
        snprintf(err, errlen, "%s:%ld: %d fields, the header has %d", st->name, lineno, n, st->ncol);
        return -1;
    }
    int here = 1;
    if (st->from_idx >= 0) {
        const double v = tsv_parse_num(st->fld[st->from_idx]);
        if (!isfinite(v)) {
            snprintf(err, errlen, "%s:%ld: %s '%.60s' is not a number", st->name, lineno,
                     st->s->from_col, st->fld[st->from_idx]);
            return -1;
        }
        here = v >= st->s->from_v;
    }
    for (int k = 0; k < n; k++) {
        if (k) fputc('\t', st->out);
        if (!here || !st->scale[k]) {
            fputs(st->fld[k], st->out);
            continue;
        }
        const double v = tsv_parse_num(st->fld[k]);
        if (!isfinite(v)) {
            snprintf(err, errlen, "%s:%ld: '%.60s' is not a number", st->name, lineno, st->fld[k]);
            return -1;
        }
        const int d = decimals(st->fld[k]);
        if (d < 0) fprintf(st->out, "%.6g", v * st->s->factor);
        else fprintf(st->out, "%.*f", d, v * st->s->factor);
    }
    fputc('\n', st->out);
    return here;
}

int tsvscale_copy(FILE *in, const char *name, FILE *out, const tsvscale_spec *s,
                  long *scaled_rows, char *err, size_t errlen)
{
    state st = {.s = s, .name = name, .out = out, .ncol = -1, .from_idx = -1};
    char *line = NULL;
    size_t cap = 0;
    long len, lineno = 0;
    unsigned long long total = 0;
    int rc = 0;
    *scaled_rows = 0;
    while (rc == 0 && (len = lines_read(in, &line, &cap, LINES_MAX_BYTES)) != -1) {
        lineno++;
        if (len < 0) {
            snprintf(err, errlen, "%s:%ld: %s", name, lineno,
                     len == -2 ? "a line longer than 1 MiB: not a table" : "out of memory");
            rc = -1;
        } else if ((total += (unsigned long long)len + 1) > TSVSCALE_MAX_INPUT_BYTES) {
            snprintf(err, errlen, "%s is larger than 1 GiB: not a table of ours", name);
            rc = -1;
        } else if (line[0] == '#' || len == 0) { /* comments, metadata, blank lines */
            fprintf(out, "%s\n", line);
        } else if (st.ncol < 0) {
            rc = header(&st, line, lineno, err, errlen);
        } else {
            const int got = row(&st, line, lineno, err, errlen);
            if (got < 0) rc = -1;
            else *scaled_rows += got;
        }
    }
    free(line);
    if (rc == 0 && ferror(in)) {
        snprintf(err, errlen, "error reading %s", name);
        rc = -1;
    }
    if (rc == 0 && st.ncol < 0) {
        snprintf(err, errlen, "%s has no header row", name);
        rc = -1;
    }
    return rc;
}

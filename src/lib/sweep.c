/*
 * sweep.c - occupancy-sweep table reader (contract: sweep.h).
 *
 * Lines are read with a bound (lines.h); a column map from header position
 * to struct offset is built once from the header row, which is what lets the
 * producer add or reorder columns freely.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"
#include "grow.h"
#include "err.h"
#include "lines.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const col_names[] = {
#define SWEEP_NAME(name) #name,
    SWEEP_NUMERIC_COLUMNS(SWEEP_NAME)
#undef SWEEP_NAME
};
static const size_t col_offsets[] = {
#define SWEEP_OFF(name) offsetof(sweep_point, name),
    SWEEP_NUMERIC_COLUMNS(SWEEP_OFF)
#undef SWEEP_OFF
};
#define NCOL (sizeof col_names / sizeof col_names[0])
_Static_assert(NCOL <= 32, "sweep.has_column is too small");

enum { MAP_IGNORE = -1, MAP_LOG = -2 };

void sweep_free(sweep *s)
{
    for (size_t i = 0; i < s->nmeta; i++) {
        free(s->meta[i].key);
        free(s->meta[i].value);
    }
    free(s->meta);
    free(s->points);
    memset(s, 0, sizeof *s);
}

static void chomp(char *line)
{
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
}

/* Split line in place at TABs; returns the field count (<= max). */
static size_t split_tabs(char *line, char **fields, size_t max)
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        if (n < max) fields[n] = p;
        n++;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = 0;
        p = t + 1;
    }
    return n;
}

/* Strict number: the whole field in decimal notation and finite (strtod
 * alone would take "inf", "0x1p3" and "1e400" as inf), or nan/-/empty for
 * missing. */
static int parse_num(const char *s, double *v)
{
    while (*s == ' ') s++;
    if (!*s || strcmp(s, "-") == 0 || strcasecmp(s, "nan") == 0) {
        *v = NAN;
        return 0;
    }
    size_t n = strspn(s, "0123456789.eE+-");
    if (n == 0) return -1;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if ((size_t)(end - s) != n) return -1;
    while (*end == ' ') end++;
    return *end || errno == ERANGE || !isfinite(*v) ? -1 : 0;
}

static int add_meta(sweep *s, size_t *cap, const char *line)
{
    /* "# key<TAB>value": anything else after '#' is a plain comment. */
    const char *p = line + 1;
    while (*p == ' ') p++;
    const char *tab = strchr(p, '\t');
    if (!tab || tab == p) return 0;
    sweep_meta *grown = grow_room(s->meta, s->nmeta, cap, sizeof *grown, 64);
    if (!grown) return -1;
    s->meta = grown;
    sweep_meta *m = s->meta;
    m[s->nmeta].key = strndup(p, (size_t)(tab - p));
    m[s->nmeta].value = strdup(tab + 1);
    if (!m[s->nmeta].key || !m[s->nmeta].value) {
        free(m[s->nmeta].key);
        free(m[s->nmeta].value);
        return -1;
    }
    s->nmeta++;
    return 0;
}

int sweep_parse(FILE *f, const char *name, sweep *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *line = NULL;
    size_t cap = 0, cap_meta = 0;
    long len;
    long lineno = 0;
    int *map = NULL;       /* header position -> column index or MAP_* */
    char **fields = NULL;
    size_t ncols = 0, cap_points = 0;
    int rc = -1;

    while ((len = lines_read(f, &line, &cap, LINES_MAX_BYTES)) >= 0 || len < -1) {
        lineno++;
        if (len == -3) goto oom;
        if (len == -2) {
            set_err(err, errlen, "%s:%ld: a line longer than %u bytes: not a sweep table", name,
                    lineno, LINES_MAX_BYTES);
            goto fail;
        }
        chomp(line);
        if (line[0] == '#') {
            if (out->nmeta == SWEEP_MAX_META) {
                set_err(err, errlen, "%s:%ld: more than %u metadata lines: not a sweep table",
                        name, lineno, SWEEP_MAX_META);
                goto fail;
            }
            if (add_meta(out, &cap_meta, line) != 0) goto oom;
            continue;
        }
        if (line[strspn(line, " \t")] == 0) continue;
        if (!map) {
            ncols = 1;
            for (const char *p = line; *p; p++) ncols += *p == '\t';
            if (ncols > SWEEP_MAX_COLUMNS) {
                set_err(err, errlen, "%s:%ld: more than %u columns: not a sweep table", name,
                        lineno, SWEEP_MAX_COLUMNS);
                goto fail;
            }
            map = malloc(ncols * sizeof *map);
            fields = malloc(ncols * sizeof *fields);
            if (!map || !fields) goto oom;
            split_tabs(line, fields, ncols);
            for (size_t c = 0; c < ncols; c++) {
                map[c] = MAP_IGNORE;
                if (strcmp(fields[c], "log") == 0) map[c] = MAP_LOG;
                for (size_t k = 0; k < NCOL; k++)
                    if (strcmp(fields[c], col_names[k]) == 0) {
                        if (out->has_column[k]) {
                            set_err(err, errlen, "%s:%ld: column %s appears twice in the "
                                    "header row", name, lineno, col_names[k]);
                            goto fail;
                        }
                        map[c] = (int)k;
                        out->has_column[k] = 1;
                    }
            }
            continue;
        }
        size_t n = split_tabs(line, fields, ncols);
        if (n != ncols) {
            set_err(err, errlen, "%s:%ld: %zu fields, but the header row has %zu", name,
                    lineno, n, ncols);
            goto fail;
        }
        if (out->npoints == SWEEP_MAX_POINTS) {
            set_err(err, errlen, "%s:%ld: more than %u points: not a sweep table", name, lineno,
                    SWEEP_MAX_POINTS);
            goto fail;
        }
        sweep_point *grown = grow_room(out->points, out->npoints, &cap_points, sizeof *grown, 16);
        if (!grown) goto oom;
        out->points = grown;
        sweep_point *pt = &out->points[out->npoints];
        for (size_t k = 0; k < NCOL; k++) *(double *)((char *)pt + col_offsets[k]) = NAN;
        pt->log[0] = 0;
        for (size_t c = 0; c < ncols; c++) {
            if (map[c] == MAP_LOG) {
                snprintf(pt->log, sizeof pt->log, "%s", fields[c]);
            } else if (map[c] >= 0) {
                double *v = (double *)((char *)pt + col_offsets[map[c]]);
                if (parse_num(fields[c], v) != 0) {
                    set_err(err, errlen, "%s:%ld: column %s: \"%s\" is not a number", name,
                            lineno, col_names[map[c]], fields[c]);
                    goto fail;
                }
            }
        }
        out->npoints++;
    }
    if (ferror(f)) {
        set_err(err, errlen, "cannot read %s: %s", name, strerror(errno));
        goto fail;
    }
    if (!map) {
        set_err(err, errlen, "%s has no header row (every line is a # comment or blank)", name);
        goto fail;
    }
    rc = 0;
    goto done;
oom:
    set_err(err, errlen, "out of memory reading %s", name);
fail:
    sweep_free(out);
done:
    free(line);
    free(map);
    free(fields);
    return rc;
}

int sweep_read(const char *path, sweep *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = sweep_parse(f, path, out, err, errlen);
    fclose(f);
    return rc;
}

const char *sweep_meta_get(const sweep *s, const char *key)
{
    for (size_t i = s->nmeta; i-- > 0;)
        if (strcmp(s->meta[i].key, key) == 0) return s->meta[i].value;
    return NULL;
}

double sweep_meta_num(const sweep *s, const char *key)
{
    const char *v = sweep_meta_get(s, key);
    double x;
    if (!v || parse_num(v, &x) != 0) return NAN;
    return x;
}

int sweep_has_column(const sweep *s, const char *name)
{
    for (size_t k = 0; k < NCOL; k++)
        if (strcmp(col_names[k], name) == 0) return s->has_column[k];
    return 0;
}

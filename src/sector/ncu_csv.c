/*
 * ncu_csv.c - the Nsight Compute CSV reader of ncu_csv.h.
 *
 * The header row is the first line that is neither blank nor an "==" line.
 * ncu writes its own messages (==PROF== progress, ==WARNING==, ==ERROR==)
 * into the same --log-file, so they are skipped wherever they appear; a
 * line mentioning ERR_NVGPUCTRPERM is remembered, because then the counters
 * were not read and any row present is not to be trusted.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncu_csv.h"
#include "err.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAX_FIELDS 4096

int ncu_parse_number(const char *s, double *out)
{
    if (!s)
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    char buf[128];
    size_t o = 0;
    int digits = 0, seen_point = 0, seen_exp = 0;
    const char *p = s;
    if (*p == '+' || *p == '-')
        buf[o++] = *p++;
    for (; *p && !isspace((unsigned char)*p); p++) {
        if (o + 2 >= sizeof buf)
            return -1;
        if (isdigit((unsigned char)*p)) {
            buf[o++] = *p;
            digits++;
        } else if (*p == ',') {
            /* a thousands separator: only between digits of the integer
             * part, followed by exactly three digits */
            if (!digits || seen_point || seen_exp)
                return -1;
            for (int k = 1; k <= 3; k++)
                if (!isdigit((unsigned char)p[k]))
                    return -1;
            if (isdigit((unsigned char)p[4]))
                return -1;
        } else if (*p == '.' && !seen_point && !seen_exp) {
            buf[o++] = *p;
            seen_point = 1;
        } else if ((*p == 'e' || *p == 'E') && digits && !seen_exp) {
            buf[o++] = *p;
            seen_exp = 1;
            if (p[1] == '+' || p[1] == '-')
                buf[o++] = *++p;
        } else {
            return -1;
        }
    }
    while (isspace((unsigned char)*p))
        p++;
    if (*p || !digits)
        return -1;
    buf[o] = 0;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

double ncu_unit_factor(const char *u)
{
    if (!u || !*u)
        return 1.0;
    size_t n = strlen(u);
    /* a time: second, msecond, usecond, nsecond, psecond (to ns); a rate
     * such as "Gbyte/second" is not a time and falls through to the prefix */
    if (n >= 6 && n <= 7 && strcmp(u + n - 6, "second") == 0) {
        if (n == 6)
            return 1e9;
        switch (u[0]) {
        case 'n': return 1.0;
        case 'u': return 1e3;
        case 'm': return 1e6;
        case 'p': return 1e-3;
        default: return 1.0;
        }
    }
    /* K/M/G/T in front of a lowercase unit word: byte, sector, request, ... */
    if (n >= 2 && islower((unsigned char)u[1])) {
        switch (u[0]) {
        case 'K': return 1e3;
        case 'M': return 1e6;
        case 'G': return 1e9;
        case 'T': return 1e12;
        default: break;
        }
    }
    return 1.0;
}

int ncu_csv_split(char *buf, char **fields, int max)
{
    int n = 0;
    char *r = buf, *w = buf;
    for (;;) {
        char *start = w;
        if (*r == '"') {
            r++;
            for (;;) {
                if (*r == 0)
                    return -1; /* unterminated quote */
                if (*r == '"') {
                    if (r[1] == '"') {
                        *w++ = '"';
                        r += 2;
                        continue;
                    }
                    r++;
                    break;
                }
                *w++ = *r++;
            }
            /* anything between the closing quote and the comma is kept */
            while (*r && *r != ',')
                *w++ = *r++;
        } else {
            while (*r && *r != ',')
                *w++ = *r++;
        }
        int more = *r == ',';
        if (more)
            r++;
        *w++ = 0;
        if (n < max)
            fields[n] = start;
        n++;
        if (!more)
            break;
    }
    return n;
}

void ncu_table_free(ncu_table *t)
{
    if (!t)
        return;
    free(t->launches);
    free(t->values);
    free(t->text);
    free(t->hdr_text);
    free(t->first);
    free(t->last);
    free(t->next);
    memset(t, 0, sizeof *t);
}

const ncu_value *ncu_table_find(const ncu_table *t, size_t launch, const char *metric)
{
    if (launch >= t->nlaunches)
        return NULL;
    for (size_t i = t->first[launch]; i != SIZE_MAX; i = t->next[i])
        if (strcmp(t->values[i].metric, metric) == 0)
            return &t->values[i];
    return NULL;
}

int ncu_table_has_metric(const ncu_table *t, const char *metric)
{
    for (size_t i = 0; i < t->nvalues; i++)
        if (strcmp(t->values[i].metric, metric) == 0)
            return 1;
    return 0;
}

/* The launches seen so far, by (id, kernel): an open-addressing hash of
 * indices, so that a file of a million launches is not a million squared
 * comparisons. */
typedef struct launch_map {
    size_t *slot;   /* index + 1; 0 = empty */
    size_t nslots;  /* a power of two, at least twice the launches */
} launch_map;

static uint64_t launch_hash(long id, const char *kernel)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)id * 0x9e3779b97f4a7c15ull;
    for (const unsigned char *p = (const unsigned char *)kernel; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return h;
}

static int map_put(launch_map *m, const ncu_table *t, size_t idx)
{
    size_t mask = m->nslots - 1;
    size_t i = (size_t)launch_hash(t->launches[idx].id, t->launches[idx].kernel) & mask;
    while (m->slot[i]) i = (i + 1) & mask;
    m->slot[i] = idx + 1;
    return 0;
}

static int map_grow(launch_map *m, const ncu_table *t)
{
    size_t n = m->nslots ? 2 * m->nslots : 64;
    size_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    free(m->slot);
    m->slot = s;
    m->nslots = n;
    for (size_t k = 0; k < t->nlaunches; k++)
        map_put(m, t, k);
    return 0;
}

/* Reallocate the array ARR (a pointer lvalue) to N elements.  The arrays of a
 * table grow in step (launches with first and last, values with next), so
 * each is resized in turn: one that could not be keeps its old block, still
 * owned by the table (ncu_free), and clears OK. */
#define RESIZE(arr, n, ok)                                   \
    do {                                                     \
        void *resized_ = realloc((arr), (n) * sizeof *(arr)); \
        if (resized_)                                        \
            (arr) = resized_;                                \
        else                                                 \
            (ok) = 0;                                        \
    } while (0)

/* Index of the launch (id, kernel), added when new; -1 when out of memory. */
static long launch_index(ncu_table *t, launch_map *m, size_t *cap, long id, char *kernel)
{
    if (m->nslots) {
        size_t mask = m->nslots - 1;
        for (size_t i = (size_t)launch_hash(id, kernel) & mask; m->slot[i]; i = (i + 1) & mask) {
            const ncu_launch *L = &t->launches[m->slot[i] - 1];
            if (L->id == id && strcmp(L->kernel, kernel) == 0)
                return (long)(m->slot[i] - 1);
        }
    }
    if (t->nlaunches == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        int ok = 1;
        RESIZE(t->launches, nc, ok);
        RESIZE(t->first, nc, ok);
        RESIZE(t->last, nc, ok);
        if (!ok)
            return -1;
        *cap = nc;
    }
    size_t k = t->nlaunches++;
    t->launches[k].id = id;
    t->launches[k].kernel = kernel;
    t->first[k] = t->last[k] = SIZE_MAX;
    if (2 * t->nlaunches > m->nslots) {
        if (map_grow(m, t) != 0)
            return -1;
    } else {
        map_put(m, t, k);
    }
    return (long)k;
}

static int add_value(ncu_table *t, size_t *cap, size_t launch, char *metric, char *unit,
                     char *text)
{
    if (t->nvalues == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        int ok = 1;
        RESIZE(t->values, nc, ok);
        RESIZE(t->next, nc, ok);
        if (!ok)
            return -1;
        *cap = nc;
    }
    size_t k = t->nvalues++;
    ncu_value *v = &t->values[k];
    memset(v, 0, sizeof *v);
    v->launch = launch;
    v->metric = metric;
    v->unit = unit;
    v->text = text;
    v->has_value = ncu_parse_number(text, &v->value) == 0;
    t->next[k] = SIZE_MAX;
    if (t->last[launch] == SIZE_MAX)
        t->first[launch] = k;
    else
        t->next[t->last[launch]] = k;
    t->last[launch] = k;
    return 0;
}

/* Columns of the wide layout that describe the launch, not a metric. */
static int is_identity_column(const char *name)
{
    static const char *const ids[] = {
        "ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time",
        "Context", "Stream", "Block Size", "Grid Size", "Device", "CC", "Section Name",
        "Function Name", "Demangled Name", "Mangled Name",
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (strcmp(name, ids[i]) == 0)
            return 1;
    return 0;
}

static int find_col(char **hdr, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(hdr[i], name) == 0)
            return i;
    return -1;
}

/* The state of one parse: the header, its columns, the row being split. */
typedef struct parse_state {
    char **hdr, **f, **units; /* header fields, a row's fields, the units row */
    char *hdr_line;           /* the header's copy, split in place */
    char *no_unit;            /* "" for values without a unit */
    launch_map map;
    int nh;                   /* header fields, -1 before the header */
    int c_id, c_kernel, c_mname, c_munit, c_mval;
    size_t lcap, vcap;
    long lineno;
} parse_state;

/* The header row: its columns, and which layout the table has. */
static int parse_header(parse_state *ps, const char *line, ncu_table *t, char *err,
                        size_t errlen)
{
    ps->hdr_line = strdup(line);
    if (!ps->hdr_line) {
        set_err(err, errlen, "out of memory");
        return NCU_ERR_NOMEM;
    }
    ps->nh = ncu_csv_split(ps->hdr_line, ps->hdr, MAX_FIELDS);
    if (ps->nh < 0 || ps->nh > MAX_FIELDS) {
        set_err(err, errlen, "line %ld: cannot split the header row", ps->lineno);
        return NCU_ERR_FORMAT;
    }
    ps->c_id = find_col(ps->hdr, ps->nh, "ID");
    ps->c_kernel = find_col(ps->hdr, ps->nh, "Kernel Name");
    ps->c_mname = find_col(ps->hdr, ps->nh, "Metric Name");
    ps->c_munit = find_col(ps->hdr, ps->nh, "Metric Unit");
    ps->c_mval = find_col(ps->hdr, ps->nh, "Metric Value");
    if (ps->c_kernel < 0 || ps->c_id < 0) {
        set_err(err, errlen,
                "line %ld is not an Nsight Compute CSV header (no \"ID\" and "
                "\"Kernel Name\" columns): was the file written by ncu --csv?", ps->lineno);
        return NCU_ERR_FORMAT;
    }
    t->wide = !(ps->c_mname >= 0 && ps->c_mval >= 0);
    return NCU_OK;
}

/* The launch ID of a row: a whole number a long holds exactly. */
static int row_id(const parse_state *ps, const char *field, long *id, char *err, size_t errlen)
{
    double idv;
    if (ncu_parse_number(field, &idv)) {
        set_err(err, errlen, "line %ld: launch ID '%s' is not a number", ps->lineno, field);
        return NCU_ERR_FORMAT;
    }
    if (!(idv >= 0 && idv <= NCU_MAX_ID) || idv != (double)(long long)idv) {
        set_err(err, errlen, "line %ld: launch ID '%s' is not a whole number from 0 to 2^53",
                ps->lineno, field);
        return NCU_ERR_FORMAT;
    }
    *id = (long)idv;
    return NCU_OK;
}

/* A row after the header: the units row of the wide layout, or a launch's
 * value (long layout) or values (wide). */
static int parse_row(parse_state *ps, char *line, ncu_table *t, char *err, size_t errlen)
{
    char **f = ps->f;
    int n = ncu_csv_split(line, f, MAX_FIELDS);
    if (n < 0) {
        set_err(err, errlen, "line %ld: unterminated quoted field", ps->lineno);
        return NCU_ERR_FORMAT;
    }
    if (n != ps->nh) {
        set_err(err, errlen, "line %ld has %d fields, the header has %d", ps->lineno, n, ps->nh);
        return NCU_ERR_FORMAT;
    }
    if (t->wide && f[ps->c_id][0] == 0) { /* the units row of --page raw */
        for (int i = 0; i < n; i++)
            ps->units[i] = f[i];
        return NCU_OK;
    }
    long id;
    int rc = row_id(ps, f[ps->c_id], &id, err, errlen);
    if (rc != NCU_OK)
        return rc;
    size_t adding = t->wide ? (size_t)n : 1;
    if (t->nvalues + adding > NCU_MAX_VALUES) {
        set_err(err, errlen, "line %ld: more than %u metric values: not an Nsight Compute "
                "CSV of this toolkit", ps->lineno, NCU_MAX_VALUES);
        return NCU_ERR_FORMAT;
    }
    long li = launch_index(t, &ps->map, &ps->lcap, id, f[ps->c_kernel]);
    if (li < 0) {
        set_err(err, errlen, "out of memory");
        return NCU_ERR_NOMEM;
    }
    if (!t->wide) {
        if (add_value(t, &ps->vcap, (size_t)li, f[ps->c_mname],
                      ps->c_munit >= 0 ? f[ps->c_munit] : ps->no_unit, f[ps->c_mval])) {
            set_err(err, errlen, "out of memory");
            return NCU_ERR_NOMEM;
        }
        return NCU_OK;
    }
    /* the units row points into this buffer's earlier lines, which stay
     * valid: lines are split in place and never moved */
    for (int i = 0; i < n; i++) {
        if (is_identity_column(ps->hdr[i]))
            continue;
        if (add_value(t, &ps->vcap, (size_t)li, ps->hdr[i],
                      ps->units[i] ? ps->units[i] : ps->no_unit, f[i])) {
            set_err(err, errlen, "out of memory");
            return NCU_ERR_NOMEM;
        }
    }
    return NCU_OK;
}

/* Parse buf[0..len), which has room for two more bytes and becomes the
 * table's (or is freed on failure). */
static int parse_owned(char *buf, size_t len, ncu_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    /* buf keeps every string of the table; its last byte is the "" of
     * values without a unit */
    buf[len] = 0;
    buf[len + 1] = 0;
    t->text = buf;
    if (memchr(buf, 0, len)) {
        ncu_table_free(t);
        set_err(err, errlen, "the file holds a NUL byte: not an Nsight Compute CSV");
        return NCU_ERR_FORMAT;
    }
    parse_state ps;
    memset(&ps, 0, sizeof ps);
    ps.no_unit = buf + len + 1;
    ps.nh = -1;
    ps.hdr = malloc(MAX_FIELDS * sizeof *ps.hdr);
    ps.f = malloc(MAX_FIELDS * sizeof *ps.f);
    ps.units = calloc(MAX_FIELDS, sizeof *ps.units);
    if (!ps.hdr || !ps.f || !ps.units) {
        free(ps.hdr), free(ps.f), free(ps.units);
        ncu_table_free(t);
        set_err(err, errlen, "out of memory");
        return NCU_ERR_NOMEM;
    }

    int rc = NCU_OK, perm = 0;
    char first_error[512] = "";
    char *line = buf;
    while (line && *line && rc == NCU_OK) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        ps.lineno++;
        size_t ll = strlen(line);
        if (ll && line[ll - 1] == '\r')
            line[--ll] = 0;
        char *next = nl ? nl + 1 : NULL;

        if (strstr(line, "ERR_NVGPUCTRPERM"))
            perm = 1;
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == 0 || strncmp(s, "==", 2) == 0) {
            if (strncmp(s, "==ERROR==", 9) == 0 && !first_error[0])
                snprintf(first_error, sizeof first_error, "%s", s);
        } else if (ps.nh < 0) {
            rc = parse_header(&ps, line, t, err, errlen);
        } else {
            rc = parse_row(&ps, line, t, err, errlen);
        }
        line = next;
    }

    if (rc == NCU_OK && perm) {
        rc = NCU_ERR_PERM;
        set_err(err, errlen, "%s", NCU_PERM_MESSAGE);
    } else if (rc == NCU_OK && ps.nh < 0) {
        rc = NCU_ERR_FORMAT;
        if (first_error[0])
            set_err(err, errlen, "ncu reported an error and wrote no table: %s", first_error);
        else
            set_err(err, errlen, "no Nsight Compute CSV table in the input "
                                 "(no header row; did ncu profile any kernel?)");
    }
    t->hdr_text = ps.hdr_line;
    free(ps.hdr);
    free(ps.f);
    free(ps.units);
    free(ps.map.slot);
    if (rc != NCU_OK)
        ncu_table_free(t);
    return rc;
}

int ncu_table_parse(const char *text, size_t len, ncu_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (len > NCU_MAX_BYTES) {
        set_err(err, errlen, "larger than %u MiB: not an Nsight Compute CSV of this toolkit",
                NCU_MAX_BYTES >> 20);
        return NCU_ERR_FORMAT;
    }
    char *buf = malloc(len + 2);
    if (!buf) {
        set_err(err, errlen, "out of memory");
        return NCU_ERR_NOMEM;
    }
    memcpy(buf, text, len);
    return parse_owned(buf, len, t, err, errlen);
}

int ncu_table_read(const char *path, ncu_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    gzFile fp = gzopen(path, "rb");   /* a plain file reads as it is */
    if (!fp) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NCU_ERR_IO;
    }
    /* read at most NCU_MAX_BYTES + 1 bytes: one more tells the file is too big */
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap + 2);
    if (!text) {
        gzclose(fp);
        set_err(err, errlen, "out of memory");
        return NCU_ERR_NOMEM;
    }
    for (;;) {
        if (len == cap) {
            if (cap > NCU_MAX_BYTES) {
                free(text);
                gzclose(fp);
                set_err(err, errlen, "%s is larger than %u MiB: not an Nsight Compute CSV of "
                        "this toolkit", path, NCU_MAX_BYTES >> 20);
                return NCU_ERR_FORMAT;
            }
            size_t nc = cap * 2 > NCU_MAX_BYTES ? NCU_MAX_BYTES + 1 : cap * 2;
            char *p = realloc(text, nc + 2);
            if (!p) {
                free(text);
                gzclose(fp);
                set_err(err, errlen, "out of memory reading %s", path);
                return NCU_ERR_NOMEM;
            }
            text = p;
            cap = nc;
        }
        const unsigned want = cap - len > (1u << 30) ? 1u << 30 : (unsigned)(cap - len);
        const int got = gzread(fp, text + len, want);
        if (got < 0) {
            int zerr = 0;
            const char *why = gzerror(fp, &zerr);
            set_err(err, errlen, "cannot read %s: %s", path,
                    zerr == Z_ERRNO ? strerror(errno) : why);
            free(text);
            gzclose(fp);
            return NCU_ERR_IO;
        }
        len += (size_t)got;
        if (got == 0)
            break;
    }
    gzclose(fp);
    return parse_owned(text, len, t, err, errlen);
}

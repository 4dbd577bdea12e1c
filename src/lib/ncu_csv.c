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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    for (size_t i = 0; i < t->nlaunches; i++)
        free(t->launches[i].kernel);
    for (size_t i = 0; i < t->nvalues; i++) {
        free(t->values[i].metric);
        free(t->values[i].unit);
        free(t->values[i].text);
    }
    free(t->launches);
    free(t->values);
    memset(t, 0, sizeof *t);
}

const ncu_value *ncu_table_find(const ncu_table *t, size_t launch, const char *metric)
{
    for (size_t i = 0; i < t->nvalues; i++)
        if (t->values[i].launch == launch && strcmp(t->values[i].metric, metric) == 0)
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

/* Index of the launch (id, kernel), added when new; -1 when out of memory. */
static long launch_index(ncu_table *t, size_t *cap, long id, const char *kernel)
{
    for (size_t k = t->nlaunches; k-- > 0;)
        if (t->launches[k].id == id && strcmp(t->launches[k].kernel, kernel) == 0)
            return (long)k;
    if (t->nlaunches == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        ncu_launch *p = realloc(t->launches, nc * sizeof *p);
        if (!p)
            return -1;
        t->launches = p;
        *cap = nc;
    }
    char *k = strdup(kernel);
    if (!k)
        return -1;
    t->launches[t->nlaunches].id = id;
    t->launches[t->nlaunches].kernel = k;
    return (long)t->nlaunches++;
}

static int add_value(ncu_table *t, size_t *cap, size_t launch, const char *metric,
                     const char *unit, const char *text)
{
    if (t->nvalues == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        ncu_value *p = realloc(t->values, nc * sizeof *p);
        if (!p)
            return -1;
        t->values = p;
        *cap = nc;
    }
    ncu_value *v = &t->values[t->nvalues];
    memset(v, 0, sizeof *v);
    v->launch = launch;
    v->metric = strdup(metric);
    v->unit = strdup(unit ? unit : "");
    v->text = strdup(text);
    if (!v->metric || !v->unit || !v->text) {
        free(v->metric);
        free(v->unit);
        free(v->text);
        return -1;
    }
    v->has_value = ncu_parse_number(text, &v->value) == 0;
    t->nvalues++;
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

int ncu_table_parse(const char *text, size_t len, ncu_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    char *buf = malloc(len + 1);
    char **hdr = malloc(MAX_FIELDS * sizeof *hdr);
    char **f = malloc(MAX_FIELDS * sizeof *f);
    char **units = calloc(MAX_FIELDS, sizeof *units);
    char *hdr_line = NULL;
    if (!buf || !hdr || !f || !units) {
        free(buf), free(hdr), free(f), free(units);
        set_err(err, errlen, "out of memory");
        return NCU_ERR_NOMEM;
    }
    memcpy(buf, text, len);
    buf[len] = 0;

    int rc = NCU_OK, nh = -1, perm = 0;
    int c_id = -1, c_kernel = -1, c_mname = -1, c_munit = -1, c_mval = -1;
    size_t lcap = 0, vcap = 0;
    char first_error[512] = "";
    long lineno = 0;
    char *line = buf;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        lineno++;
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
            line = next;
            continue;
        }

        if (nh < 0) { /* the header row */
            hdr_line = strdup(line);
            if (!hdr_line) {
                rc = NCU_ERR_NOMEM;
                set_err(err, errlen, "out of memory");
                break;
            }
            nh = ncu_csv_split(hdr_line, hdr, MAX_FIELDS);
            if (nh < 0 || nh > MAX_FIELDS) {
                rc = NCU_ERR_FORMAT;
                set_err(err, errlen, "line %ld: cannot split the header row", lineno);
                break;
            }
            c_id = find_col(hdr, nh, "ID");
            c_kernel = find_col(hdr, nh, "Kernel Name");
            c_mname = find_col(hdr, nh, "Metric Name");
            c_munit = find_col(hdr, nh, "Metric Unit");
            c_mval = find_col(hdr, nh, "Metric Value");
            if (c_kernel < 0 || c_id < 0) {
                rc = NCU_ERR_FORMAT;
                set_err(err, errlen,
                        "line %ld is not an Nsight Compute CSV header (no \"ID\" and "
                        "\"Kernel Name\" columns): was the file written by ncu --csv?", lineno);
                break;
            }
            t->wide = !(c_mname >= 0 && c_mval >= 0);
            line = next;
            continue;
        }

        int n = ncu_csv_split(line, f, MAX_FIELDS);
        if (n < 0) {
            rc = NCU_ERR_FORMAT;
            set_err(err, errlen, "line %ld: unterminated quoted field", lineno);
            break;
        }
        if (n != nh) {
            rc = NCU_ERR_FORMAT;
            set_err(err, errlen, "line %ld has %d fields, the header has %d", lineno, n, nh);
            break;
        }
        if (t->wide && f[c_id][0] == 0) { /* the units row of --page raw */
            for (int i = 0; i < n; i++)
                units[i] = f[i];
            line = next;
            continue;
        }
        double idv;
        if (ncu_parse_number(f[c_id], &idv)) {
            rc = NCU_ERR_FORMAT;
            set_err(err, errlen, "line %ld: launch ID '%s' is not a number", lineno, f[c_id]);
            break;
        }
        long li = launch_index(t, &lcap, (long)idv, f[c_kernel]);
        if (li < 0) {
            rc = NCU_ERR_NOMEM;
            set_err(err, errlen, "out of memory");
            break;
        }
        if (!t->wide) {
            if (add_value(t, &vcap, (size_t)li, f[c_mname], c_munit >= 0 ? f[c_munit] : "",
                          f[c_mval])) {
                rc = NCU_ERR_NOMEM;
                set_err(err, errlen, "out of memory");
                break;
            }
        } else {
            for (int i = 0; i < n && rc == NCU_OK; i++) {
                if (is_identity_column(hdr[i]))
                    continue;
                if (add_value(t, &vcap, (size_t)li, hdr[i], units[i] ? units[i] : "", f[i])) {
                    rc = NCU_ERR_NOMEM;
                    set_err(err, errlen, "out of memory");
                }
            }
            if (rc != NCU_OK)
                break;
            /* the units row points into this buffer's earlier lines, which
             * stay valid: lines are split in place and never moved */
        }
        line = next;
    }

    if (rc == NCU_OK && perm) {
        rc = NCU_ERR_PERM;
        set_err(err, errlen, "%s", NCU_PERM_MESSAGE);
    } else if (rc == NCU_OK && nh < 0) {
        rc = NCU_ERR_FORMAT;
        if (first_error[0])
            set_err(err, errlen, "ncu reported an error and wrote no table: %s", first_error);
        else
            set_err(err, errlen, "no Nsight Compute CSV table in the input "
                                 "(no header row; did ncu profile any kernel?)");
    }
    free(buf);
    free(hdr_line);
    free(hdr);
    free(f);
    free(units);
    if (rc != NCU_OK)
        ncu_table_free(t);
    return rc;
}

int ncu_table_read(const char *path, ncu_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NCU_ERR_IO;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    if (!text) {
        fclose(fp);
        set_err(err, errlen, "out of memory");
        return NCU_ERR_NOMEM;
    }
    for (;;) {
        if (len == cap) {
            char *p = realloc(text, cap * 2);
            if (!p) {
                free(text);
                fclose(fp);
                set_err(err, errlen, "out of memory reading %s", path);
                return NCU_ERR_NOMEM;
            }
            text = p;
            cap *= 2;
        }
        size_t got = fread(text + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(text);
        set_err(err, errlen, "cannot read %s", path);
        return NCU_ERR_IO;
    }
    int rc = ncu_table_parse(text, len, t, err, errlen);
    free(text);
    return rc;
}

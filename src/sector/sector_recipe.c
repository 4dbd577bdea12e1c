/*
 * sector_recipe.c - sector_recipe.h: the family's ncu runs, filled in.
 * The templates are the families' data (src/families/NAME/model.c); the
 * script only loops over the rows, so that no family is named in bash.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_recipe.h"
#include "err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *sf_ncu_output_name(sf_ncu_output o)
{
    switch (o) {
    case SF_NCU_SECTORS: return "sectors";
    case SF_NCU_L2_FETCH: return "l2_fetch";
    case SF_NCU_POOL: return "pool";
    default: return "?";
    }
}

/* Append n bytes of s to out[*used]; 0, or -1 when it does not fit. */
static int put(char *out, size_t len, size_t *used, const char *s, size_t n)
{
    if (*used + n + 1 > len)
        return -1;
    memcpy(out + *used, s, n);
    *used += n;
    out[*used] = 0;
    return 0;
}

int sf_recipe_expand(const char *tmpl, const char *n, unsigned wpb, const char *variants,
                     char *out, size_t len, char *err, size_t errlen)
{
    size_t used = 0;
    char w[16];
    snprintf(w, sizeof w, "%u", wpb);
    if (!len) {
        set_err(err, errlen, "no room for the recipe's text");
        return -1;
    }
    out[0] = 0;
    for (const char *p = tmpl; *p;) {
        int rc = 0;
        if (*p != '{') {
            const char *b = strchr(p, '{');
            const size_t k = b ? (size_t)(b - p) : strlen(p);
            rc = put(out, len, &used, p, k);
            p += k;
        } else if (!strncmp(p, "{N}", 3)) {
            rc = put(out, len, &used, n, strlen(n));
            p += 3;
        } else if (!strncmp(p, "{WPB}", 5)) {
            rc = put(out, len, &used, w, strlen(w));
            p += 5;
        } else if (!strncmp(p, "{V", 2) && (p[2] == '}' || p[2] == '|' || p[2] == '-')) {
            /* {V} {V|} {V-SUF} {V|-SUF}: the variants, less those whose
             * name ends in SUF (a quick run's shorter list) */
            const int bar = p[2] == '|';
            const char *q = p + 2 + bar, *close = strchr(p, '}');
            if (!close || (*q != '}' && (*q != '-' || q + 1 == close))) {
                set_err(err, errlen, "the recipe's template '%s' has an unknown field at '%.8s'",
                        tmpl, p);
                return -1;
            }
            const char *suf = *q == '-' ? q + 1 : close;
            const size_t sl = (size_t)(close - suf);
            int first = 1;
            for (const char *v = variants; *v && rc == 0;) {
                const char *e = strchr(v, ',');
                const size_t k = e ? (size_t)(e - v) : strlen(v);
                if (!(sl && k >= sl && !strncmp(v + k - sl, suf, sl))) {
                    if (!first)
                        rc = put(out, len, &used, bar ? "|" : ",", 1);
                    if (rc == 0)
                        rc = put(out, len, &used, v, k);
                    first = 0;
                }
                v += k + (e != NULL);
            }
            p = close + 1;
        } else {
            set_err(err, errlen, "the recipe's template '%s' has an unknown field at '%.8s'",
                    tmpl, p);
            return -1;
        }
        if (rc) {
            set_err(err, errlen, "the recipe's text '%s' does not fit in %zu bytes", tmpl, len);
            return -1;
        }
    }
    return 0;
}

/* 1 when name is the first field of a line of have. */
static int lists(const char *have, const char *name)
{
    const size_t n = strlen(name);
    for (const char *line = have; line && *line;) {
        if (!strncmp(line, name, n) &&
            (line[n] == '\t' || line[n] == '\n' || line[n] == '\r' || line[n] == 0))
            return 1;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return 0;
}

/* Append name to the comma-separated list; 0 or -1 when full. */
static int add(char *list, size_t len, const char *name, size_t n)
{
    size_t used = strlen(list);
    if (used && put(list, len, &used, ",", 1))
        return -1;
    return put(list, len, &used, name, n);
}

int sf_recipe_variants(const struct fam_model *m, const char *have, char *out, size_t len,
                       char *missing, size_t mlen, char *unmodelled, size_t ulen, char *err,
                       size_t errlen)
{
    int count = 0;
    if (!len || !mlen || !ulen) {
        set_err(err, errlen, "no room for the variants");
        return -1;
    }
    out[0] = missing[0] = unmodelled[0] = 0;
    for (size_t i = 0; i < m->nvariants; i++) {
        const char *v = m->variants[i].name;
        const int in = !have || lists(have, v);
        if (add(in ? out : missing, in ? len : mlen, v, strlen(v)))
            goto full;
        count += in;
    }
    for (const char *line = have; line && *line;) {
        const size_t k = strcspn(line, "\t\r\n");
        int known = 0;
        for (size_t i = 0; i < m->nvariants && !known; i++)
            known = strlen(m->variants[i].name) == k && !strncmp(m->variants[i].name, line, k);
        if (k && !known && add(unmodelled, ulen, line, k))
            goto full;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return count;
full:
    set_err(err, errlen, "the list of %s's variants is longer than its buffer", m->name);
    return -1;
}

/* Append re to the union of the kernel regexes, "(A)|(B)", unless it is
 * in it already; 0, or -1 when it does not fit. */
static int union_add(char *u, size_t len, const char *re)
{
    char part[4200];
    snprintf(part, sizeof part, "(%s)", re);
    for (const char *p = strstr(u, part); p; p = strstr(p + 1, part))
        if ((p == u || p[-1] == '|') && (p[strlen(part)] == 0 || p[strlen(part)] == '|'))
            return 0;
    size_t used = strlen(u);
    if (used && put(u, len, &used, "|", 1))
        return -1;
    return put(u, len, &used, part, strlen(part));
}

int sf_recipe_write(FILE *f, FILE *batch, const struct fam_model *m, int quick, const char *n,
                    unsigned wpb, const char *variants, const char *l2_fetch, char *err,
                    size_t errlen)
{
    char args[4096], kernel[4096], all[8192] = "";
    for (size_t i = 0; i < m->nncu; i++) {   /* the one process's kernels: every run's */
        if (!SF_NCU_IN(&m->ncu[i], quick))
            continue;
        if (sf_recipe_expand(m->ncu[i].kernel, n, wpb, variants, kernel, sizeof kernel, err, errlen))
            return -1;
        if (union_add(all, sizeof all, kernel)) {
            set_err(err, errlen, "the kernel regexes of %s's recipe do not fit in %zu bytes",
                    m->name, sizeof all);
            return -1;
        }
    }
    fprintf(f, "# kernel_regex\t%s\n", all);
    fprintf(f, "run\targs\tkernel\tl2_fetch\tcompare\toutput\tline\n");
    long line = 0;
    for (size_t i = 0; i < m->nncu; i++) {
        const sf_ncu_run *r = &m->ncu[i];
        if (!SF_NCU_IN(r, quick))
            continue;
        if (sf_recipe_expand(r->args, n, wpb, variants, args, sizeof args, err, errlen) ||
            sf_recipe_expand(r->kernel, n, wpb, variants, kernel, sizeof kernel, err, errlen))
            return -1;
        fprintf(f, "%s\t%s\t%s\t", r->run, args, kernel);
        if (r->l2_fetch < 0)
            fputs("-", f);
        else
            fprintf(f, "%d", r->l2_fetch);
        fprintf(f, "\t%s\t%s\t%ld\n", r->compare, sf_ncu_output_name(r->output), ++line);
        if (!batch)
            continue;
        /* the run's limit on its own line (the engine puts the driver's back
         * for a line without one) */
        if (r->l2_fetch > 0)
            fprintf(batch, "%s --l2-fetch %d\n", args, r->l2_fetch);
        else if (r->l2_fetch < 0 && l2_fetch && *l2_fetch)
            fprintf(batch, "%s --l2-fetch %s\n", args, l2_fetch);
        else
            fprintf(batch, "%s\n", args);
    }
    if (ferror(f) || (batch && ferror(batch))) {
        set_err(err, errlen, "cannot write the recipe");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ ncu's metric list */

/* ncu --query-metrics prints a few MB; the file is read whole, so its size
 * is bounded (a path like /dev/zero never ends). */
#define MAX_QUERY_BYTES (64 << 20)

char *sf_query_read_stream(FILE *fp, const char *name, size_t *len, char *err, size_t errlen)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 4096 > cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0)
            break;
        if (n > MAX_QUERY_BYTES) {   /* /dev/zero, or not ncu's output */
            free(buf);
            snprintf(err, errlen, "%s is larger than %d MiB: not the output of ncu --query-metrics",
                     name, MAX_QUERY_BYTES >> 20);
            return NULL;
        }
    }
    if (!buf || ferror(fp)) {
        free(buf);
        snprintf(err, errlen, "cannot read %s", name);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

char *sf_query_read(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    char *q = sf_query_read_stream(fp, path, len, err, errlen);
    fclose(fp);
    return q;
}

/* 1 when some line of q starts (after blanks) with base followed by a blank or the end. */
int sf_query_has(const char *q, const char *base, size_t blen)
{
    for (const char *line = q; line && *line;) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!strncmp(p, base, blen) && (p[blen] == 0 || p[blen] == ' ' || p[blen] == '\t' ||
                                        p[blen] == '\n' || p[blen] == '\r'))
            return 1;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return 0;
}

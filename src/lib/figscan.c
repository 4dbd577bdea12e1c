/*
 * figscan.c - figures of the docs and their annotations (see figscan.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "figscan.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int decimals(const char *num)
{
    const char *dot = strchr(num, '.');
    return dot ? (int)strlen(dot + 1) : 0;
}

int figscan_agrees(const char *q, double v, double tol_pct, char *shown, size_t len)
{
    const double qv = strtod(q, NULL);
    const int d = decimals(q);
    snprintf(shown, len, "%.*f", d, v);
    if (tol_pct > 0) return fabs(qv - v) <= fabs(v) * tol_pct / 100 + 0.5 * pow(10, -d);
    /* rounded to d decimals: within half a unit of the last digit (a tie
     * rounds either way) */
    return fabs(qv - v) <= 0.5 * pow(10, -d) * (1 + 1e-9) + 1e-12;
}

static const char *const UNITS[] = {"cycles", "cycle", "ns", "us", "\xc2\xb5s", "ms", "GB/s", "TB/s",
                                    "MB/s", "%", "MHz", "GHz", NULL};

/* A unit of measurement right after position p (a space or '-' allowed
 * first); its length, or 0. */
static size_t unit_at(const char *p)
{
    const char *s = p;
    if (*s == ' ' || *s == '-') s++;
    for (int i = 0; UNITS[i]; i++) {
        const size_t l = strlen(UNITS[i]);
        if (!strncmp(s, UNITS[i], l) && !isalnum((unsigned char)s[l])) return (size_t)(s - p) + l;
    }
    /* "2.4x" (not "2x4", not "0x1f") */
    if (*p == 'x' && !isalnum((unsigned char)p[1])) return 1;
    return 0;
}

int figscan_line(const char *line, figscan_item *it, int max)
{
    int n = 0;
    const size_t L = strlen(line);
    for (size_t i = 0; i < L && n < max;) {
        if (!strncmp(line + i, "<!--", 4)) {
            const char *e = strstr(line + i + 4, "-->");
            if (!e) return -1;
            it[n].is_comment = 1;
            it[n].pos = i;
            it[n].end = (size_t)(e - line) + 3;
            snprintf(it[n].text, sizeof it[n].text, "%.*s", (int)(e - line - i - 4), line + i + 4);
            n++;
            i = (size_t)(e - line) + 3;
            continue;
        }
        if (line[i] == '`') { /* a code span: not prose */
            const char *e = strchr(line + i + 1, '`');
            i = e ? (size_t)(e - line) + 1 : L;
            continue;
        }
        if (line[i] == ']' && line[i + 1] == '(') { /* a link target */
            const char *e = strchr(line + i, ')');
            i = e ? (size_t)(e - line) + 1 : L;
            continue;
        }
        const int prev_alnum = i > 0 && (isalnum((unsigned char)line[i - 1]) || line[i - 1] == '_' || line[i - 1] == '.');
        const int xprefix = i >= 1 && line[i - 1] == 'x' && (i == 1 || !isalnum((unsigned char)line[i - 2]));
        if (isdigit((unsigned char)line[i]) && (!prev_alnum || xprefix)) {
            size_t s = i;
            if (s > 0 && line[s - 1] == '-' && (s == 1 || line[s - 2] == ' ' || line[s - 2] == '(' || line[s - 2] == '|'))
                s--; /* a negative figure */
            size_t e = i;
            while (isdigit((unsigned char)line[e])) e++;
            if (line[e] == '.' && isdigit((unsigned char)line[e + 1])) {
                e++;
                while (isdigit((unsigned char)line[e])) e++;
            }
            /* a number glued to letters (1e8, 2nd, 64B) or more dots (1.2.3) is not a figure */
            const size_t u = unit_at(line + e);
            if ((isalpha((unsigned char)line[e]) && !u) || (line[e] == '.' && isdigit((unsigned char)line[e + 1]))) {
                while (isalnum((unsigned char)line[e]) || line[e] == '.') e++;
                i = e;
                continue;
            }
            it[n].is_comment = 0;
            it[n].pos = s;
            it[n].end = e;
            snprintf(it[n].text, sizeof it[n].text, "%.*s", (int)(e - s), line + s);
            it[n].needs = u > 0 || xprefix;
            n++;
            i = e + u;
            continue;
        }
        i++;
    }
    return n;
}

int figscan_parse_term(const char *tok, figscan_term *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    char body[1024];
    snprintf(body, sizeof body, "%s", tok);
    static const char *const FNS[] = {"max", "min", "count"};
    for (size_t i = 0; i < sizeof FNS / sizeof FNS[0]; i++) {
        const size_t fl = strlen(FNS[i]);
        if (strncmp(body, FNS[i], fl) || body[fl] != '(') continue;
        const size_t l = strlen(body);
        if (body[l - 1] != ')') { snprintf(err, errlen, "'%s': no closing parenthesis", tok); return -1; }
        body[l - 1] = 0;
        snprintf(t->fn, sizeof t->fn, "%s", FNS[i]);
        memmove(body, body + fl + 1, strlen(body + fl + 1) + 1);
    }
    /* FILE then one of : @ # */
    char *sep = strpbrk(body, ":@#");
    if (!sep) { snprintf(err, errlen, "'%s' is neither a number nor FILE:COLUMN, FILE#KEY, FILE@...", tok); return -1; }
    snprintf(t->file, sizeof t->file, "%.*s", (int)(sep - body), body);
    t->kind = *sep;
    char *rest = sep + 1;
    if (t->kind == '#') {
        snprintf(t->col, sizeof t->col, "%s", rest);
        return 0;
    }
    if (t->kind == '@') {
        char *colon = strchr(rest, ':');
        if (!colon) { snprintf(err, errlen, "'%s': expected @stats:FIELD, @header:KEY or @levels:COL[level=NAME]", tok); return -1; }
        snprintf(t->what, sizeof t->what, "%.*s", (int)(colon - rest), rest);
        snprintf(t->col, sizeof t->col, "%s", colon + 1);
        return 0;
    }
    const char *br = strchr(rest, '[');
    if (br) {
        const char *cl = strrchr(rest, ']');
        if (!cl || cl < br) { snprintf(err, errlen, "'%s': no closing ]", tok); return -1; }
        snprintf(t->col, sizeof t->col, "%.*s", (int)(br - rest), rest);
        snprintf(t->sel, sizeof t->sel, "%.*s", (int)(cl - br - 1), br + 1);
    } else {
        snprintf(t->col, sizeof t->col, "%s", rest);
    }
    return 0;
}

int figscan_eval(const char *expr, figscan_lookup_fn lookup, void *ctx, double *v, double *tol_pct,
                 char *err, size_t errlen)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", expr);
    char *save = NULL;
    char op = 0;
    int have = 0;
    *tol_pct = 0;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (tok[0] == '~') {
            char *end;
            *tol_pct = strtod(tok + 1, &end);
            if (end == tok + 1 || strcmp(end, "%")) { snprintf(err, errlen, "'%s' is not ~P%%", tok); return -1; }
            continue;
        }
        if (strlen(tok) == 1 && strchr("+-*/", tok[0])) {
            if (!have || op) { snprintf(err, errlen, "operator '%s' out of place", tok); return -1; }
            op = tok[0];
            continue;
        }
        double x;
        char *end;
        x = strtod(tok, &end);
        if (!(end != tok && *end == 0 && isfinite(x)) && lookup(tok, &x, ctx, err, errlen) != 0) return -1;
        if (!have) { *v = x; have = 1; }
        else if (!op) { snprintf(err, errlen, "two terms without an operator before '%s'", tok); return -1; }
        else {
            *v = op == '+' ? *v + x : op == '-' ? *v - x : op == '*' ? *v * x : *v / x;
            op = 0;
        }
    }
    if (!have || op) { snprintf(err, errlen, "incomplete expression"); return -1; }
    return 0;
}


/* cli.c - see cli.h. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "outfile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Strip a binary suffix (K, M, G, T, optionally followed by "iB" or "B", any
 * case) from buf; returns the multiplier (1 when there is none). */
static uint64_t strip_suffix(char *buf)
{
    size_t len = strlen(buf);
    if (len >= 3 && toupper((unsigned char)buf[len - 2]) == 'I' &&
        toupper((unsigned char)buf[len - 1]) == 'B')
        len -= 2;
    else if (len >= 2 && toupper((unsigned char)buf[len - 1]) == 'B' &&
             strchr("KMGTkmgt", buf[len - 2]))
        len -= 1;
    if (len == 0) return 1;
    uint64_t mult = 1;
    switch (toupper((unsigned char)buf[len - 1])) {
    case 'K': mult = 1ull << 10; break;
    case 'M': mult = 1ull << 20; break;
    case 'G': mult = 1ull << 30; break;
    case 'T': mult = 1ull << 40; break;
    default: return 1;
    }
    buf[len - 1] = 0;
    return mult;
}

/* Parse into *out without range checks other than "a non-negative integer". */
static int parse_u64(const char *name, const char *s, uint64_t *out, char *err, size_t errlen)
{
    if (!s || !*s) return fail(err, errlen, "%s is empty: expected a number", name);
    const char *p = s;
    while (*p == ' ') p++;
    if (*p == '-') return fail(err, errlen, "%s must not be negative (got \"%s\")", name, s);
    if (*p == '+') p++;
    if ((*p < '0' || *p > '9') && *p != '.')
        return fail(err, errlen, "%s is not a number: \"%s\"", name, s);
    char buf[64];
    size_t len = strlen(p);
    if (len >= sizeof buf) return fail(err, errlen, "%s is too long: \"%s\"", name, s);
    memcpy(buf, p, len + 1);
    const uint64_t mult = strip_suffix(buf);
    len = strlen(buf);

    int plain = len > 0;
    for (size_t i = 0; i < len; i++) plain &= buf[i] >= '0' && buf[i] <= '9';
    if (plain) {
        errno = 0;
        char *end = NULL;
        unsigned long long v = strtoull(buf, &end, 10);
        if (errno == ERANGE || *end) return fail(err, errlen, "%s is too large: \"%s\"", name, s);
        if (v > UINT64_MAX / mult) return fail(err, errlen, "%s is too large: \"%s\"", name, s);
        *out = (uint64_t)v * mult;
        return 0;
    }
    /* scientific / decimal notation: must denote an integer exactly */
    for (size_t i = 0; i < len; i++)
        if (!strchr("0123456789.eE+-", buf[i]))
            return fail(err, errlen, "%s is not a number: \"%s\"", name, s);
    errno = 0;
    char *end = NULL;
    long double v = strtold(buf, &end);
    if (end == buf || *end) return fail(err, errlen, "%s is not a number: \"%s\"", name, s);
    if (errno == ERANGE && v != 0) return fail(err, errlen, "%s is too large: \"%s\"", name, s);
    if (!(v * mult < 18446744073709551616.0L))
        return fail(err, errlen, "%s is too large: \"%s\"", name, s);
    v *= mult;
    if (v < 0) return fail(err, errlen, "%s must not be negative (got \"%s\")", name, s);
    if (v != floorl(v)) return fail(err, errlen, "%s must be a whole number (got \"%s\")", name, s);
    *out = (uint64_t)v;
    return 0;
}

int cli_parse_count(const char *name, const char *s, uint64_t max, uint64_t *out,
                    char *err, size_t errlen)
{
    uint64_t v;
    if (parse_u64(name, s, &v, err, errlen) != 0) return -1;
    if (v == 0) return fail(err, errlen, "%s must be at least 1 (got \"%s\")", name, s);
    if (v > max)
        return fail(err, errlen, "%s is too large: %s > %llu", name, s, (unsigned long long)max);
    *out = v;
    return 0;
}

int cli_parse_range(const char *name, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
                    char *err, size_t errlen)
{
    uint64_t v;
    if (parse_u64(name, s, &v, err, errlen) != 0) return -1;
    if (v < lo || v > hi)
        return fail(err, errlen, "%s must be between %llu and %llu (got \"%s\")", name,
                    (unsigned long long)lo, (unsigned long long)hi, s);
    *out = v;
    return 0;
}

int cli_parse_int(const char *name, const char *s, int64_t lo, int64_t hi, int64_t *out,
                  char *err, size_t errlen)
{
    if (!s || !*s) return fail(err, errlen, "%s is empty: expected a number", name);
    const char *p = s + (*s == '-' || *s == '+');
    if (!*p) return fail(err, errlen, "%s is not a number: \"%s\"", name, s);
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9') return fail(err, errlen, "%s is not a whole number: \"%s\"", name, s);
    errno = 0;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (errno == ERANGE || *end || v < lo || v > hi)
        return fail(err, errlen, "%s must be between %lld and %lld (got \"%s\")", name,
                    (long long)lo, (long long)hi, s);
    *out = v;
    return 0;
}

int cli_parse_double(const char *name, const char *s, double lo, double hi, double *out,
                     char *err, size_t errlen)
{
    if (!s || !*s) return fail(err, errlen, "%s is empty: expected a number", name);
    /* strtod also reads "inf", "nan", hex floats and leading blanks: refuse
     * anything but decimal notation */
    for (const char *q = s; *q; q++)
        if (!strchr("0123456789.eE+-", *q))
            return fail(err, errlen, "%s is not a number: \"%s\"", name, s);
    errno = 0;
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s || *end) return fail(err, errlen, "%s is not a number: \"%s\"", name, s);
    if (errno == ERANGE && fabs(v) > 1.0)
        return fail(err, errlen, "%s is too large: \"%s\"", name, s);
    if (!isfinite(v)) return fail(err, errlen, "%s is not a finite number: \"%s\"", name, s);
    if (errno == ERANGE) v = 0; /* underflow: a denormal or less reads as 0 */
    if (v < lo || v > hi)
        return fail(err, errlen, "%s must be between %g and %g (got \"%s\")", name, lo, hi, s);
    *out = v;
    return 0;
}

int cli_parse_list(const char *name, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
                   size_t max, size_t *n, char *err, size_t errlen)
{
    if (!s || !*s) return fail(err, errlen, "%s is empty: expected a list such as 1,2,4", name);
    char buf[512];
    if (strlen(s) >= sizeof buf) return fail(err, errlen, "%s is too long", name);
    snprintf(buf, sizeof buf, "%s", s);
    size_t k = 0;
    char *save = NULL;
    if (buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,"))
        return fail(err, errlen, "%s has an empty item: \"%s\"", name, s);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        uint64_t a, b;
        char *dash = strchr(tok + 1, '-'); /* tok[0] may be a sign, refused below */
        if (dash) {
            *dash = 0;
            if (cli_parse_range(name, tok, lo, hi, &a, err, errlen) != 0 ||
                cli_parse_range(name, dash + 1, lo, hi, &b, err, errlen) != 0)
                return -1;
            if (a > b) return fail(err, errlen, "%s: range %s-%s runs backwards", name, tok, dash + 1);
        } else {
            if (cli_parse_range(name, tok, lo, hi, &a, err, errlen) != 0) return -1;
            b = a;
        }
        for (uint64_t v = a;; v++) {
            if (k == max) return fail(err, errlen, "%s has more than %zu values", name, max);
            /* a value twice would run one configuration twice, and its
             * second run would overwrite the first one's log */
            for (size_t j = 0; j < k; j++)
                if (out[j] == v)
                    return fail(err, errlen, "%s lists %llu twice", name, (unsigned long long)v);
            out[k++] = v;
            if (v == b) break;
        }
    }
    *n = k;
    return 0;
}

int cli_check_smem(uint32_t smem_bytes, uint32_t optin_bytes, uint32_t per_sm_bytes,
                   uint32_t reserved_bytes, const char *device, char *err, size_t errlen)
{
    if (smem_bytes <= optin_bytes) return 0;
    return fail(err, errlen,
                "SMEM %u bytes is more than %s allows a block (%u bytes with opt-in; %u per SM, "
                "of which the runtime reserves %u per block)",
                smem_bytes, device, optin_bytes, per_sm_bytes, reserved_bytes);
}

/* ------------------------------------------------------------ options */

int cli_command_start(const char *prog, int argc, char **argv, void (*usage)(FILE *f))
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(stdout);
        return outfile_check_stdout(prog);
    }
    return -1;
}

int cli_main_parse(const char *prog, int argc, char **argv, const cli_opt *opts, int maxpos,
                   const char *usage_text, int with_options, cli_parse_result *r)
{
    const cli_opt *tables[1] = {opts};
    const int rc = cli_parse(prog, argc, argv, tables, 1, maxpos, r);
    if (rc) return rc;
    if (!r->help) return -1;
    fputs(usage_text, stdout);
    if (with_options) cli_print_options(stdout, opts);
    return outfile_check_stdout(prog);
}

int cli_tool_parse(const char *prog, int argc, char **argv, const cli_opt *opts, int maxpos,
                   void (*usage)(FILE *f, const cli_opt *opts), cli_parse_result *r)
{
    const cli_opt *tables[1] = {opts};
    const int rc = cli_parse(prog, argc, argv, tables, 1, maxpos, r);
    if (rc) return rc;
    if (!r->help) return -1;
    usage(stdout, opts);
    return outfile_check_stdout(prog);
}

int cli_usage_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help'.\n", prog);
    return 2;
}

static const cli_opt *find_long(const cli_opt *const *tables, size_t nt, const char *name, size_t len)
{
    for (size_t t = 0; t < nt; t++)
        for (const cli_opt *o = tables[t]; o && o->name; o++)
            if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) return o;
    return NULL;
}

static const cli_opt *find_short(const cli_opt *const *tables, size_t nt, char c)
{
    for (size_t t = 0; t < nt; t++)
        for (const cli_opt *o = tables[t]; o && o->name; o++)
            if (o->short_name && o->short_name == c) return o;
    return NULL;
}

/* "-5", "-.5": a negative number, not an option */
static int looks_negative(const char *a)
{
    return a[0] == '-' && (isdigit((unsigned char)a[1]) || (a[1] == '.' && isdigit((unsigned char)a[2])));
}

/* v is one of o->choices: 0, or -1 with "--width must be one of 4, 8, 16 (got 5)". */
static int check_allowed(const cli_opt *o, uint64_t v, char *err, size_t errlen)
{
    char num[24];
    snprintf(num, sizeof num, "%llu", (unsigned long long)v);
    for (size_t i = 0; o->choices[i]; i++)
        if (!strcmp(o->choices[i], num)) return 0;
    int k = snprintf(err, errlen, "%s must be one of ", o->name);
    for (size_t i = 0; o->choices[i] && k > 0 && (size_t)k < errlen; i++)
        k += snprintf(err + k, errlen - (size_t)k, "%s%s", i ? ", " : "", o->choices[i]);
    if (k > 0 && (size_t)k < errlen) snprintf(err + k, errlen - (size_t)k, " (got %s)", num);
    return -1;
}

static int store(const char *prog, const cli_opt *o, const char *val)
{
    char err[256];
    int rc = 0;
    switch (o->kind) {
    case CLI_FLAG: *(int *)o->dest = o->lo ? (int)o->lo : 1; break;
    case CLI_U64:
        rc = cli_parse_range(o->name, val, o->lo, o->hi, (uint64_t *)o->dest, err, sizeof err);
        if (rc == 0 && o->choices) rc = check_allowed(o, *(uint64_t *)o->dest, err, sizeof err);
        break;
    case CLI_COUNT: rc = cli_parse_count(o->name, val, o->hi, (uint64_t *)o->dest, err, sizeof err); break;
    case CLI_DOUBLE: rc = cli_parse_double(o->name, val, o->dlo, o->dhi, (double *)o->dest, err, sizeof err); break;
    case CLI_STRING:
        if (!*val) { snprintf(err, sizeof err, "%s needs a non-empty value", o->name); rc = -1; }
        else *(const char **)o->dest = val;
        break;
    case CLI_LIST: {
        cli_list *l = (cli_list *)o->dest;
        rc = cli_parse_list(o->name, val, o->lo, o->hi, l->v, CLI_LIST_MAX, &l->n, err, sizeof err);
        for (size_t i = 0; rc == 0 && o->choices && i < l->n; i++)
            rc = check_allowed(o, l->v[i], err, sizeof err);
        break;
    }
    case CLI_STRINGS: {
        cli_strings *l = (cli_strings *)o->dest;
        const size_t most = o->hi && o->hi < CLI_LIST_MAX ? (size_t)o->hi : CLI_LIST_MAX;
        if (!*val) { snprintf(err, sizeof err, "%s needs a non-empty value", o->name); rc = -1; }
        else if (l->n == most) { snprintf(err, sizeof err, "%s: at most %zu of them", o->name, most); rc = -1; }
        else l->v[l->n++] = val;
        break;
    }
    case CLI_CHOICE: {
        int found = -1;
        for (int i = 0; o->choices && o->choices[i]; i++)
            if (strcmp(val, o->choices[i]) == 0) found = i;
        if (found < 0) {
            size_t k = (size_t)snprintf(err, sizeof err, "%s: unknown value '%s' (one of", o->name, val);
            for (int i = 0; o->choices && o->choices[i] && k < sizeof err; i++)
                k += (size_t)snprintf(err + k, sizeof err - k, " %s", o->choices[i]);
            if (k < sizeof err) snprintf(err + k, sizeof err - k, ")");
            rc = -1;
        } else {
            *(int *)o->dest = found;
        }
        break;
    }
    }
    if (rc != 0) return cli_usage_error(prog, "%s", err);
    if (o->given) *o->given = 1;
    return 0;
}

int cli_parse(const char *prog, int argc, char **argv, const cli_opt *const *tables,
              size_t ntables, int maxpos, cli_parse_result *r)
{
    memset(r, 0, sizeof *r);
    int only_pos = 0;
    if (maxpos > (int)(sizeof r->pos / sizeof r->pos[0])) maxpos = (int)(sizeof r->pos / sizeof r->pos[0]);
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!only_pos && strcmp(a, "--") == 0) { only_pos = 1; continue; }
        if (only_pos || a[0] != '-' || a[1] == 0 || looks_negative(a)) {
            if (maxpos == 0) return cli_usage_error(prog, "unexpected argument '%s'", a);
            if (r->npos == maxpos) return cli_usage_error(prog, "too many arguments (from '%s')", a);
            r->pos[r->npos++] = a;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { r->help = 1; continue; }
        const cli_opt *o;
        const char *val = NULL;
        if (a[1] == '-') {
            const char *eq = strchr(a, '=');
            size_t len = eq ? (size_t)(eq - a) : strlen(a);
            o = find_long(tables, ntables, a, len);
            if (!o) return cli_usage_error(prog, "unknown option '%.*s'", (int)len, a);
            if (eq) {
                if (o->kind == CLI_FLAG) return cli_usage_error(prog, "option %s takes no value", o->name);
                val = eq + 1;
            }
        } else {
            if (a[2] != 0) return cli_usage_error(prog, "unknown option '%s'", a);
            o = find_short(tables, ntables, a[1]);
            if (!o) return cli_usage_error(prog, "unknown option '%s'", a);
        }
        if (o->kind != CLI_FLAG && !val) {
            if (i + 1 >= argc) return cli_usage_error(prog, "option %s needs a value", o->name);
            val = argv[++i];
        }
        int rc = store(prog, o, val ? val : "");
        if (rc) return rc;
    }
    return 0;
}

void cli_print_options(FILE *f, const cli_opt *table)
{
    for (const cli_opt *o = table; o && o->name; o++) {
        char left[64];
        if (o->short_name)
            snprintf(left, sizeof left, "-%c, %s%s%s", o->short_name, o->name, o->metavar ? " " : "",
                     o->metavar ? o->metavar : "");
        else
            snprintf(left, sizeof left, "%s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
        fprintf(f, "  %-20s ", left);
        if (strlen(left) > 20) fprintf(f, "\n  %-20s ", "");
        for (const char *h = o->help ? o->help : ""; *h; h++) {
            fputc(*h, f);
            if (*h == '\n') fprintf(f, "  %-20s ", "");
        }
        fputc('\n', f);
    }
}

static const char *const KIND_NAMES[] = {
    [CLI_FLAG] = "flag", [CLI_U64] = "u64", [CLI_COUNT] = "count", [CLI_DOUBLE] = "double",
    [CLI_STRING] = "string", [CLI_LIST] = "list", [CLI_CHOICE] = "choice", [CLI_STRINGS] = "strings",
};

const char *cli_kind_name(cli_kind k)
{
    return (unsigned)k < sizeof KIND_NAMES / sizeof KIND_NAMES[0] && KIND_NAMES[k] ? KIND_NAMES[k] : "?";
}

void cli_list_options(FILE *f, const cli_opt *table, const char *scope)
{
    for (const cli_opt *o = table; o && o->name; o++) {
        fprintf(f, "%s\t%s\t", o->name, cli_kind_name(o->kind));
        switch (o->kind) {
        case CLI_U64: case CLI_LIST:
            fprintf(f, "%llu\t%llu\t", (unsigned long long)o->lo, (unsigned long long)o->hi);
            break;
        case CLI_COUNT:   /* a count is at least 1 */
            fprintf(f, "1\t%llu\t", (unsigned long long)o->hi);
            break;
        case CLI_DOUBLE: fprintf(f, "%.17g\t%.17g\t", o->dlo, o->dhi); break;
        default: fprintf(f, "-\t-\t"); break;
        }
        if (o->choices) {
            for (int i = 0; o->choices[i]; i++) fprintf(f, "%s%s", i ? "," : "", o->choices[i]);
        } else {
            fputc('-', f);
        }
        fprintf(f, "\t%s\n", scope);
    }
}

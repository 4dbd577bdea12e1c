/*
 * ncu_extract - turn an Nsight Compute CSV log into a plain TSV:
 *
 *   ncu_extract CSV --metrics m1,m2,... [--kernel REGEX-or-substring]
 *
 * prints a header row "kernel<TAB>id<TAB>m1<TAB>m2..." and one row per
 * kernel launch (in the order ncu profiled them).  A metric the file has for
 * other launches but not this one prints as NA.  Values are printed in
 * ncu's base units (nanoseconds, bytes, sectors) whatever unit scaling the
 * file used ("1.25 msecond" prints as 1250000).  Both CSV layouts of ncu
 * (the default long one and --page raw) are read; see src/sector/ncu_csv.h.
 *
 * Exit status: 0 done; 1 the file is missing, unreadable or malformed, ncu
 * could not read the counters (ERR_NVGPUCTRPERM), a metric is not in the
 * file, no launch matches --kernel, or the output could not be written;
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ncu_csv.h"
#include "outfile.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: ncu_extract CSV --metrics m1,m2,... [--kernel REGEX]\n"
        "  CSV             a log written by: ncu --csv --log-file CSV --metrics ... APP\n"
        "  --metrics LIST  comma-separated metric names, printed in this order\n"
        "  --kernel REGEX  keep launches whose kernel name contains REGEX as a substring\n"
        "                  or matches it as a POSIX extended regular expression\n"
        "  -h, --help      this text\n"
        "Prints TSV: kernel, id, then one column per metric; one row per launch.\n");
}

#define PROG "ncu_extract"
#define MAX_LISTED 40 /* metrics named when one is missing */

/* Print a kernel name with tabs and newlines as spaces, so the TSV stays
 * one row per line, and other control characters as \xNN. */
static void put_field(const char *s)
{
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '\t' || c == '\n' || c == '\r') putchar(' ');
        else if (c < 0x20 || c == 0x7f) printf("\\x%02x", c);
        else putchar(c);
    }
}

/* The size of --kernel's regex is bounded before regcomp sees it: glibc
 * expands bounded repetitions, so 'a{1000}{1000}{1000}' asks for a billion
 * states (11 GB).  A kernel name pattern needs no large counts: the
 * product of the counts of every {m} / {m,n} / {m,} is at most
 * MAX_RE_REPEAT.  Its length is linear in memory, but bounded all the same:
 * scripts/ncu_profile.sh lists every variant of a family (patterns' 43
 * make about 700 characters; a limit of 256 once failed that real call on
 * the H100), so the limit leaves room for families of a few hundred. */
#define MAX_RE_CHARS 8192
#define MAX_RE_REPEAT 1000
static int regex_size_ok(const char *pat)
{
    if (strlen(pat) > MAX_RE_CHARS) return 0;
    double product = 1;
    for (const char *p = pat; *p; p++) {
        if (*p == '\\' && p[1]) { p++; continue; }
        if (*p != '{') continue;
        char *end;
        double m = strtod(p + 1, &end), n = m;
        if (end == p + 1) continue;           /* not a count: a literal brace */
        if (*end == ',') {
            char *e2;
            double v = strtod(end + 1, &e2);
            if (e2 != end + 1) n = v;
            end = e2;
        }
        if (*end != '}') continue;
        product *= (n > m ? n : m) > 1 ? (n > m ? n : m) : 1;
        if (product > MAX_RE_REPEAT) return 0;
        p = end;
    }
    return 1;
}

/* The metrics a file has (after one it lacks was asked for), on stderr, each
 * once, the first MAX_LISTED of them (a hostile file may have a million). */
static void list_metrics(const ncu_table *t)
{
    fprintf(stderr, PROG ": the file has:");
    const char *listed[MAX_LISTED];
    int nl = 0, more = 0;
    for (size_t i = 0; i < t->nvalues; i++) {
        int dup = 0;
        for (int j = 0; j < nl && !dup; j++)
            dup = strcmp(listed[j], t->values[i].metric) == 0;
        if (dup)
            continue;
        if (nl == MAX_LISTED) {
            more = 1;
            break;
        }
        listed[nl++] = t->values[i].metric;
        fputc(' ', stderr);
        for (const char *q = t->values[i].metric; *q; q++)
            fputc((unsigned char)*q < 0x20 || *q == 0x7f ? '?' : *q, stderr);
    }
    fprintf(stderr, "%s%s\n", more ? " ..." : "", t->nvalues ? "" : " (no metric at all)");
}

/* The table on stdout: a row per launch whose kernel contains kernel_pat or
 * matches re (every launch without a pattern); returns the rows printed. */
static size_t print_table(const ncu_table *t, char **metrics, int nm, const char *kernel_pat,
                          const regex_t *re)
{
    printf("kernel\tid");
    for (int m = 0; m < nm; m++)
        printf("\t%s", metrics[m]);
    printf("\n");
    size_t printed = 0;
    for (size_t l = 0; l < t->nlaunches; l++) {
        const char *k = t->launches[l].kernel;
        if (kernel_pat && !strstr(k, kernel_pat) && !(re && regexec(re, k, 0, NULL, 0) == 0))
            continue;
        put_field(k);
        printf("\t%ld", t->launches[l].id);
        for (int m = 0; m < nm; m++) {
            const ncu_value *v = ncu_table_find(t, l, metrics[m]);
            if (v && v->has_value)
                printf("\t%.15g", v->value * ncu_unit_factor(v->unit));
            else
                printf("\tNA");
        }
        printf("\n");
        printed++;
    }
    return printed;
}

int main(int argc, char **argv)
{
    const char *csv = NULL, *metrics_arg = NULL, *kernel_pat = NULL;
    const cli_opt opts[] = {
        {"--metrics", 0, CLI_STRING, 0, 0, 0, 0, &metrics_arg, "LIST", "", 0, 0},
        {"--kernel", 0, CLI_STRING, 0, 0, 0, 0, &kernel_pat, "REGEX", "", 0, 0},
        CLI_END};
    const cli_opt *tables[] = {opts};
    cli_parse_result res;
    int prc = cli_parse(PROG, argc, argv, tables, 1, 1, &res);
    if (prc) return prc;
    if (res.help) {
        usage(stdout);
        return outfile_check_stdout(PROG);
    }
    csv = res.npos ? res.pos[0] : NULL;
    if (!csv || !metrics_arg) return cli_usage_error(PROG, "need a CSV file and --metrics");

    /* Split the metric list. */
    char *mbuf = strdup(metrics_arg);
    char **metrics = calloc(strlen(metrics_arg) + 1, sizeof *metrics);
    if (!mbuf || !metrics) {
        fprintf(stderr, PROG ": out of memory\n");
        free(mbuf);
        free(metrics);
        return 1;
    }
    int nm = 0;
    for (char *tok = strtok(mbuf, ","); tok; tok = strtok(NULL, ","))
        if (*tok)
            metrics[nm++] = tok;
    if (nm == 0) {
        free(mbuf);
        free(metrics);
        return cli_usage_error(PROG, "--metrics lists no metric");
    }

    regex_t re;
    int have_re = 0;
    if (kernel_pat && !regex_size_ok(kernel_pat)) {
        free(mbuf);
        free(metrics);
        return cli_usage_error(PROG, "--kernel: a regex of at most %d characters whose repetition "
                               "counts ({m,n}) multiply to at most %d, please (a larger one costs "
                               "memory without bound)", MAX_RE_CHARS, MAX_RE_REPEAT);
    }
    if (kernel_pat)
        have_re = regcomp(&re, kernel_pat, REG_EXTENDED | REG_NOSUB) == 0;

    char err[512];
    ncu_table t;
    int rc = ncu_table_read(csv, &t, err, sizeof err);
    if (rc != NCU_OK) {
        fprintf(stderr, PROG ": %s%s%s\n", rc == NCU_ERR_PERM ? "" : csv,
                rc == NCU_ERR_PERM ? "" : ": ", err);
        rc = 1;
        goto done;
    }

    int missing = 0;
    for (int m = 0; m < nm; m++)
        if (!ncu_table_has_metric(&t, metrics[m])) {
            fprintf(stderr, PROG ": %s: metric %s is not in the file\n", csv, metrics[m]);
            missing++;
        }
    if (missing) {
        list_metrics(&t);
        ncu_table_free(&t);
        rc = 1;
        goto done;
    }

    size_t printed = print_table(&t, metrics, nm, kernel_pat, have_re ? &re : NULL);
    ncu_table_free(&t);
    rc = outfile_check_stdout(PROG);
    if (rc == 0 && printed == 0) {
        fprintf(stderr, PROG ": %s: no kernel launch%s%s\n", csv,
                kernel_pat ? " matches " : " in the file", kernel_pat ? kernel_pat : "");
        rc = 1;
    }
done:
    if (have_re)
        regfree(&re);
    free(mbuf);
    free(metrics);
    return rc;
}

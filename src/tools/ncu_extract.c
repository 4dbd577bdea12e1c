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
 * (the default long one and --page raw) are read; see src/lib/ncu_csv.h.
 *
 * Exit status: 0 done; 1 the file is missing or unreadable, ncu could not
 * read the counters (ERR_NVGPUCTRPERM), a metric is not in the file, or no
 * launch matches --kernel; 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include "ncu_csv.h"

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

/* Print a kernel name with tabs and newlines replaced, so the TSV stays
 * one row per line. */
static void put_field(const char *s)
{
    for (; *s; s++)
        putchar(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
}

int main(int argc, char **argv)
{
    const char *csv = NULL, *metrics_arg = NULL, *kernel_pat = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--metrics") || !strcmp(argv[i], "--kernel")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ncu_extract: %s needs a value\n", argv[i]);
                usage(stderr);
                return 2;
            }
            if (!strcmp(argv[i], "--metrics"))
                metrics_arg = argv[++i];
            else
                kernel_pat = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "ncu_extract: unknown option %s\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (!csv) {
            csv = argv[i];
        } else {
            fprintf(stderr, "ncu_extract: more than one CSV file given\n");
            usage(stderr);
            return 2;
        }
    }
    if (!csv || !metrics_arg || !*metrics_arg) {
        fprintf(stderr, "ncu_extract: need a CSV file and --metrics\n");
        usage(stderr);
        return 2;
    }

    /* Split the metric list. */
    char *mbuf = strdup(metrics_arg);
    char **metrics = calloc(strlen(metrics_arg) + 1, sizeof *metrics);
    if (!mbuf || !metrics) {
        fprintf(stderr, "ncu_extract: out of memory\n");
        return 1;
    }
    int nm = 0;
    for (char *tok = strtok(mbuf, ","); tok; tok = strtok(NULL, ","))
        if (*tok)
            metrics[nm++] = tok;
    if (nm == 0) {
        fprintf(stderr, "ncu_extract: --metrics lists no metric\n");
        return 2;
    }

    regex_t re;
    int have_re = 0;
    if (kernel_pat)
        have_re = regcomp(&re, kernel_pat, REG_EXTENDED | REG_NOSUB) == 0;

    char err[512];
    ncu_table t;
    int rc = ncu_table_read(csv, &t, err, sizeof err);
    if (rc != NCU_OK) {
        fprintf(stderr, "ncu_extract: %s%s%s\n", rc == NCU_ERR_PERM ? "" : csv,
                rc == NCU_ERR_PERM ? "" : ": ", err);
        return 1;
    }

    int missing = 0;
    for (int m = 0; m < nm; m++)
        if (!ncu_table_has_metric(&t, metrics[m])) {
            fprintf(stderr, "ncu_extract: %s: metric %s is not in the file\n", csv, metrics[m]);
            missing++;
        }
    if (missing) {
        fprintf(stderr, "ncu_extract: the file has:");
        /* list the metrics it does have, each once */
        for (size_t i = 0; i < t.nvalues; i++) {
            int dup = 0;
            for (size_t j = 0; j < i && !dup; j++)
                dup = strcmp(t.values[j].metric, t.values[i].metric) == 0;
            if (!dup)
                fprintf(stderr, " %s", t.values[i].metric);
        }
        fprintf(stderr, "%s\n", t.nvalues ? "" : " (no metric at all)");
        ncu_table_free(&t);
        return 1;
    }

    printf("kernel\tid");
    for (int m = 0; m < nm; m++)
        printf("\t%s", metrics[m]);
    printf("\n");
    size_t printed = 0;
    for (size_t l = 0; l < t.nlaunches; l++) {
        const char *k = t.launches[l].kernel;
        if (kernel_pat && !strstr(k, kernel_pat) &&
            !(have_re && regexec(&re, k, 0, NULL, 0) == 0))
            continue;
        put_field(k);
        printf("\t%ld", t.launches[l].id);
        for (int m = 0; m < nm; m++) {
            const ncu_value *v = ncu_table_find(&t, l, metrics[m]);
            if (v && v->has_value)
                printf("\t%.15g", v->value * ncu_unit_factor(v->unit));
            else
                printf("\tNA");
        }
        printf("\n");
        printed++;
    }
    ncu_table_free(&t);
    if (have_re)
        regfree(&re);
    free(mbuf);
    free(metrics);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "ncu_extract: cannot write the output\n");
        return 1;
    }
    if (printed == 0) {
        fprintf(stderr, "ncu_extract: %s: no kernel launch%s%s\n", csv,
                kernel_pat ? " matches " : " in the file", kernel_pat ? kernel_pat : "");
        return 1;
    }
    return 0;
}

/*
 * sweep_ncu - put what Nsight Compute measured at each point of an
 * occupancy sweep into the sweep table: achieved occupancy and the DRAM read
 * bandwidth (scripts/occupancy_profile.sh --ncu, docs/occupancy.md).
 *
 *   sweep_ncu SWEEP.tsv --csv-dir DIR --kernel NAME [--note TEXT]
 *
 * DIR holds one ncu log per point, b<blocks_per_sm>.csv, written by
 *   ncu --csv --log-file DIR/b<B>.csv --print-units base --metrics
 *       sm__warps_active.avg.pct_of_peak_sustained_active,
 *       dram__bytes_read.sum.per_second APP ...
 * For each row of the table whose blocks_per_sm has a log, the last launch
 * of kernel NAME in it (the name as written, or followed by its signature)
 * gives achieved_occupancy_pct (the percentage, two decimals) and
 * dram_read_GBps (byte/s / 1e9, one decimal).  A point without a log, or
 * whose log has no such launch (no counter permission, ERR_NVGPUCTRPERM),
 * keeps its value (nan) and is named on stderr.  Every other line of the
 * table is kept as it is; "# ncu<TAB>TEXT" is added before the header.  The
 * table is rewritten through SWEEP.tsv.tmp, whole or not at all.
 *
 * Exit status: 0 ok (also when some points have no measurement: they are
 * named), 1 the table cannot be read or written, 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ncu_csv.h"

#define PROG "sweep_ncu"
#define M_ACH "sm__warps_active.avg.pct_of_peak_sustained_active"
#define M_DRAM "dram__bytes_read.sum.per_second"

static void usage(FILE *f)
{
    fputs("usage: sweep_ncu SWEEP.tsv --csv-dir DIR --kernel NAME [--note TEXT]\n"
          "  Fill achieved_occupancy_pct and dram_read_GBps of an occupancy sweep from\n"
          "  the ncu logs DIR/b<blocks_per_sm>.csv (one per point); the table is\n"
          "  rewritten whole.  Exit status: 0 ok, 1 runtime failure, 2 usage error.\n",
          f);
}

/* The kernel's last launch in the log: its two values (NAN when absent). */
static int measure(const char *csv, const char *kernel, double *ach, double *dram_GBps, char *why,
                   size_t whylen)
{
    *ach = *dram_GBps = NAN;
    ncu_table t;
    char err[512];
    if (ncu_table_read(csv, &t, err, sizeof err) != 0) {
        snprintf(why, whylen, "%s", err);
        return -1;
    }
    const size_t kl = strlen(kernel);
    long last = -1;
    for (size_t i = 0; i < t.nlaunches; i++) {
        const char *k = t.launches[i].kernel;
        if (k && !strncmp(k, kernel, kl) && (k[kl] == 0 || k[kl] == '(' || k[kl] == '<')) last = (long)i;
    }
    if (last < 0) {
        snprintf(why, whylen, "no launch of %s in it (no counter permission? ERR_NVGPUCTRPERM)", kernel);
        ncu_table_free(&t);
        return -1;
    }
    const ncu_value *a = ncu_table_find(&t, (size_t)last, M_ACH);
    const ncu_value *d = ncu_table_find(&t, (size_t)last, M_DRAM);
    if (a && a->has_value) *ach = a->value;
    if (d && d->has_value) {
        const double f = ncu_unit_factor(d->unit);
        *dram_GBps = d->value * (isfinite(f) && f > 0 ? f : 1) / 1e9;
    }
    ncu_table_free(&t);
    if (!isfinite(*ach) && !isfinite(*dram_GBps)) {
        snprintf(why, whylen, "neither %s nor %s in it", M_ACH, M_DRAM);
        return -1;
    }
    return 0;
}

/* Split line at tabs in place; at most max fields. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = 0;
        p = t + 1;
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *kernel = NULL, *note = "ncu";
    const cli_opt opts[] = {
        {"--csv-dir", 0, CLI_STRING, 0, 0, 0, 0, &dir, "DIR", "the ncu logs, b<blocks_per_sm>.csv", 0, 0},
        {"--kernel", 0, CLI_STRING, 0, 0, 0, 0, &kernel, "NAME", "the profiled kernel's name", 0, 0},
        {"--note", 0, CLI_STRING, 0, 0, 0, 0, &note, "TEXT", "the table's '# ncu' line", 0, 0},
        CLI_END};
    const cli_opt *const tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(PROG, argc, argv, tables, 1, 1, &r);
    if (prc != 0) return prc;
    if (r.help) { usage(stdout); return 0; }
    if (r.npos != 1) return cli_usage_error(PROG, "SWEEP.tsv is missing");
    if (!dir) return cli_usage_error(PROG, "--csv-dir DIR is missing");
    if (!kernel) return cli_usage_error(PROG, "--kernel NAME is missing");
    const char *path = r.pos[0];

    FILE *in = fopen(path, "r");
    if (!in) { fprintf(stderr, PROG ": cannot read %s: %s\n", path, strerror(errno)); return 1; }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *out = fopen(tmp, "w");
    if (!out) { fprintf(stderr, PROG ": cannot write %s: %s\n", tmp, strerror(errno)); fclose(in); return 1; }
    char line[16384];
    int cb = -1, ca = -1, cd = -1, ncol = 0, header = 0, rc = 0, filled = 0, rows = 0;
    while (fgets(line, sizeof line, in)) {
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (!header && (line[0] == '#' || len == 0)) {
            if (strncmp(line, "# ncu\t", 6)) fprintf(out, "%s\n", line); /* the old note is replaced */
            continue;
        }
        char *f[128];
        char copy[16384];
        memcpy(copy, line, len + 1);
        const int n = split(copy, f, 128);
        if (!header) {
            header = 1;
            ncol = n;
            for (int i = 0; i < n; i++) {
                if (!strcmp(f[i], "blocks_per_sm")) cb = i;
                if (!strcmp(f[i], "achieved_occupancy_pct")) ca = i;
                if (!strcmp(f[i], "dram_read_GBps")) cd = i;
            }
            if (cb < 0 || ca < 0 || cd < 0) {
                fprintf(stderr, PROG ": %s is not an occupancy sweep (it needs the columns blocks_per_sm, "
                                "achieved_occupancy_pct and dram_read_GBps)\n", path);
                rc = 1;
                break;
            }
            fprintf(out, "# ncu\t%s\n%s\n", note, line);
            continue;
        }
        if (len == 0 || line[0] == '#') { fprintf(out, "%s\n", line); continue; }
        if (n != ncol) {
            fprintf(stderr, PROG ": %s: a row has %d fields, the header %d\n", path, n, ncol);
            rc = 1;
            break;
        }
        rows++;
        char csv[4400], why[600], va[32], vd[32];
        snprintf(csv, sizeof csv, "%s/b%s.csv", dir, f[cb]);
        double ach, dram;
        FILE *probe = fopen(csv, "r");
        if (!probe) {
            fprintf(stderr, PROG ": %s blocks/SM: no ncu log %s; nan\n", f[cb], csv);
        } else {
            fclose(probe);
            if (measure(csv, kernel, &ach, &dram, why, sizeof why) != 0) {
                fprintf(stderr, PROG ": %s blocks/SM: %s: %s; nan\n", f[cb], csv, why);
            } else {
                if (isfinite(ach)) { snprintf(va, sizeof va, "%.2f", ach); f[ca] = va; }
                if (isfinite(dram)) { snprintf(vd, sizeof vd, "%.1f", dram); f[cd] = vd; }
                filled++;
            }
        }
        for (int i = 0; i < n; i++) fprintf(out, "%s%s", i ? "\t" : "", f[i]);
        fputc('\n', out);
    }
    if (!header && rc == 0) { fprintf(stderr, PROG ": %s has no header row\n", path); rc = 1; }
    if (ferror(in)) rc = 1;
    fclose(in);
    if (fclose(out) != 0) rc = 1;
    if (rc != 0 || rename(tmp, path) != 0) {
        if (rc == 0) fprintf(stderr, PROG ": cannot rename %s to %s: %s\n", tmp, path, strerror(errno));
        remove(tmp);
        return 1;
    }
    fprintf(stderr, PROG ": %s: ncu values at %d of %d points\n", path, filled, rows);
    return 0;
}

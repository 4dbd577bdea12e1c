/*
 * fleet - many GPUs' results side by side: each figure's median and spread
 * per GPU model, and the GPUs that stand out (docs/fleet.md).
 *
 *   fleet report DIR... --out FLEETDIR [--chart FILE] [rule options]
 *   fleet collect ROOT [--out FLEETDIR] [--list] [--depth D] [--chart FILE] [rule options]
 *   fleet key DIR [--ordinal K]
 *   fleet devices SPEC < (nvidia-smi -L)
 *   fleet concurrent ALONE ALL --alone-s S --all-s S [--out FILE]
 *
 * report   DIR is one GPU's results folder (scripts/reference.sh OUTDIR).
 *          Writes FLEETDIR/fleet.tsv (one row per GPU and figure),
 *          fleet_summary.tsv (one row per GPU) and fleet_chart.tsv (the
 *          chart's data), each whole or not at all; with --chart also a
 *          chart of every GPU's distance from its model's median.
 * collect  The results folders under ROOT (the folders of a --device all
 *          run, or one per Slurm task), then report; FLEETDIR defaults to
 *          ROOT, where the report finds fleet.tsv beside the folders.
 *          --list prints the folders and stops.
 * key      The folder name a GPU's results get in a fleet:
 *          gpu<K>-<8 hex of the UUID>-<name> (names_gpu), with "nouuid" when
 *          the folder does not record a UUID (older results).
 * devices  The GPUs SPEC names (all, an ordinal, or a list 0,2) among those
 *          that nvidia-smi -L lists on stdin, one ordinal a line: what
 *          scripts/report.sh measures.  Exit 2 when SPEC is no such form,
 *          1 when it names a GPU the list lacks or the list has none.
 * concurrent  One GPU measured alone (ALONE) against the same GPU measured
 *          while every GPU of the host ran (ALL): the drift table's
 *          figures and tolerances (drift.h), and the two runs' wall times
 *          against the limit of --wall-limit (1.15) times the alone run.
 *          TSV to stdout or --out; a verdict line per figure on stderr.
 *          Exit 0 written (also when outside), 1 a folder unreadable.
 *
 * Exit status: 0 written (flagged GPUs are a result, not a failure); 1 a
 * folder is unreadable, no results were found, or an output could not be
 * written; 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "drift.h"
#include "fleet.h"
#include "gp.h"
#include "gpusel.h"
#include "outfile.h"

#define PROG "fleet"

static void usage(FILE *f, const cli_opt *opts)
{
    fprintf(f,
        "usage: " PROG " report DIR... --out FLEETDIR [options]\n"
        "       " PROG " collect ROOT [--out FLEETDIR] [--list] [--depth D] [options]\n"
        "       " PROG " key DIR [--ordinal K]\n"
        "       nvidia-smi -L | " PROG " devices SPEC\n"
        "       " PROG " concurrent ALONE ALL --alone-s S --all-s S [--out FILE]\n"
        "\n"
        "Compare GPUs of one model: per figure (DRAM and L2 latency plateaus, read\n"
        "bandwidth, SM clock under load, probe overhead) the median over the GPUs of\n"
        "a model, the median absolute deviation (MAD), and each GPU's distance from\n"
        "the median in MADs.  A GPU is flagged when a figure lies more than K MADs\n"
        "from its model's median; the MAD is floored at FLOOR %% of the median (and\n"
        "the figure's resolution) so that identical GPUs are not flagged for\n"
        "rounding; a model with fewer than MIN GPUs is not judged.  Read bandwidth\n"
        "is also flagged more than PCT %% below its model's median, whatever the\n"
        "MAD rule says; each flag names its rule (mad, pct_below_median, both).\n"
        "\n"
        "  report DIR...   DIR: one GPU's results folder (scripts/reference.sh)\n"
        "  collect ROOT    every results folder under ROOT (a --device all run,\n"
        "                  the RESULTS folder of scripts/slurm/submit.sh)\n"
        "  key DIR         print the folder name of DIR's GPU in a fleet\n"
        "  devices SPEC    the GPUs SPEC (all, K, or K,L,...) names among those\n"
        "                  nvidia-smi -L lists on stdin, one ordinal a line\n"
        "  concurrent ALONE ALL   one GPU measured alone against the same GPU while\n"
        "                  every GPU ran: the drift figures within their tolerances,\n"
        "                  and the wall times (ALL at most --wall-limit x ALONE)\n"
        "\n");
    cli_print_options(f, opts);
    fprintf(f,
        "\n"
        "Writes FLEETDIR/fleet.tsv (gpu, name, figure, value, unit, median, mad,\n"
        "distance_mads, pct_from_median, flagged, rule, ...), fleet_summary.tsv and\n"
        "fleet_chart.tsv.\n"
        "Exit status: 0 written (also with flagged GPUs), 1 runtime error, 2 usage.\n");
}

/* The last part of a path, without trailing slashes. */
static void base_name(char *buf, size_t len, const char *path)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (size_t k = strlen(tmp); k > 1 && tmp[k - 1] == '/'; k--) tmp[k - 1] = 0;
    const char *s = strrchr(tmp, '/');
    snprintf(buf, len, "%s", s && s[1] ? s + 1 : tmp);
}

static int draw_chart(const char *out, const fleet_gpu *g, size_t n, const fleet_rule *r)
{
    char err[512];
    gp_job *job = gp_job_new(out, 1000, 560, err, sizeof err);
    if (!job) {
        fprintf(stderr, PROG ": --chart: %s\n", err);
        return -1;
    }
    FILE *d = gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err);
    if (!d) {
        fprintf(stderr, PROG ": --chart: %s\n", err);
        gp_job_abort(job);
        return -1;
    }
    /* one point per judged GPU and figure: x = the figure, spread a little
     * by the GPU's place so that siblings do not hide each other; the
     * distance is clipped to the chart, the flag kept */
    const double lim = 4 * r->k_mads;
    fprintf(d, "# x\tdistance_mads\tflagged\tgpu\n");
    for (int k = 0; k < FLEET_NFIG; k++)
        for (size_t i = 0; i < n; i++) {
            const fleet_fig *x = &g[i].fig[k];
            if (x->flagged < 0) continue;
            double dist = x->distance_mads;
            if (dist > lim) dist = lim;
            if (dist < -lim) dist = -lim;
            const double jitter = n > 1 ? 0.5 * ((double)i / (double)(n - 1) - 0.5) : 0;
            fprintf(d, "%.4f\t%.3f\t%d\t%s\n", k + 1 + jitter, dist, x->flagged, g[i].label);
        }
    FILE *s = gp_job_script(job, err, sizeof err);
    if (!s) {
        fprintf(stderr, PROG ": --chart: %s\n", err);
        gp_job_abort(job);
        return -1;
    }
    fprintf(s, "set title 'Each GPU against its model: distance from the median in MADs (flagged beyond "
               "+-%g)'\n", r->k_mads);
    fprintf(s, "set ylabel 'distance from the model median (MADs, clipped at +-%g)'\n", lim);
    fprintf(s, "set xrange [0.4:%d.6]\nset yrange [%g:%g]\nset grid ytics\nset key below\n",
            FLEET_NFIG, -lim * 1.05, lim * 1.05);
    fprintf(s, "set xtics rotate by -25 (");
    for (int k = 0; k < FLEET_NFIG; k++) {
        fprintf(s, "%s", k ? ", " : "");
        gp_put_str(s, fleet_figures[k].name);
        fprintf(s, " %d", k + 1);
    }
    fprintf(s, ")\n");
    fprintf(s, "plot %g with lines dt 2 lc rgb 'gray40' title '+-%g MADs', %g with lines dt 2 lc rgb "
               "'gray40' notitle, \\\n",
            r->k_mads, r->k_mads, -r->k_mads);
    fprintf(s, "     dat using 1:($3 == 0 ? $2 : NaN) with points pt 7 ps 0.8 lc rgb '#1f77b4' title "
               "'within', \\\n");
    fprintf(s, "     dat using 1:($3 == 1 ? $2 : NaN) with points pt 7 ps 1.2 lc rgb '#d62728' title "
               "'flagged', \\\n");
    /* the flagged GPUs by name: the point of the chart */
    fprintf(s, "     dat using 1:($3 == 1 ? $2 : NaN):4 with labels left offset 1,0 font ',9' tc rgb "
               "'#d62728' notitle\n");
    if (gp_job_finish(job, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": --chart: %s\n", err);
        return -1;
    }
    return 0;
}

/* fleet key DIR: the folder's key.  The exit status. */
static int cmd_key(const char *dir, uint64_t ordinal)
{
    char err[1024];
    fleet_gpu *g = malloc(sizeof *g);
    if (!g) return 1;
    if (fleet_read_gpu(dir, dir, g, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        free(g);
        return 1;
    }
    char key[256];
    if (fleet_gpu_key(key, sizeof key, (int)ordinal, g->uuid, g->name) != 0) {
        fprintf(stderr, PROG ": %s: no device name to build a key from\n", dir);
        free(g);
        return 1;
    }
    printf("%s\n", key);
    free(g);
    return outfile_check_stdout(PROG);
}

/* fleet devices SPEC: the selected ordinals.  The exit status. */
static int cmd_devices(const char *spec)
{
    static char text[1 << 16];
    int avail[GPUSEL_MAX], sel[GPUSEL_MAX];
    char err[512];
    /* the form first (with no GPU listed only a bad form says -1), then stdin */
    if (gpusel_select(spec, avail, 0, sel, GPUSEL_MAX, err, sizeof err) == -1)
        return cli_usage_error(PROG, "devices: %s", err);
    const size_t got = fread(text, 1, sizeof text - 1, stdin);
    text[got] = 0;
    const int n = gpusel_parse_smi_list(text, avail, GPUSEL_MAX, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    const int k = gpusel_select(spec, avail, n, sel, GPUSEL_MAX, err, sizeof err);
    if (k == -1) return cli_usage_error(PROG, "devices: %s", err);
    if (k < 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    for (int i = 0; i < k; i++) printf("%d\n", sel[i]);
    return outfile_check_stdout(PROG);
}

/* The table of fleet concurrent, into f. */
static void put_concurrent(FILE *f, const drift_row *rows, const char *alone, const char *all, double ta, double tb,
                           double limit)
{
    const double ratio = tb / ta;
    fprintf(f, "# concurrent: one GPU measured alone (bundled) and while every GPU of the host ran (today), "
               "each figure against the drift tolerance (drift.h)\n");
    fprintf(f, "# alone_wall_s\t%.1f\n# all_wall_s\t%.1f\n# wall_ratio\t%.3f\n# wall_limit\t%g\n"
               "# wall_verdict\t%s\n", ta, tb, ratio, limit, ratio <= limit ? "within" : "outside");
    drift_write_tsv(f, rows, all, alone);
}

/* fleet concurrent ALONE ALL: the exit status. */
static int cmd_concurrent(const char *alone, const char *all, double ta, double tb, double limit, const char *out)
{
    drift_row rows[FLEET_NFIG];
    char err[1024];
    const int outside = drift_compare(all, alone, rows, err, sizeof err);
    if (outside < 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    if (out) {
        outfile o;
        FILE *f = outfile_open(&o, out, "w", err, sizeof err);
        if (!f) {
            fprintf(stderr, PROG ": %s\n", err);
            return 1;
        }
        put_concurrent(f, rows, alone, all, ta, tb, limit);
        if (outfile_commit(&o, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            return 1;
        }
    } else {
        put_concurrent(stdout, rows, alone, all, ta, tb, limit);
    }
    for (int i = 0; i < FLEET_NFIG; i++) {
        const drift_row *r = &rows[i];
        fprintf(stderr, "%s: alone %.6g, with all GPUs %.6g %s: %s", r->figure, r->bundled, r->today, r->unit,
                r->verdict == 1 ? "within" : r->verdict == 0 ? "OUTSIDE" : "not compared");
        if (r->verdict >= 0)
            fprintf(stderr, " (%+.2f%s, tolerance %g%s)", r->tol_relative ? r->diff_pct : r->diff,
                    r->tol_relative ? "%" : "", r->tol, r->tol_relative ? "%" : " points");
        fputc('\n', stderr);
    }
    fprintf(stderr, "wall time: alone %.1f s, all GPUs at once %.1f s: %.3f x (limit %g x): %s\n", ta, tb, tb / ta,
            limit, tb / ta <= limit ? "within" : "OUTSIDE");
    fprintf(stderr, "concurrent: %d figure%s outside the drift tolerance\n", outside, outside == 1 ? "" : "s");
    return out ? 0 : outfile_check_stdout(PROG);
}

/* Read every folder into g[], each labelled (the gpu column): its path
 * under root (collect) or its base name.  0, or 1 after a sentence. */
static int read_gpus(char **dirs, size_t nd, const char *root, int collect, fleet_gpu *g)
{
    char err[1024];
    for (size_t i = 0; i < nd; i++) {
        char label[512];
        const size_t rl = strlen(root);
        if (collect && strcmp(dirs[i], root) != 0 && !strncmp(dirs[i], root, rl) && dirs[i][rl] == '/')
            snprintf(label, sizeof label, "%s", dirs[i] + rl + 1);
        else
            base_name(label, sizeof label, dirs[i]);
        if (fleet_read_gpu(dirs[i], label, &g[i], err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            return 1;
        }
        for (size_t j = 0; j < i; j++) {
            if (!strcmp(g[i].label, g[j].label)) {
                fprintf(stderr, PROG ": %s and %s have one name, %s: give folders of distinct names\n",
                        g[j].dir, g[i].dir, g[i].label);
                return 1;
            } else if (strcmp(g[i].uuid, "-") != 0 && !strcmp(g[i].uuid, g[j].uuid)) {
                fprintf(stderr, PROG ": warning: %s and %s are one GPU (%s), counted twice\n", g[j].label,
                        g[i].label, g[i].uuid);
            }
        }
    }
    return 0;
}

/* The tables under out (made when missing; removed again if nothing could
 * be written).  0, or 1 after a sentence. */
static int write_tables(const char *out, const fleet_gpu *g, size_t nd, const fleet_rule *rule)
{
    char err[1024];
    struct stat st;
    const int made = stat(out, &st) != 0;
    if (made && mkdir(out, 0777) != 0) {
        fprintf(stderr, PROG ": cannot create %s: %s\n", out, strerror(errno));
        return 1;
    }
    if (fleet_write(out, g, nd, rule, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        if (made) rmdir(out);   /* a folder made for nothing goes (a full disk) */
        return 1;
    }
    return 0;
}

/* What a person wants to see first: how many, and who stands out. */
static int print_summary(const fleet_gpu *g, size_t nd, const fleet_rule *rule, const char *out,
                         const char *chart)
{
    size_t nflag = 0;
    for (size_t i = 0; i < nd; i++) {
        int any = 0;
        for (int k = 0; k < FLEET_NFIG; k++) {
            const fleet_fig *x = &g[i].fig[k];
            if (x->flagged != 1) continue;
            if (!any) printf("flagged: %s (%s):", g[i].label, g[i].name);
            printf("%s %s %.6g %s against a median of %.6g (%+.1f MADs, %+.2f%%; rule %s)", any ? ";" : "",
                   fleet_figures[k].name, x->value, fleet_figures[k].unit, x->median, x->distance_mads,
                   x->pct_from_median, fleet_flag_rule(x));
            any = 1;
        }
        if (any) printf("\n"), nflag++;
    }
    for (size_t i = 0; i < nd; i++) {
        int first = 1, judged = 0;
        for (size_t j = 0; j < i; j++) first &= strcmp(g[i].name, g[j].name) != 0;
        if (!first) continue;
        size_t c = 0;
        for (size_t j = i; j < nd; j++) c += !strcmp(g[i].name, g[j].name);
        for (int k = 0; k < FLEET_NFIG; k++) judged |= g[i].fig[k].flagged >= 0;
        if (!judged)
            printf("not judged: %s (%zu GPU%s; the rule needs %d of a model)\n", g[i].name, c,
                   c == 1 ? "" : "s", rule->min_group);
    }
    printf("fleet: %zu GPU%s, %zu flagged; wrote %s/fleet.tsv, fleet_summary.tsv, fleet_chart.tsv%s%s\n",
           nd, nd == 1 ? "" : "s", nflag, out, chart ? ", " : "", chart ? chart : "");
    return outfile_check_stdout(PROG) != 0;
}

/* The folders of collect ROOT (root gets ROOT without trailing slashes):
 * 0, or the exit status with *dirs NULL (after printing --list's folders,
 * 0 with nothing more to do is *nd == 0 and *listed set). */
static int collect_dirs(const char *arg, int depth, int list, char *root, size_t rootlen,
                        char ***dirs, size_t *nd, int *listed)
{
    char err[1024];
    *listed = 0;
    if (strlen(arg) >= rootlen) {   /* never cut it to another folder */
        fprintf(stderr, PROG ": the folder name is longer than %zu characters\n", rootlen - 1);
        return 1;
    }
    snprintf(root, rootlen, "%s", arg);
    for (size_t k = strlen(root); k > 1 && root[k - 1] == '/'; k--) root[k - 1] = 0;
    if (fleet_find(root, depth, dirs, nd, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    if (list) {
        for (size_t i = 0; i < *nd; i++) printf("%s\n", (*dirs)[i]);
        fleet_free_dirs(*dirs, *nd);
        *dirs = NULL;
        *listed = 1;
        return outfile_check_stdout(PROG);
    }
    if (!*nd) {
        fprintf(stderr, PROG ": no results folder under %s (none holds device.tsv, latency_ca.tsv, "
                        "ceiling.tsv, overhead.tsv or readonly_<N>_wpb4.tsv)\n", root);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = NULL, *chart = NULL;
    int list = 0;
    double alone_s = NAN, all_s = NAN, wall_limit = 1.15;
    uint64_t depth = 4, ordinal = 0, min_group = 3;
    fleet_rule rule;
    fleet_rule_default(&rule);
    const cli_opt opts[] = {
        {"--out", 'o', CLI_STRING, 0, 0, 0, 0, &out, "FLEETDIR",
         "where fleet.tsv, fleet_summary.tsv, fleet_chart.tsv go\n(report: required; collect: ROOT)", 0, 0},
        {"--chart", 0, CLI_STRING, 0, 0, 0, 0, &chart, "FILE",
         "also draw the distances (.svg, .png, .pdf; FILE.gp, FILE.dat beside)", 0, 0},
        {"--k", 0, CLI_DOUBLE, 0, 0, 0.5, 100, &rule.k_mads, "K", "flag beyond K MADs (default 3)", 0, 0},
        {"--floor-pct", 0, CLI_DOUBLE, 0, 0, 0, 50, &rule.floor_pct, "FLOOR",
         "the MAD's floor, % of the median (default 1)", 0, 0},
        {"--min-group", 0, CLI_U64, 3, 100000, 0, 0, &min_group, "MIN",
         "fewest GPUs of a model to judge it (default 3, at least 3)", 0, 0},
        {"--pct-below", 0, CLI_DOUBLE, 0, 0, 0, 50, &rule.pct_below, "PCT",
         "flag read bandwidth more than PCT % below the median (default 5; 0: off)", 0, 0},
        {"--list", 0, CLI_FLAG, 0, 0, 0, 0, &list, 0, "collect: print the folders found, write nothing", 0, 0},
        {"--depth", 0, CLI_U64, 1, 16, 0, 0, &depth, "D", "collect: look D folders deep (default 4)", 0, 0},
        {"--alone-s", 0, CLI_DOUBLE, 0, 0, 0.001, 1e7, &alone_s, "S", "concurrent: the alone run's wall time", 0, 0},
        {"--all-s", 0, CLI_DOUBLE, 0, 0, 0.001, 1e7, &all_s, "S", "concurrent: the all-GPUs run's wall time", 0, 0},
        {"--wall-limit", 0, CLI_DOUBLE, 0, 0, 1, 100, &wall_limit, "R",
         "concurrent: the all-GPUs run may take R x the alone run (default 1.15)", 0, 0},
        {"--ordinal", 0, CLI_U64, 0, 1023, 0, 0, &ordinal, "K", "key: the GPU's ordinal (default 0)", 0, 0},
        CLI_END,
    };
    cli_parse_result r;
    int rc = cli_tool_parse(PROG, argc, argv, opts, CLI_MAX_POS, usage, &r);
    if (rc >= 0) return rc;
    if (r.npos < 1) return cli_usage_error(PROG, "a command is missing (report, collect, key or devices)");
    rule.min_group = (int)min_group;
    const char *cmd = r.pos[0];

    if (!strcmp(cmd, "key")) {
        if (r.npos != 2) return cli_usage_error(PROG, "key takes one DIR");
        return cmd_key(r.pos[1], ordinal);
    }
    if (!strcmp(cmd, "concurrent")) {
        if (r.npos != 3) return cli_usage_error(PROG, "concurrent takes ALONE and ALL (two results folders of one GPU)");
        if (!isfinite(alone_s) || !isfinite(all_s)) return cli_usage_error(PROG, "concurrent needs --alone-s and --all-s");
        return cmd_concurrent(r.pos[1], r.pos[2], alone_s, all_s, wall_limit, out);
    }
    if (!strcmp(cmd, "devices")) {
        if (r.npos != 2) return cli_usage_error(PROG, "devices takes one SPEC (all, an ordinal, or a list such as 0,2)");
        return cmd_devices(r.pos[1]);
    }

    const int collect = !strcmp(cmd, "collect");
    if (!collect && strcmp(cmd, "report") != 0)
        return cli_usage_error(PROG, "unknown command '%s' (report, collect, key or devices)", cmd);
    if (collect && r.npos != 2) return cli_usage_error(PROG, "collect takes one ROOT");
    if (!collect && r.npos < 2) return cli_usage_error(PROG, "report needs at least one DIR");
    if (!collect && !out) return cli_usage_error(PROG, "report needs --out FLEETDIR");
    if (!collect && list) return cli_usage_error(PROG, "--list goes with collect");
    if (chart && !gp_format_for(chart))
        return cli_usage_error(PROG, "--chart %s: the name must end in .svg, .png or .pdf", chart);

    /* the folders, and each one's label (the gpu column) */
    char **dirs = NULL;
    size_t nd = 0;
    char root[1024] = "";
    if (collect) {
        int listed;
        const int crc = collect_dirs(r.pos[1], (int)depth, list, root, sizeof root, &dirs, &nd, &listed);
        if (crc || listed) return crc;
        if (!out) out = root;
    } else {
        nd = (size_t)r.npos - 1;
        dirs = calloc(nd, sizeof *dirs);
        if (!dirs) return 1;
        for (size_t i = 0; i < nd; i++)
            if (!(dirs[i] = strdup(r.pos[1 + i]))) {
                fleet_free_dirs(dirs, nd);
                return 1;
            }
    }

    fleet_gpu *g = calloc(nd, sizeof *g);
    if (!g) {
        fprintf(stderr, PROG ": out of memory for %zu GPUs\n", nd);
        fleet_free_dirs(dirs, nd);
        return 1;
    }
    rc = read_gpus(dirs, nd, root, collect, g);
    if (rc == 0 && fleet_judge(g, nd, &rule) != 0) {
        fprintf(stderr, PROG ": out of memory\n");
        rc = 1;
    }
    if (rc == 0) rc = write_tables(out, g, nd, &rule);
    if (rc == 0 && chart && draw_chart(chart, g, nd, &rule) != 0) rc = 1;
    if (rc == 0) rc = print_summary(g, nd, &rule, out, chart);
    free(g);
    fleet_free_dirs(dirs, nd);
    return rc;
}

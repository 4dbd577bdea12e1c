/*
 * report - the report's model, tables, findings and chart plan, in C
 * (scripts/report.sh only runs what this decides).
 *
 *   report plan OUTDIR                 the charts to draw, one job per line
 *                                      (and the folders they write into);
 *                                      --nul: for run-plan (src/lib/jobplan.h)
 *   report plan OUTDIR --log LOG       the charts of your own kernel's log
 *   report run-plan PLAN OUTDIR        run a plan's jobs on every core
 *                                      (src/lib/jobrun.h), the failed ones
 *                                      on stdout, NUL-ended
 *   report render OUTDIR [LABEL=DIR...] index.html and index.md
 *   report expected DIR [--families L] the result files DIR lacks, with the
 *                                      command that makes each
 *   report kernel OUTDIR               the report of your own kernel's log
 *                                      (scripts/report.sh --log: report_kernel.h)
 *   report gpus DIR                    the results folders in DIR: DIR itself,
 *                                      or each of its folders that is one
 *   report chart-bandwidth OUT.svg SUMMARY...   bandwidth against WPB
 *   report chart-ladders OUT.svg LABEL=TSV...   several GPUs' ladders
 *
 * OUTDIR is a report folder: OUTDIR/data/<gpu>/ holds one results folder per
 * GPU in the layout of docs/naming.md (src/report/results.h finds every file by
 * its name), charts go to OUTDIR/charts/<gpu>/, tables computed by a job to
 * OUTDIR/tables/<gpu>/.  `plan` prints, per job,
 *
 *   OUTPUT<TAB>STDOUT<TAB>WHAT<TAB>ARGV0<TAB>ARGV1...
 *
 * (STDOUT "-" when the job's stdout is not kept), for the eye: run-plan
 * reads the NUL form of --nul, which carries any byte but NUL.  run-plan
 * runs each job's argv (never a shell string) and writes the jobs that
 * failed to OUTDIR/logs/failures.tsv (columns output, error).  `render` reads the results, the charts that
 * exist and that file, computes every table and sentence (src/lib/
 * report_facts.h) and writes OUTDIR/index.html and OUTDIR/index.md from one
 * model (src/report/report_doc.h).  The LABEL=DIR arguments say where each
 * GPU's results came from, for the commands of the "missing" notes.
 *
 * Families are found from the summaries present; what the report knows of
 * each beyond its summaries (sweeps, sector tables, its own section and
 * charts) is its src/families/NAME/report.c (report_family.h).  The
 * commands are src/lib/report_*.c (report_cmd.h); this file is their
 * command line.
 *
 * Options: --mode gpu|reference|data, --note TEXT (the top of the report),
 * --families LIST (the families the results should have: the programs this
 * checkout builds).  Exit status: 0 ok, 1 runtime failure, 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "jobrun.h"
#include "outfile.h"
#include "report_cmd.h"

static void usage(FILE *f)
{
    fputs("usage: report plan OUTDIR [--families LIST] [--nul]\n"
          "       report plan OUTDIR --log LOG [--nul]\n"
          "       report run-plan PLAN OUTDIR [--jobs N] [--no-charts] [--t0-us US]\n"
          "       report render OUTDIR [LABEL=DIR...] [--mode gpu|reference|data] [--note TEXT]\n"
          "                            [--families LIST]\n"
          "       report expected DIR [--families LIST]\n"
          "       report gpus DIR [--nul]\n"
          "       report kernel OUTDIR\n"
          "       report chart-bandwidth OUT.svg SUMMARY...\n"
          "       report chart-ladders OUT.svg LABEL=TSV...\n"
          "       report chart-family OUT.svg KIND DIR [N]\n"
          "\n"
          "The report of scripts/report.sh (docs/report.md): OUTDIR/data/<gpu>/ holds one\n"
          "results folder per GPU (docs/naming.md).\n"
          "  plan       the charts and comparisons to run, one job per line:\n"
          "             OUTPUT<TAB>STDOUT<TAB>WHAT<TAB>ARGV...  (STDOUT '-': not kept);\n"
          "             --nul: the NUL-separated form run-plan reads (any byte in a path);\n"
          "             --log LOG: the charts of your own kernel's log, two per region\n"
          "  run-plan   run the jobs of PLAN (plan --nul), N at once (default: every core),\n"
          "             each its argv, never a shell; OUTDIR/logs/ gets each job's stderr,\n"
          "             failures.tsv and a steps.tsv row per job; the failed jobs'\n"
          "             'chart: WHAT' on stdout, NUL-ended.  --no-charts: charts are not\n"
          "             drawn, only named; --t0-us: the caller's start, for the progress\n"
          "  render     OUTDIR/index.html and index.md, from the results, the charts drawn\n"
          "             and OUTDIR/logs/failures.tsv (output, error: the jobs that failed);\n"
          "             LABEL=DIR says where a GPU's results came from\n"
          "  expected   the files a complete results folder has that DIR lacks, with the\n"
          "             command that makes each (TSV: file, command)\n"
          "  gpus       the results folders in DIR (DIR itself, or its sub-folders), one a line\n"
          "             (--nul: each ended by a NUL)\n"
          "  kernel     OUTDIR/index.html and index.md of your own kernel's log, from the\n"
          "             tables and charts scripts/report.sh --log left there (docs/your-kernel.md)\n"
          "  chart-bandwidth  GB/s against warps per block, one line per variant\n"
          "  chart-ladders    several GPUs' latency ladders on one chart\n"
          "  chart-family     a family's own chart from the results folder DIR (N: the size\n"
          "                   of a chart drawn per size); KIND is one of\n",
          f);
    /* the families' charts (report_family.h), wrapped */
    char kinds[1024];
    rc_chart_kinds(kinds, sizeof kinds);
    size_t col = 0;
    for (char *save = NULL, *k = strtok_r(kinds, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
        if (!col || col + 1 + strlen(k) > 72) col = (size_t)fprintf(f, "%s                   %s", col ? "\n" : "", k);
        else col += (size_t)fprintf(f, " %s", k);
    }
    fputs("\n"
          "  --ceiling GBPS   chart-bandwidth: the achievable bandwidth as a line\n"
          "\n"
          "Exit status: 0 ok, 1 runtime failure, 2 usage error.\n",
          f);
}

int main(int argc, char **argv)
{
    const char *mode = "reference", *note = NULL, *families = NULL, *ref_root = "data/reference", *log = NULL,
               *t0 = NULL;
    int nul = 0, no_charts = 0;
    uint64_t jobs = 0;
    double ceiling = NAN;
    static const char *const modes[] = {"gpu", "reference", "data", NULL};
    int mode_i = 1;
    const cli_opt opts[] = {
        {"--mode", 0, CLI_CHOICE, 0, 0, 0, 0, &mode_i, "MODE", "gpu, reference or data", modes, 0},
        {"--note", 0, CLI_STRING, 0, 0, 0, 0, &note, "TEXT", "the top of the report", 0, 0},
        {"--reference", 0, CLI_STRING, 0, 0, 0, 0, &ref_root, "DIR",
         "render, gpu mode: the bundled results to measure drift against (data/reference)", 0, 0},
        {"--families", 0, CLI_STRING, 0, 0, 0, 0, &families, "LIST", "families the results should have", 0, 0},
        {"--ceiling", 0, CLI_DOUBLE, 0, 0, 1e-3, 1e7, &ceiling, "GBPS", "the achievable bandwidth (charts)", 0, 0},
        CLI_FLAG_OPT("--nul", &nul, "plan, gpus: NUL-separated (any byte in a path)"),
        CLI_STRING_OPT("--log", &log, "LOG", "plan: the charts of your own kernel's log"),
        CLI_NUM_OPT("--jobs", CLI_U64, 1, 4096, &jobs, "N", "run-plan: jobs at once (every core)"),
        CLI_FLAG_OPT("--no-charts", &no_charts, "run-plan: name the charts, draw none"),
        CLI_STRING_OPT("--t0-us", &t0, "US", "run-plan: the caller's start (µs), for progress"),
        CLI_END};
    const cli_opt *const tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(RC_PROG, argc, argv, tables, 1, 16, &r);
    if (prc != 0) return prc;
    if (r.help) { usage(stdout); return outfile_check_stdout(RC_PROG); }
    if (r.npos < 2) {
        if (r.npos == 0) return cli_usage_error(RC_PROG, "a command is needed: plan, render, expected, chart-bandwidth or chart-ladders");
        return cli_usage_error(RC_PROG, "%s needs %s", r.pos[0], strncmp(r.pos[0], "chart", 5) ? "a folder" : "OUT.svg and its inputs");
    }
    mode = modes[mode_i];
    const char *cmd = r.pos[0];
    if (!strcmp(cmd, "chart-bandwidth")) {
        if (r.npos < 3) return cli_usage_error(RC_PROG, "chart-bandwidth needs OUT.svg and at least one SUMMARY");
        return rc_cmd_chart_bandwidth(r.pos[1], r.npos - 2, r.pos + 2, ceiling);
    }
    if (!strcmp(cmd, "chart-family")) {
        if (r.npos < 4 || r.npos > 5) return cli_usage_error(RC_PROG, "chart-family needs OUT.svg KIND DIR [N]");
        return rc_cmd_chart_family(r.pos[1], r.pos[2], r.pos[3], r.npos == 5 ? r.pos[4] : NULL);
    }
    if (!strcmp(cmd, "chart-ladders")) {
        if (r.npos < 3) return cli_usage_error(RC_PROG, "chart-ladders needs OUT.svg and at least one LABEL=TSV");
        return rc_cmd_chart_ladders(r.pos[1], r.npos - 2, r.pos + 2);
    }
    if (!strcmp(cmd, "gpus")) {
        if (r.npos != 2) return cli_usage_error(RC_PROG, "gpus takes one folder");
        return rc_cmd_gpus(r.pos[1], nul);
    }
    if (!strcmp(cmd, "expected")) {
        if (r.npos != 2) return cli_usage_error(RC_PROG, "expected takes one folder");
        if (!rc_is_dir(r.pos[1])) rc_die("%s is not a folder", r.pos[1]);
        return rc_cmd_expected(r.pos[1], families);
    }
    if (!strcmp(cmd, "run-plan")) {
        if (r.npos != 3) return cli_usage_error(RC_PROG, "run-plan needs PLAN and OUTDIR");
        long long t0_us = jr_now_us();
        if (t0) {
            char *end = NULL;
            t0_us = strtoll(t0, &end, 10);
            if (!*t0 || *end || t0_us < 0) return cli_usage_error(RC_PROG, "--t0-us wants microseconds, not '%s'", t0);
        }
        if (!jobs) {
            const long n = sysconf(_SC_NPROCESSORS_ONLN);
            jobs = n > 0 ? (uint64_t)n : 2;
        }
        return rc_cmd_run_plan(r.pos[1], r.pos[2], (int)jobs, no_charts, t0_us);
    }
    if (!strcmp(cmd, "plan") && log) {
        if (r.npos != 2) return cli_usage_error(RC_PROG, "plan takes one folder");
        if (!rc_is_dir(r.pos[1])) rc_die("%s is not a folder", r.pos[1]);
        return rc_cmd_plan_kernel(r.pos[1], log, nul);
    }
    if (!strcmp(cmd, "kernel")) {
        if (r.npos != 2) return cli_usage_error(RC_PROG, "kernel takes one folder");
        if (!rc_is_dir(r.pos[1])) rc_die("%s is not a folder", r.pos[1]);
        return rc_cmd_kernel(r.pos[1]);
    }
    if (strcmp(cmd, "plan") && strcmp(cmd, "render"))
        return cli_usage_error(RC_PROG, "unknown command '%s'", cmd);
    static rc_ctx c;
    c.outdir = r.pos[1];
    if (!rc_is_dir(c.outdir)) rc_die("%s is not a folder", c.outdir);
    if (!strcmp(cmd, "plan") && r.npos != 2) return cli_usage_error(RC_PROG, "plan takes one folder");
    for (int i = 2; i < r.npos; i++)
        if (!strchr(r.pos[i], '=')) return cli_usage_error(RC_PROG, "'%s' is not LABEL=DIR", r.pos[i]);
    rc_load_gpus(&c, r.npos - 2, r.pos + 2);
    if (c.ng == 0) rc_die("no results in %s/data/ (one folder per GPU, docs/naming.md)", c.outdir);
    rc_find_families(&c, families);
    const int rc = !strcmp(cmd, "plan") ? rc_cmd_plan(&c, nul) : rc_cmd_render(&c, mode, note, ref_root);
    for (int i = 0; i < c.ng; i++) res_free(&c.g[i].r);
    if (c.have_failures) tsv_free(&c.failures);
    return rc;
}

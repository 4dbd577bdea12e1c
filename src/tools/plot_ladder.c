/*
 * plot_ladder - the latency ladder of a ./latency table: its plateaus as a
 * TSV, and a chart of latency against working-set size drawn by gnuplot.
 *
 *   plot_ladder TSV [OUT.svg|.png|.pdf] [--levels-out FILE] [--script-only]
 *               [--tol F] [--min-points N]
 *   plot_ladder TSV --dram-latency
 *
 * The level table (level, from_bytes, to_bytes, cycles, ns) goes to stdout,
 * or to FILE with --levels-out.  With OUT, the gnuplot script OUT.gp and its
 * data OUT.dat are written next to OUT (ladder.svg -> ladder.gp, ladder.dat),
 * naming each other by file name only so the three can be moved together,
 * and `gnuplot -d -c ladder.gp` is run in that folder (unless
 * --script-only).  --dram-latency prints one line "cycles<TAB>ns": the DRAM
 * plateau, the default lower bound of a load's latency for other tools.
 *
 * Exit status: 0 ok; 1 runtime error (unreadable table, no DRAM plateau,
 * gnuplot missing or failing); 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "gp.h"
#include "outfile.h"
#include "plateau.h"

#define PROG "plot_ladder"

static void usage(FILE *f)
{
    fprintf(f,
"usage: " PROG " TSV [OUT] [--levels-out FILE] [--script-only] [--tol F] [--min-points N]\n"
"       " PROG " TSV --dram-latency\n"
"\n"
"Find the plateaus (L1, L2 or L2-near/L2-far, DRAM) of a latency table written\n"
"by ./latency and print them as TSV: level, from_bytes, to_bytes, cycles, ns\n"
"(median latency of the plateau's points).\n"
"\n"
"  OUT               also draw the ladder: OUT's extension picks the terminal\n"
"                    (.svg, .png, .pdf); OUT.gp and OUT.dat are written next to it\n"
"  --levels-out FILE write the level table to FILE instead of stdout\n"
"  --script-only     write OUT.gp and OUT.dat but do not run gnuplot\n"
"  --tol F           relative tolerance of a plateau (default 0.08)\n"
"  --min-points N    fewest points of a plateau (default 3)\n"
"  --dram-latency    print only \"cycles<TAB>ns\" of the DRAM plateau (the last)\n"
"  -h, --help        this text\n"
"\n"
"Exit status: 0 ok, 1 runtime error, 2 usage error.\n");
}

static void die_usage(const char *msg, const char *arg)
{
    exit(cli_usage_error(PROG, "%s%s", msg, arg ? arg : ""));
}

/* ------------------------------------------------------------ gnuplot helpers */

static const char *basename_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Is `name` an executable file in $PATH? */
static int in_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path) return 0;
    char buf[4096];
    const char *p = path;
    while (*p) {
        const char *c = strchr(p, ':');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (n == 0) snprintf(buf, sizeof buf, "./%s", name);
        else snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name);
        if (access(buf, X_OK) == 0) return 1;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

/* Run `gnuplot -d -c script OUT DAT` in dir.  Returns 0 or -1 (message
 * printed).  The chart and the data are named as arguments (ARG1, ARG2), as
 * gp.c's jobs do: the script's defaults are quoted for gnuplot
 * (gp_put_str), which turns a newline into a space, so a name with one must
 * not rely on them. */
static int run_gnuplot(const char *dir, const char *script, const char *out_name, const char *dat_name)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (chdir(dir) != 0) {
            fprintf(stderr, PROG ": cannot enter %s: %s\n", dir, strerror(errno));
            _exit(126);
        }
        execlp("gnuplot", "gnuplot", "-d", "-c", script, out_name, dat_name, (char *)NULL);
        fprintf(stderr, PROG ": cannot run gnuplot: %s\n", strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, PROG ": waitpid: %s\n", strerror(errno));
            return -1;
        }
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, PROG ": gnuplot failed on %s/%s (%s %d); its messages are above\n",
                dir, script, WIFEXITED(st) ? "exit status" : "signal",
                WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ outputs */

static void print_levels(FILE *f, const plateau_level *lv, int n)
{
    fprintf(f, "level\tfrom_bytes\tto_bytes\tcycles\tns\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\t%.0f\t%.0f\t%.1f\t%.1f\n", lv[i].name, lv[i].from_bytes,
                lv[i].to_bytes, lv[i].cycles, lv[i].ns);
}

/* Median of ns/cycles over the points that have ns: the y2 axis' scale. */
static double ns_per_cycle(const plateau_series *s)
{
    double *r = malloc(s->n * sizeof *r);
    size_t k = 0;
    if (!r) return 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->pts[i].ns > 0)
            r[k++] = s->pts[i].ns / s->pts[i].cycles;
    double m = 0;
    if (k > 0) {
        /* insertion sort: a few hundred points at most */
        for (size_t i = 1; i < k; i++)
            for (size_t j = i; j > 0 && r[j - 1] > r[j]; j--) {
                double t = r[j]; r[j] = r[j - 1]; r[j - 1] = t;
            }
        m = k % 2 ? r[k / 2] : 0.5 * (r[k / 2 - 1] + r[k / 2]);
    } else if (s->sm_clock_MHz > 0) {
        m = 1e3 / s->sm_clock_MHz;
    }
    free(r);
    return m;
}

static const char *level_of(const plateau_level *lv, int n, size_t i)
{
    for (int k = 0; k < n; k++)
        if (i >= lv[k].first && i <= lv[k].last)
            return lv[k].name;
    return "-";
}

/* The whole-file writer of path, or NULL after saying why not. */
static FILE *open_out(outfile *o, const char *path)
{
    char err[512];
    FILE *f = outfile_open(o, path, "w", err, sizeof err);
    if (!f) fprintf(stderr, PROG ": %s\n", err);
    return f;
}

/* 0 once o is in place; -1 after saying why not. */
static int commit_out(outfile *o)
{
    char err[512];
    if (outfile_commit(o, err, sizeof err) == 0) return 0;
    fprintf(stderr, PROG ": %s\n", err);
    return -1;
}

static int write_dat(const char *path, const char *src, const plateau_series *s,
                     const plateau_level *lv, int n)
{
    outfile o;
    FILE *f = open_out(&o, path);
    if (!f) return -1;
    /* file names are the user's: comment text (gp.h), never data rows */
    fputs("# ", f);
    gp_put_text(f, GP_TEXT_COMMENT, basename_of(path));
    fputs(" - the points of ", f);
    gp_put_text(f, GP_TEXT_COMMENT, src);
    fputs(" and the plateau each belongs to ('-': none)\n", f);
    fprintf(f, "# bytes\tcycles_per_load\tns_per_load\tlevel\n");
    for (size_t i = 0; i < s->n; i++)
        fprintf(f, "%.0f\t%.2f\t%.2f\t%s\n", s->pts[i].bytes, s->pts[i].cycles, s->pts[i].ns,
                level_of(lv, n, i));
    return commit_out(&o);
}

static const char *const level_colors[] = {"#cc3311", "#ee7733", "#009988", "#33bbee",
                                           "#ee3377", "#555555"};

static int write_gp(const char *path, const char *out_name, const char *dat_name,
                    const char *src, const char *ext, const plateau_series *s,
                    const plateau_level *lv, int n)
{
    outfile o;
    FILE *f = open_out(&o, path);
    if (!f) return -1;
    /* file names are the user's: comment text (gp.h), never a command */
    fputs("# ", f);
    gp_put_text(f, GP_TEXT_COMMENT, basename_of(path));
    fputs(" - latency ladder of ", f);
    gp_put_text(f, GP_TEXT_COMMENT, src);
    fputs(", written by bin/plot_ladder.\n# Draw again: cd to this folder, then gnuplot -d -c ", f);
    gp_put_text(f, GP_TEXT_COMMENT, basename_of(path));
    fputs(" [OUTPUT [DATA]]\n", f);
    /* as every other chart script (src/lib/gp.c): the output and the data
     * are arguments, with the names written beside them as defaults */
    fprintf(f, "out = ARGC >= 1 ? ARG1 : ");
    gp_put_str(f, out_name);
    fprintf(f, "\ndat = ARGC >= 2 ? ARG2 : ");
    gp_put_str(f, dat_name);
    fprintf(f, "\n");
    if (!strcmp(ext, "svg"))
        fprintf(f, "set terminal svg size 960,600 dynamic background rgb 'white' font 'Helvetica,13'\n");
    else if (!strcmp(ext, "png"))
        fprintf(f, "set terminal pngcairo size 1280,800 background rgb 'white' font 'Helvetica,13'\n");
    else
        fprintf(f, "set terminal pdfcairo size 8in,5in font 'Helvetica,11'\n");
    fprintf(f, "set termoption noenhanced\n");
    fprintf(f, "set output out\n");

    char title[256];
    char thr[64] = "";
    if (s->threads > 1) snprintf(thr, sizeof thr, ", 1 of %d threads chasing", s->threads);
    char spc[48] = "";
    if (s->spacing_bytes) snprintf(spc, sizeof spc, ", %u B spacing", s->spacing_bytes);
    snprintf(title, sizeof title, "Pointer-chase latency%s%s%s%s%s%s",
             s->device_name[0] ? ": " : "", s->device_name,
             s->kernel[0] ? ", " : "", s->kernel, spc, thr);
    fprintf(f, "set title ");
    gp_put_str(f, title);
    fprintf(f, "\nset xlabel 'working set'\n");
    fprintf(f, "set ylabel 'latency per dependent load (cycles)'\n");

    /* x: log2, tics at powers of two labelled in KiB/MiB/GiB */
    double xmin = s->pts[0].bytes, xmax = s->pts[s->n - 1].bytes;
    int e0 = 0, e1 = 1, step = 1; /* the reader keeps sizes positive and finite */
    plateau_pow2_axis(xmin, xmax, &e0, &e1, &step);
    fprintf(f, "set logscale x 2\n");
    fprintf(f, "set xrange [%.6g:%.6g]\n", ldexp(1.0, e0) / 1.19, ldexp(1.0, e1) * 1.19);
    fprintf(f, "set xtics (");
    for (int e = e0; e <= e1; e += step) {
        char lab[32];
        plateau_pow2_label(lab, sizeof lab, e);
        fputs(e == e0 ? "" : ", ", f);
        gp_put_str(f, lab);
        fprintf(f, " %.0f", ldexp(1.0, e));
    }
    fprintf(f, ")\n");
    fprintf(f, "set mxtics %d\n", step);

    double ymax = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->pts[i].cycles > ymax) ymax = s->pts[i].cycles;
    fprintf(f, "set yrange [0:%.6g]\n", ymax * 1.15);
    fprintf(f, "set ytics nomirror\n");

    double k = ns_per_cycle(s);
    if (k > 0) {
        if (s->sm_clock_MHz > 0)
            fprintf(f, "set y2label 'ns (SM clock measured: %.0f MHz)'\n", s->sm_clock_MHz);
        else
            fprintf(f, "set y2label 'ns'\n");
        /* ns = cycles * k: the same axis scaled, with its own round tics */
        fprintf(f, "set y2range [0:%.6g]\n", ymax * 1.15 * k);
        fprintf(f, "set y2tics\n");
    }
    fprintf(f, "set grid xtics ytics lc rgb '#dddddd'\n");
    fprintf(f, "set key top left\n");

    /* plateaus: a thick segment over each level's size range, and its label */
    for (int i = 0; i < n; i++) {
        const char *col = level_colors[i % (int)(sizeof level_colors / sizeof *level_colors)];
        double mid = sqrt(lv[i].from_bytes * lv[i].to_bytes);
        fprintf(f, "set arrow %d from %.6g,%.6g to %.6g,%.6g nohead lw 5 lc rgb '%s' back\n",
                i + 1, lv[i].from_bytes, lv[i].cycles, lv[i].to_bytes, lv[i].cycles, col);
        char lab[sizeof lv[i].name + 64];
        int u = snprintf(lab, sizeof lab, "%s: %.0f cycles", lv[i].name, lv[i].cycles);
        if (k > 0 && u > 0 && (size_t)u < sizeof lab) snprintf(lab + u, sizeof lab - (size_t)u, ", %.0f ns", lv[i].ns);
        fprintf(f, "set label %d ", i + 1);
        gp_put_str(f, lab);
        fprintf(f, " at %.6g,%.6g center offset 0,1.2 front tc rgb '%s'\n", mid, lv[i].cycles, col);
    }
    fprintf(f, "plot dat using 1:2 with linespoints pt 7 ps 0.6 lw 1.5 lc rgb '#0077bb' title 'measured'\n");
    return commit_out(&o);
}

/* ------------------------------------------------------------------ main */

/* What the command line asks for. */
typedef struct args {
    const char *tsv, *out, *levels_out;
    int dram_only, script_only;
    plateau_params pp;
} args;

/* Fill a from argv, or exit (0 after --help, 2 on a usage error). */
static void parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    plateau_params_default(&a->pp);
    const char *tol = NULL;
    uint64_t min_points = (uint64_t)a->pp.min_points;
    const cli_opt opts[] = {
        {"--dram-latency", 0, CLI_FLAG, 0, 0, 0, 0, &a->dram_only, 0, "the DRAM plateau only", 0, 0},
        {"--script-only", 0, CLI_FLAG, 0, 0, 0, 0, &a->script_only, 0, "no gnuplot run", 0, 0},
        {"--levels-out", 0, CLI_STRING, 0, 0, 0, 0, &a->levels_out, "FILE", "the levels' file", 0, 0},
        {"--tol", 0, CLI_STRING, 0, 0, 0, 0, &tol, "F", "plateau tolerance", 0, 0},
        {"--min-points", 0, CLI_U64, 1, 1000, 0, 0, &min_points, "N", "points per plateau", 0, 0},
        CLI_END};
    const cli_opt *tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(PROG, argc, argv, tables, 1, 2, &r);
    if (prc) exit(prc);
    if (r.help) {
        usage(stdout);
        exit(outfile_check_stdout(PROG));
    }
    a->pp.min_points = (int)min_points;
    char perr[256];
    if (tol) {
        if (cli_parse_double("--tol", tol, 0, 1, &a->pp.tol, perr, sizeof perr) != 0)
            die_usage(perr, NULL);
        if (!(a->pp.tol > 0 && a->pp.tol < 1))
            die_usage("--tol must be a number between 0 and 1 (both excluded), not ", tol);
    }
    a->tsv = r.npos > 0 ? r.pos[0] : NULL;
    a->out = r.npos > 1 ? r.pos[1] : NULL;
    if (!a->tsv) die_usage("missing the latency table (TSV)", NULL);
    if (a->dram_only && (a->out || a->levels_out || a->script_only))
        die_usage("--dram-latency takes only the table", NULL);
    if (a->script_only && !a->out) die_usage("--script-only needs OUT", NULL);
}

int main(int argc, char **argv)
{
    args A;
    parse_args(argc, argv, &A);
    const char *tsv = A.tsv, *out = A.out, *levels_out = A.levels_out;
    const int dram_only = A.dram_only, script_only = A.script_only;
    plateau_params pp = A.pp;

    const char *ext = NULL;
    if (out) {
        const char *dot = strrchr(out, '.');
        const char *slash = strrchr(out, '/');
        if (dot && (!slash || dot > slash)) ext = dot + 1;
        if (!ext || (strcmp(ext, "svg") && strcmp(ext, "png") && strcmp(ext, "pdf")))
            die_usage("OUT must end in .svg, .png or .pdf: ", out);
    }

    char err[512];
    plateau_series s;
    if (plateau_read_tsv(tsv, &s, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    plateau_level lv[PLATEAU_MAX_LEVELS];
    int n = plateau_find(s.pts, s.n, &pp, lv, PLATEAU_MAX_LEVELS, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, PROG ": %s: %s\n", tsv, err);
        plateau_series_free(&s);
        return 1;
    }
    plateau_label(lv, n, plateau_series_l1_bypassed(&s));

    if (dram_only) {
        if (n < 2) {
            fprintf(stderr, PROG ": %s: found %d plateau%s, need at least a cache level and "
                    "DRAM to tell which is DRAM\n", tsv, n, n == 1 ? "" : "s");
            plateau_series_free(&s);
            return 1;
        }
        printf("%.1f\t%.1f\n", lv[n - 1].cycles, lv[n - 1].ns);
        plateau_series_free(&s);
        return outfile_check_stdout(PROG);
    }

    if (n == 0)
        fprintf(stderr, PROG ": %s: no plateau found (%zu points; tol %g, min %d points)\n",
                tsv, s.n, pp.tol, pp.min_points);
    if (levels_out) {
        outfile o;
        FILE *f = outfile_open(&o, levels_out, "w", err, sizeof err);
        if (f) print_levels(f, lv, n);
        if (!f || outfile_commit(&o, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            plateau_series_free(&s);
            return 1;
        }
    } else {
        print_levels(stdout, lv, n);
        if (outfile_check_stdout(PROG)) {
            plateau_series_free(&s);
            return 1;
        }
    }

    int rc = 0;
    if (out) {
        /* OUT = DIR/STEM.EXT -> DIR/STEM.gp, DIR/STEM.dat */
        size_t stem_len = (size_t)(ext - 1 - out);
        char gp[4096], dat[4096], dir[4096];
        snprintf(gp, sizeof gp, "%.*s.gp", (int)stem_len, out);
        snprintf(dat, sizeof dat, "%.*s.dat", (int)stem_len, out);
        const char *slash = strrchr(out, '/');
        if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - out == 0 ? 1 : slash - out), out);
        else snprintf(dir, sizeof dir, ".");
        if (write_dat(dat, basename_of(tsv), &s, lv, n) != 0 ||
            write_gp(gp, basename_of(out), basename_of(dat), basename_of(tsv), ext, &s, lv, n) != 0) {
            rc = 1;
        } else if (!script_only) {
            if (!in_path("gnuplot")) {
                fprintf(stderr, PROG ": gnuplot not found in PATH: wrote %s and %s but no chart. "
                        "Install gnuplot (Debian: apt-get install gnuplot-nox), then run: "
                        "cd %s && gnuplot -d -c %s\n", gp, dat, dir, basename_of(gp));
                rc = 1;
            } else if (run_gnuplot(dir, basename_of(gp), basename_of(out), basename_of(dat)) != 0) {
                rc = 1;
            } else if (access(out, R_OK) != 0) {
                fprintf(stderr, PROG ": gnuplot ran but %s was not written\n", out);
                rc = 1;
            }
        }
    }
    plateau_series_free(&s);
    return rc;
}

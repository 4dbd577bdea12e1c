/*
 * plot_throughput - measured bandwidth of an occupancy sweep against the
 * Little's-law bound, like the original study's plot_throughput.py.
 *
 *   bin/plot_throughput DATA [LATENCY] OUT [--ladder TSV] [--ceiling GBPS] [--keep]
 *   bin/plot_throughput DATA LATENCY FLAG OUT      (the original's form;
 *                                                   FLAG is ignored)
 *
 * DATA is an occupancy-sweep TSV (sweep.h, docs/postprocessors.md); its
 * metadata give sm_count, peak_dram_GBps, sm_clock_measured_MHz and
 * bytes_per_warp_load.  LATENCY (cycles) fixes the bound curve.  Without it
 * the latency comes from, in this order:
 *   1. the DRAM plateau of a latency ladder (a ./latency TSV) named by
 *      --ladder TSV or, failing that, by the environment variable
 *      WARPLAT_LADDER: the unloaded latency measured directly, which is what
 *      the original study passed by hand;
 *   2. the lowest lat_p50_cycles of the sweep (the lowest lat_mean_cycles
 *      when there is no p50): the least-loaded point is the closest the sweep
 *      itself gets to the unloaded latency, but it already queues a little.
 * An explicit LATENCY wins over both, and the ladder is then not read.  The
 * label says which was used.  A ladder that cannot be read, or in which no
 * DRAM level is found, is an error (exit 1) rather than a silent fallback to
 * 2: the user asked for the ladder.
 *
 * Drawn: measured bw_GBps vs warps_per_sm with error bars from bw_GBps_min
 * and _max; the bound min(peak, bytes in flight / latency) over warps per SM
 * from 1 to the sweep's largest; the bound at each point's own measured mean
 * latency (open circles: where the measurement sits relative to them shows
 * whether latency, not occupancy, is what limits it); the DRAM peak; with
 * --ceiling, the achievable bandwidth (ceiling.tsv, scripts/ceiling.sh)
 * beside it: the theoretical peak is never reached, the ceiling is what a
 * tuned kernel reaches.  A sweep that recorded every block (its
 * bound_inflight_GBps column, src/lib/inflight.h) also draws Little's law
 * with the warps measured in flight (purple squares): where they sit on the
 * red points, the law closes, and the distance between them and the green
 * circles is the time a slot holds no load.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gp.h"
#include "littles.h"
#include "outfile.h"
#include "plateau.h"
#include "sweep.h"


static const char usage_text[] =
    "usage: plot_throughput DATA [LATENCY] OUT [--ladder TSV] [--ceiling GBPS] [--keep]\n"
    "       plot_throughput DATA LATENCY FLAG OUT   (as plot_throughput.py; FLAG ignored)\n"
    "  Measured bandwidth of an occupancy sweep (DATA, TSV) vs warps per SM, with the\n"
    "  Little's-law bound at LATENCY cycles, the bound at each point's measured mean\n"
    "  latency, and the DRAM peak.  Without LATENCY: the DRAM plateau of the latency\n"
    "  ladder given by --ladder or $WARPLAT_LADDER, else the lowest measured p50\n"
    "  latency of the sweep (else the lowest mean).  OUT ends in .svg, .png or .pdf;\n"
    "  OUT's stem + .gp and .dat are written beside it.\n"
    "  --ladder TSV  a ./latency table; its DRAM plateau (cycles) is the unloaded\n"
    "                latency when LATENCY is not given\n"
    "  --ceiling GBPS  draw the achievable bandwidth (ceiling.tsv's best row) as a\n"
    "                line beside the DRAM peak\n"
    "  --keep        if gnuplot fails, keep the .tmp script and data to debug\n"
    "  -h, --help    this text\n";

#define PROG "plot_throughput"
#define MAX_LATENCY_CYCLES 1e9 /* a second at 1 GHz: more is a typo */
/* The bound is drawn at every whole warp up to the sweep's largest point:
 * that number comes from the file, so it is bounded (GPUs hold 64 warps
 * per SM today; 2048 leaves room and keeps the data small). */
#define MAX_WARPS_PER_SM LITTLES_CURVE_MAX_WARPS

static int usage_error(const char *msg, const char *arg)
{
    return cli_usage_error(PROG, "%s%s", msg, arg);
}

/* What the command line asks for. */
typedef struct args {
    const char *data, *out, *lat_arg, *ladder_opt;
    double latency_cycles; /* LATENCY, NAN when not given */
    double ceiling_GBps;   /* --ceiling, NAN when not given */
    int keep;
} args;

/* The sweep's metadata the bound needs, and what its points span. */
typedef struct inputs {
    double sm_count, peak_GBps, bytes_per_warp, clock_MHz;
    const char *clock_kind;
    double wmax, lo_p50, lo_mean;
    double latency_cycles;
    char lat_label[160];
} inputs;

/* 0 with a filled, -1 after printing --help (exit 0), or the usage exit status. */
static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    a->latency_cycles = a->ceiling_GBps = NAN;
    const char *ceiling = NULL;
    const cli_opt opts[] = {
        {"--ladder", 0, CLI_STRING, 0, 0, 0, 0, &a->ladder_opt, "TSV", "a latency ladder", 0, 0},
        {"--ceiling", 0, CLI_STRING, 0, 0, 0, 0, &ceiling, "GBPS", "the ceiling", 0, 0},
        {"--keep", 0, CLI_FLAG, 0, 0, 0, 0, &a->keep, 0, "keep the files of a failed gnuplot", 0, 0},
        CLI_END};
    const cli_opt *tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(PROG, argc, argv, tables, 1, 4, &r);
    if (prc) return prc;
    if (r.help) {
        fputs(usage_text, stdout);
        return outfile_check_stdout(PROG) ? 1 : -1;
    }
    char perr[256] = "it is 0";
    if (ceiling && (cli_parse_double("--ceiling", ceiling, 0, 1e7, &a->ceiling_GBps, perr,
                                     sizeof perr) != 0 || !(a->ceiling_GBps > 0)))
        return cli_usage_error(PROG, "--ceiling must be a bandwidth in GB/s > 0; got %s (%s)",
                               ceiling, perr);
    if (r.npos < 2) return usage_error("want DATA [LATENCY] OUT", "");
    a->data = r.pos[0];
    a->out = r.pos[r.npos - 1];
    a->lat_arg = r.npos >= 3 ? r.pos[1] : NULL;
    if (a->lat_arg) {
        snprintf(perr, sizeof perr, "it is 0");
        if (cli_parse_double("LATENCY", a->lat_arg, 0, MAX_LATENCY_CYCLES, &a->latency_cycles, perr,
                             sizeof perr) != 0 || !(a->latency_cycles > 0))
            return cli_usage_error(PROG, "LATENCY must be a number of cycles > 0; got %s (%s)",
                                   a->lat_arg, perr);
    }
    if (r.npos == 4)
        fprintf(stderr, PROG ": note: ignoring the third argument \"%s\" (kept for "
                "compatibility with plot_throughput.py)\n", r.pos[2]);
    if (!gp_format_for(a->out)) return usage_error("OUT must end in .svg, .png or .pdf: ", a->out);
    return 0;
}

/* The metadata and the span of the points: 0, or -1 with a sentence said. */
static int read_inputs(const args *a, const sweep *sw, inputs *in)
{
    const char *need[] = {"sm_count", "peak_dram_GBps", "bytes_per_warp_load"};
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++) {
        double v = sweep_meta_num(sw, need[k]);
        if (!(v > 0)) {
            fprintf(stderr, PROG ": %s lacks a positive '# %s<TAB>value' metadata "
                    "line, which the bound needs\n", a->data, need[k]);
            return -1;
        }
    }
    in->sm_count = sweep_meta_num(sw, "sm_count");
    in->peak_GBps = sweep_meta_num(sw, "peak_dram_GBps");
    in->bytes_per_warp = sweep_meta_num(sw, "bytes_per_warp_load");
    in->clock_MHz = sweep_meta_num(sw, "sm_clock_measured_MHz");
    in->clock_kind = "measured";
    if (!(in->clock_MHz > 0)) {
        in->clock_MHz = sweep_meta_num(sw, "sm_clock_nominal_khz") / 1000.0;
        in->clock_kind = "nominal";
        if (!(in->clock_MHz > 0)) {
            fprintf(stderr, PROG ": %s has neither sm_clock_measured_MHz nor "
                    "sm_clock_nominal_khz metadata\n", a->data);
            return -1;
        }
        fprintf(stderr, PROG ": note: %s has no measured SM clock; using the nominal "
                "%.6g MHz\n", a->data, in->clock_MHz);
    }
    if (!sweep_has_column(sw, "warps_per_sm") || !sweep_has_column(sw, "bw_GBps")) {
        fprintf(stderr, PROG ": %s needs the columns warps_per_sm and bw_GBps\n", a->data);
        return -1;
    }
    in->wmax = 0;
    in->lo_p50 = in->lo_mean = INFINITY;
    size_t nvalid = 0;
    for (size_t i = 0; i < sw->npoints; i++) {
        const sweep_point *p = &sw->points[i];
        if (!(p->warps_per_sm > 0) || isnan(p->bw_GBps)) continue;
        if (p->warps_per_sm > MAX_WARPS_PER_SM) {
            fprintf(stderr, PROG ": %s: warps_per_sm %.6g is more than %d, more than any GPU "
                    "holds: not a sweep\n", a->data, p->warps_per_sm, MAX_WARPS_PER_SM);
            return -1;
        }
        nvalid++;
        in->wmax = fmax(in->wmax, p->warps_per_sm);
        if (p->lat_p50_cycles > 0) in->lo_p50 = fmin(in->lo_p50, p->lat_p50_cycles);
        if (p->lat_mean_cycles > 0) in->lo_mean = fmin(in->lo_mean, p->lat_mean_cycles);
    }
    if (nvalid == 0) {
        fprintf(stderr, PROG ": %s has no point with both warps_per_sm and bw_GBps\n", a->data);
        return -1;
    }
    return 0;
}

/* The latency of the bound and its label, by the order of the header
 * comment: 0, or -1 with a sentence said. */
static int choose_latency(const args *a, const char *ladder, double ladder_cycles,
                          double ladder_ns, inputs *in)
{
    if (a->lat_arg) {
        in->latency_cycles = a->latency_cycles;
        snprintf(in->lat_label, sizeof in->lat_label, "%.6g cycles (given)", a->latency_cycles);
    } else if (isfinite(ladder_cycles)) {
        in->latency_cycles = ladder_cycles;
        snprintf(in->lat_label, sizeof in->lat_label,
                 "%.6g cycles: DRAM plateau of the latency ladder", ladder_cycles);
        /* The plateau is in cycles of the clock the ladder ran at; DRAM time
         * is closer to constant in ns, so at a very different SM clock the
         * same cycles mean a different latency.  Say so rather than guess. */
        double ladder_MHz = ladder_ns > 0 ? ladder_cycles * 1000.0 / ladder_ns : 0;
        if (ladder_MHz > 0 && fabs(ladder_MHz / in->clock_MHz - 1.0) > 0.05)
            fprintf(stderr, PROG ": note: the ladder %s ran at about %.0f MHz, the "
                    "sweep at %.6g MHz: its DRAM latency of %.6g cycles (%.6g ns) is used in "
                    "cycles as it is\n", ladder, ladder_MHz, in->clock_MHz, ladder_cycles,
                    ladder_ns);
    } else if (isfinite(in->lo_p50)) {
        in->latency_cycles = in->lo_p50;
        snprintf(in->lat_label, sizeof in->lat_label, "%.6g cycles (lowest measured p50)",
                 in->lo_p50);
    } else if (isfinite(in->lo_mean)) {
        in->latency_cycles = in->lo_mean;
        snprintf(in->lat_label, sizeof in->lat_label, "%.6g cycles (lowest measured mean)",
                 in->lo_mean);
    } else {
        fprintf(stderr, PROG ": %s has no lat_p50_cycles or lat_mean_cycles to take "
                "the latency from; give LATENCY\n", a->data);
        return -1;
    }
    return 0;
}

/* The sweep recorded every block at some point, so the bound with the warps
 * measured in flight (inflight.h) can be drawn beside the resident one.
 * Tables without the column (every sweep before it) draw as they did. */
static int has_inflight(const sweep *sw)
{
    if (!sweep_has_column(sw, "bound_inflight_GBps")) return 0;
    for (size_t i = 0; i < sw->npoints; i++)
        if (sw->points[i].warps_per_sm > 0 && sw->points[i].bound_inflight_GBps > 0) return 1;
    return 0;
}

/* What the chart is drawn from. */
typedef struct chart {
    const sweep *sw;
    const inputs *in;
    double ceiling_GBps;
} chart;

/* The three data blocks: measured, the bound, the bound at each point's latency. */
static int write_data(FILE *d, const void *ctx, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const sweep *sw = ((const chart *)ctx)->sw;
    const inputs *in = ((const chart *)ctx)->in;
    fputs("# index 0: measured\n"
          "# warps_per_sm\toccupancy_pct\tbw_GBps\tbw_GBps_min\tbw_GBps_max\n", d);
    for (size_t i = 0; i < sw->npoints; i++) {
        const sweep_point *p = &sw->points[i];
        if (!(p->warps_per_sm > 0) || isnan(p->bw_GBps)) continue;
        /* A missing spread draws as a bar of zero length, not a lost point. */
        double lo = isnan(p->bw_GBps_min) ? p->bw_GBps : p->bw_GBps_min;
        double hi = isnan(p->bw_GBps_max) ? p->bw_GBps : p->bw_GBps_max;
        gp_put_num(d, "", p->warps_per_sm);
        gp_put_num(d, "\t", p->occupancy_pct);
        gp_put_num(d, "\t", p->bw_GBps);
        gp_put_num(d, "\t", lo);
        gp_put_num(d, "\t", hi);
        fputc('\n', d);
    }
    fprintf(d, "\n\n# index 1: bound at %.6g cycles\n# warps_per_sm\tbound_GBps\n",
            in->latency_cycles);
    const double knee = littles_warps_per_sm_for(1.0, in->peak_GBps, in->sm_count,
                                                 in->bytes_per_warp, in->clock_MHz,
                                                 in->latency_cycles);
    static littles_point pts[LITTLES_CURVE_MAX_WARPS + 2];
    const size_t npts = littles_curve_points(knee, in->wmax, pts, sizeof pts / sizeof pts[0]);
    for (size_t i = 0; i < npts; i++) {
        const double b = pts[i].knee ? in->peak_GBps
                                     : littles_bound_GBps(in->peak_GBps, in->sm_count, pts[i].warps_per_sm,
                                                          in->bytes_per_warp, in->clock_MHz, in->latency_cycles);
        gp_put_num(d, "", pts[i].warps_per_sm);
        gp_put_num(d, "\t", b);
        fputc('\n', d);
        /* past the knee the bound is the peak: drawn there, it would lie
         * on the peak's line and hide it, so the line stops at the knee */
        if (b >= in->peak_GBps) break;
    }
    fputs("\n\n# index 2: bound at each point's own mean latency\n"
          "# warps_per_sm\tlat_mean_cycles\tbound_GBps\n", d);
    int nown = 0;
    for (size_t i = 0; i < sw->npoints; i++) {
        const sweep_point *p = &sw->points[i];
        if (!(p->warps_per_sm > 0) || !(p->lat_mean_cycles > 0)) continue;
        gp_put_num(d, "", p->warps_per_sm);
        gp_put_num(d, "\t", p->lat_mean_cycles);
        gp_put_num(d, "\t", littles_bound_GBps(in->peak_GBps, in->sm_count, p->warps_per_sm,
                                               in->bytes_per_warp, in->clock_MHz,
                                               p->lat_mean_cycles));
        fputc('\n', d);
        nown++;
    }
    if (!nown) fputs("nan\tnan\tnan\n", d); /* keeps index 2 present */
    if (!has_inflight(sw)) return 0;
    fputs("\n\n# index 3: bytes measured in flight / measured latency (every block recorded)\n"
          "# warps_per_sm\tinflight_warps_per_sm\tbound_inflight_GBps\n", d);
    for (size_t i = 0; i < sw->npoints; i++) {
        const sweep_point *p = &sw->points[i];
        if (!(p->warps_per_sm > 0) || !(p->bound_inflight_GBps > 0)) continue;
        gp_put_num(d, "", p->warps_per_sm);
        gp_put_num(d, "\t", p->inflight_warps_per_sm);
        gp_put_num(d, "\t", p->bound_inflight_GBps);
        fputc('\n', d);
    }
    return 0;
}

static void write_script(FILE *s, const void *ctx)
{
    const sweep *sw = ((const chart *)ctx)->sw;
    const inputs *in = ((const chart *)ctx)->in;
    const double ceiling_GBps = ((const chart *)ctx)->ceiling_GBps;
    const char *kernel = sweep_meta_get(sw, "kernel");
    const char *device = sweep_meta_get(sw, "device_name");
    char t1[300], t2[300], tb[300], tp[120];
    snprintf(t1, sizeof t1, "%s: throughput vs occupancy, %.6g B per warp in flight",
             kernel ? kernel : "(kernel?)", in->bytes_per_warp);
    snprintf(t2, sizeof t2, "%s, %.6g SMs, SM clock %.6g MHz (%s)",
             device ? device : "(device?)", in->sm_count, in->clock_MHz, in->clock_kind);
    snprintf(tb, sizeof tb, "Little's law bound at %s (up to the DRAM peak)", in->lat_label);
    snprintf(tp, sizeof tp, "DRAM peak %.6g GB/s", in->peak_GBps);
    fputs("set title ", s);
    gp_put_str(s, t1);
    fputs(".\"\\n\".", s);
    gp_put_str(s, t2);
    fprintf(s, "\npeak_GBps = %.17g\n", in->peak_GBps);
    fputs("set xlabel 'warps per SM'\n"
          "set ylabel 'bandwidth (GB/s)'\n"
          "set yrange [0:peak_GBps * 1.1]\n", s);
    fprintf(s, "set xrange [0:%.6g]\n", fmax(in->wmax, 1.0) + 1);
    fputs("set grid\n"
          "set key below center Left reverse font ',10' height 1\n"
          "plot dat index 1 using 1:2 with lines lw 2 lc rgb '#1f77b4' title ", s);
    gp_put_str(s, tb);
    fputs(", \\\n     dat index 2 using 1:3 with points pt 6 ps 1.5 lc rgb '#2ca02c' title ", s);
    gp_put_str(s, "bound at each point's measured mean latency");
    if (has_inflight(sw)) {
        fputs(", \\\n     dat index 3 using 1:3 with points pt 5 ps 1.2 lc rgb '#9467bd' title ", s);
        gp_put_str(s, "bytes measured in flight / measured latency");
    }
    fputs(", \\\n     dat index 0 using 1:3:4:5 with yerrorbars pt 7 lc rgb '#d62728' title ", s);
    gp_put_str(s, "measured (median, min..max)");
    fputs(", \\\n     dat index 0 using 1:3 with lines lc rgb '#d62728' notitle"
          ", \\\n     peak_GBps with lines dt 2 lw 2 lc rgb 'black' title ", s);
    gp_put_str(s, tp);
    if (isfinite(ceiling_GBps)) {
        char tc[120];
        snprintf(tc, sizeof tc, "achievable ceiling %.6g GB/s (ceiling.tsv)", ceiling_GBps);
        fprintf(s, ", \\\n     %.10g with lines dt 4 lw 2 lc rgb '#ff7f0e' title ", ceiling_GBps);
        gp_put_str(s, tc);
    }
    fputc('\n', s);
}

int main(int argc, char **argv)
{
    args a;
    const int prc = parse_args(argc, argv, &a);
    if (prc) return prc < 0 ? 0 : prc;
    /* The ladder: --ladder, else $WARPLAT_LADDER (empty counts as unset). */
    const char *ladder = a.ladder_opt, *ladder_from = "--ladder";
    if (!ladder) {
        const char *env = getenv("WARPLAT_LADDER");
        if (env && *env) ladder = env, ladder_from = "WARPLAT_LADDER";
    }
    if (a.lat_arg && a.ladder_opt)
        fprintf(stderr, PROG ": note: LATENCY %s is given, so the ladder %s is not "
                "used\n", a.lat_arg, a.ladder_opt);
    char err[1024];
    /* Read the ladder before anything is written: a bad one leaves no file. */
    double ladder_cycles = NAN, ladder_ns = 0;
    if (!a.lat_arg && ladder &&
        plateau_dram_latency_from_tsv(ladder, &ladder_cycles, &ladder_ns, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": latency ladder (from %s): %s\n", ladder_from, err);
        return 1;
    }
    sweep sw;
    if (sweep_read(a.data, &sw, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    inputs in;
    int rc = 1;
    if (read_inputs(&a, &sw, &in) == 0 &&
        choose_latency(&a, ladder, ladder_cycles, ladder_ns, &in) == 0)
    {
        const chart c = {&sw, &in, a.ceiling_GBps};
        rc = gp_draw(PROG, a.out, 900, 680, a.keep, "w", write_data, write_script, &c);
    }
    sweep_free(&sw);
    return rc;
}

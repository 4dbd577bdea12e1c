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
 * tuned kernel reaches.
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
#define MAX_WARPS_PER_SM 2048

static int usage_error(const char *msg, const char *arg)
{
    return cli_usage_error(PROG, "%s%s", msg, arg);
}

static void put_g(FILE *f, const char *sep, double v)
{
    fputs(sep, f);
    if (isnan(v)) fputs("nan", f);
    else fprintf(f, "%.6g", v);
}

int main(int argc, char **argv)
{
    const char *pos[4];
    const char *ladder_opt = NULL;
    double ceiling_GBps = NAN;
    int npos = 0, keep = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            return outfile_check_stdout(PROG);
        } else if (strcmp(a, "--keep") == 0) {
            keep = 1;
        } else if (strcmp(a, "--ladder") == 0 || strncmp(a, "--ladder=", 9) == 0) {
            if (a[8] == '=') ladder_opt = a + 9;
            else if (i + 1 < argc) ladder_opt = argv[++i];
            else ladder_opt = "";
            if (!*ladder_opt) return usage_error("--ladder needs a latency-ladder TSV", "");
        } else if (strcmp(a, "--ceiling") == 0 || strncmp(a, "--ceiling=", 10) == 0) {
            const char *v = a[9] == '=' ? a + 10 : i + 1 < argc ? argv[++i] : "";
            char perr[256] = "it is 0";
            if (!*v) return usage_error("--ceiling needs a bandwidth in GB/s", "");
            if (cli_parse_double("--ceiling", v, 0, 1e7, &ceiling_GBps, perr, sizeof perr) != 0 ||
                !(ceiling_GBps > 0))
                return cli_usage_error(PROG, "--ceiling must be a bandwidth in GB/s > 0; got %s (%s)", v,
                                       perr);
        } else if (a[0] == '-' && a[1] != 0 && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.') {
            /* "-5" is a (bad) LATENCY, reported as such below, not an option */
            return usage_error("unknown option ", a);
        } else if (npos < 4) {
            pos[npos++] = a;
        } else {
            return usage_error("too many arguments at ", a);
        }
    }
    if (npos < 2) return usage_error("want DATA [LATENCY] OUT", "");
    const char *data = pos[0], *out = pos[npos - 1], *lat_arg = npos >= 3 ? pos[1] : NULL;
    double latency_cycles = NAN;
    if (lat_arg) {
        char perr[256] = "it is 0";
        if (cli_parse_double("LATENCY", lat_arg, 0, MAX_LATENCY_CYCLES, &latency_cycles, perr,
                             sizeof perr) != 0 || !(latency_cycles > 0))
            return cli_usage_error(PROG, "LATENCY must be a number of cycles > 0; got %s (%s)",
                                   lat_arg, perr);
    }
    if (npos == 4)
        fprintf(stderr, PROG ": note: ignoring the third argument \"%s\" (kept for "
                "compatibility with plot_throughput.py)\n", pos[2]);
    if (!gp_format_for(out)) return usage_error("OUT must end in .svg, .png or .pdf: ", out);
    /* The ladder: --ladder, else $WARPLAT_LADDER (empty counts as unset). */
    const char *ladder = ladder_opt, *ladder_from = "--ladder";
    if (!ladder) {
        const char *env = getenv("WARPLAT_LADDER");
        if (env && *env) ladder = env, ladder_from = "WARPLAT_LADDER";
    }
    if (lat_arg && ladder_opt)
        fprintf(stderr, PROG ": note: LATENCY %s is given, so the ladder %s is not "
                "used\n", lat_arg, ladder_opt);

    char err[1024];
    /* Read the ladder before anything is written: a bad one leaves no file. */
    double ladder_cycles = NAN, ladder_ns = 0;
    if (!lat_arg && ladder &&
        plateau_dram_latency_from_tsv(ladder, &ladder_cycles, &ladder_ns, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": latency ladder (from %s): %s\n", ladder_from, err);
        return 1;
    }
    sweep sw;
    if (sweep_read(data, &sw, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    int rc = 1;
    gp_job *job = NULL;
    const char *need[] = {"sm_count", "peak_dram_GBps", "bytes_per_warp_load"};
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++) {
        double v = sweep_meta_num(&sw, need[k]);
        if (!(v > 0)) {
            fprintf(stderr, PROG ": %s lacks a positive '# %s<TAB>value' metadata "
                    "line, which the bound needs\n", data, need[k]);
            goto done;
        }
    }
    double sm_count = sweep_meta_num(&sw, "sm_count");
    double peak_GBps = sweep_meta_num(&sw, "peak_dram_GBps");
    double bytes_per_warp = sweep_meta_num(&sw, "bytes_per_warp_load");
    double clock_MHz = sweep_meta_num(&sw, "sm_clock_measured_MHz");
    const char *clock_kind = "measured";
    if (!(clock_MHz > 0)) {
        clock_MHz = sweep_meta_num(&sw, "sm_clock_nominal_khz") / 1000.0;
        clock_kind = "nominal";
        if (!(clock_MHz > 0)) {
            fprintf(stderr, PROG ": %s has neither sm_clock_measured_MHz nor "
                    "sm_clock_nominal_khz metadata\n", data);
            goto done;
        }
        fprintf(stderr, PROG ": note: %s has no measured SM clock; using the nominal "
                "%.6g MHz\n", data, clock_MHz);
    }
    if (!sweep_has_column(&sw, "warps_per_sm") || !sweep_has_column(&sw, "bw_GBps")) {
        fprintf(stderr, PROG ": %s needs the columns warps_per_sm and bw_GBps\n", data);
        goto done;
    }
    double wmax = 0, lo_p50 = INFINITY, lo_mean = INFINITY;
    size_t nvalid = 0;
    for (size_t i = 0; i < sw.npoints; i++) {
        const sweep_point *p = &sw.points[i];
        if (!(p->warps_per_sm > 0) || isnan(p->bw_GBps)) continue;
        if (p->warps_per_sm > MAX_WARPS_PER_SM) {
            fprintf(stderr, PROG ": %s: warps_per_sm %.6g is more than %d, more than any GPU "
                    "holds: not a sweep\n", data, p->warps_per_sm, MAX_WARPS_PER_SM);
            goto done;
        }
        nvalid++;
        wmax = fmax(wmax, p->warps_per_sm);
        if (p->lat_p50_cycles > 0) lo_p50 = fmin(lo_p50, p->lat_p50_cycles);
        if (p->lat_mean_cycles > 0) lo_mean = fmin(lo_mean, p->lat_mean_cycles);
    }
    if (nvalid == 0) {
        fprintf(stderr, PROG ": %s has no point with both warps_per_sm and bw_GBps\n",
                data);
        goto done;
    }
    char lat_label[160];
    if (lat_arg) {
        snprintf(lat_label, sizeof lat_label, "%.6g cycles (given)", latency_cycles);
    } else if (isfinite(ladder_cycles)) {
        latency_cycles = ladder_cycles;
        snprintf(lat_label, sizeof lat_label, "%.6g cycles: DRAM plateau of the latency ladder",
                 ladder_cycles);
        /* The plateau is in cycles of the clock the ladder ran at; DRAM time
         * is closer to constant in ns, so at a very different SM clock the
         * same cycles mean a different latency.  Say so rather than guess. */
        double ladder_MHz = ladder_ns > 0 ? ladder_cycles * 1000.0 / ladder_ns : 0;
        if (ladder_MHz > 0 && fabs(ladder_MHz / clock_MHz - 1.0) > 0.05)
            fprintf(stderr, PROG ": note: the ladder %s ran at about %.0f MHz, the "
                    "sweep at %.6g MHz: its DRAM latency of %.6g cycles (%.6g ns) is used in "
                    "cycles as it is\n", ladder, ladder_MHz, clock_MHz, ladder_cycles,
                    ladder_ns);
    } else if (isfinite(lo_p50)) {
        latency_cycles = lo_p50;
        snprintf(lat_label, sizeof lat_label, "%.6g cycles (lowest measured p50)", lo_p50);
    } else if (isfinite(lo_mean)) {
        latency_cycles = lo_mean;
        snprintf(lat_label, sizeof lat_label, "%.6g cycles (lowest measured mean)", lo_mean);
    } else {
        fprintf(stderr, PROG ": %s has no lat_p50_cycles or lat_mean_cycles to take "
                "the latency from; give LATENCY\n", data);
        goto done;
    }

    job = gp_job_new(out, 900, 680, err, sizeof err);
    if (!job) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    gp_job_keep_on_failure(job, keep);
    FILE *d = gp_job_add_data(job, ".dat", "dat", "w", err, sizeof err);
    if (!d) goto job_fail;

    fputs("# index 0: measured\n"
          "# warps_per_sm\toccupancy_pct\tbw_GBps\tbw_GBps_min\tbw_GBps_max\n", d);
    for (size_t i = 0; i < sw.npoints; i++) {
        const sweep_point *p = &sw.points[i];
        if (!(p->warps_per_sm > 0) || isnan(p->bw_GBps)) continue;
        /* A missing spread draws as a bar of zero length, not a lost point. */
        double lo = isnan(p->bw_GBps_min) ? p->bw_GBps : p->bw_GBps_min;
        double hi = isnan(p->bw_GBps_max) ? p->bw_GBps : p->bw_GBps_max;
        put_g(d, "", p->warps_per_sm);
        put_g(d, "\t", p->occupancy_pct);
        put_g(d, "\t", p->bw_GBps);
        put_g(d, "\t", lo);
        put_g(d, "\t", hi);
        fputc('\n', d);
    }
    fprintf(d, "\n\n# index 1: bound at %.6g cycles\n# warps_per_sm\tbound_GBps\n",
            latency_cycles);
    double knee = littles_warps_per_sm_for(1.0, peak_GBps, sm_count, bytes_per_warp, clock_MHz,
                                           latency_cycles);
    /* The bound is linear in warps per SM up to the knee and flat after it,
     * so whole warps plus the exact knee draw it exactly. */
    double wtop = fmax(wmax, 1.0);
    int knee_done = !(knee > 1.0 && knee < wtop);
    for (double w = 1.0;; w = fmin(w + 1.0, wtop)) {
        if (!knee_done && knee <= w) {
            if (knee < w) {
                put_g(d, "", knee);
                put_g(d, "\t", peak_GBps);
                fputc('\n', d);
            }
            knee_done = 1;
        }
        put_g(d, "", w);
        put_g(d, "\t", littles_bound_GBps(peak_GBps, sm_count, w, bytes_per_warp, clock_MHz,
                                          latency_cycles));
        fputc('\n', d);
        if (w >= wtop) break;
    }
    fputs("\n\n# index 2: bound at each point's own mean latency\n"
          "# warps_per_sm\tlat_mean_cycles\tbound_GBps\n", d);
    int nown = 0;
    for (size_t i = 0; i < sw.npoints; i++) {
        const sweep_point *p = &sw.points[i];
        if (!(p->warps_per_sm > 0) || !(p->lat_mean_cycles > 0)) continue;
        put_g(d, "", p->warps_per_sm);
        put_g(d, "\t", p->lat_mean_cycles);
        put_g(d, "\t", littles_bound_GBps(peak_GBps, sm_count, p->warps_per_sm, bytes_per_warp,
                                          clock_MHz, p->lat_mean_cycles));
        fputc('\n', d);
        nown++;
    }
    if (!nown) fputs("nan\tnan\tnan\n", d); /* keeps index 2 present */

    FILE *s = gp_job_script(job, err, sizeof err);
    if (!s) goto job_fail;
    const char *kernel = sweep_meta_get(&sw, "kernel");
    const char *device = sweep_meta_get(&sw, "device_name");
    char t1[300], t2[300], tb[200], tp[120];
    snprintf(t1, sizeof t1, "%s: throughput vs occupancy, %.6g B per warp in flight",
             kernel ? kernel : "(kernel?)", bytes_per_warp);
    snprintf(t2, sizeof t2, "%s, %.6g SMs, SM clock %.6g MHz (%s)",
             device ? device : "(device?)", sm_count, clock_MHz, clock_kind);
    snprintf(tb, sizeof tb, "Little's law bound at %s", lat_label);
    snprintf(tp, sizeof tp, "DRAM peak %.6g GB/s", peak_GBps);
    fputs("set title ", s);
    gp_put_str(s, t1);
    fputs(".\"\\n\".", s);
    gp_put_str(s, t2);
    fprintf(s, "\npeak_GBps = %.17g\n", peak_GBps);
    fputs("set xlabel 'warps per SM'\n"
          "set ylabel 'bandwidth (GB/s)'\n"
          "set yrange [0:peak_GBps * 1.1]\n", s);
    fprintf(s, "set xrange [0:%.6g]\n", wtop + 1);
    fputs("set grid\n"
          "set key below center Left reverse font ',10' height 1\n"
          "plot dat index 1 using 1:2 with lines lw 2 lc rgb '#1f77b4' title ", s);
    gp_put_str(s, tb);
    fputs(", \\\n     dat index 2 using 1:3 with points pt 6 ps 1.5 lc rgb '#2ca02c' title ", s);
    gp_put_str(s, "bound at each point's measured mean latency");
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

    if (gp_job_finish(job, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        goto done;
    }
    rc = 0;
    goto done;
job_fail:
    fprintf(stderr, PROG ": %s\n", err);
    gp_job_abort(job);
done:
    sweep_free(&sw);
    return rc;
}

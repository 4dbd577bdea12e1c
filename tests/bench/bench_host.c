/*
 * bench_host.c - the host's work on a sweep point's probes, timed on a
 * synthetic launch (tests/unit/synthprobes.h) of N = 1e8 floats: 3.1 M warp
 * records, 132 SMs, every block recorded.  What it times is what
 * src/engine/sweep.c and log.c do with a point's probes: the SM clock, the
 * in-flight closure, the latency summary and the max concurrency, then the
 * compressed log (logjob).  It prints each result, so that two builds can
 * be compared for identical numbers, and the wall time of each step, then
 * of the clock followed by the other three at once (a thread each, as
 * sweep.c runs them).
 *
 *   make bench-host && build/tests/bench_host [records] [seed] [reps]
 *
 * Each step runs reps times (default 5) and the fastest is reported: the
 * machine may be shared.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "logjob.h"
#include "probeset.h"
#include "../unit/synthprobes.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* crc32 and length of the log's decompressed bytes */
static int log_crc(const char *path, unsigned long *crc, unsigned long long *len)
{
    gzFile g = gzopen(path, "rb");
    if (!g) return -1;
    static unsigned char buf[1 << 20];
    int k;
    *crc = crc32(0L, Z_NULL, 0);
    *len = 0;
    while ((k = gzread(g, buf, sizeof buf)) > 0) {
        *crc = crc32(*crc, buf, (unsigned)k);
        *len += (unsigned long long)k;
    }
    gzclose(g);
    return k < 0 ? -1 : 0;
}

/* The three figures at once, a thread each, as sweep.c computes them. */
typedef struct figs {
    const warp_probe *p;
    uint64_t n, gt_base;
    uint32_t wpb;
    inflight_params prm;
    inflight_result o;
    lat_summary ls;
    long conc;
} figs;

static void *fig_inflight(void *a)
{
    figs *f = a;
    probeset_inflight(f->p, f->n, f->wpb, 1, f->gt_base, &f->prm, &f->o, NULL, 0);
    return NULL;
}

static void *fig_summary(void *a)
{
    figs *f = a;
    probeset_summary(f->p, f->n, f->wpb, 1, &f->ls, NULL, 0);
    return NULL;
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 3125000;
    const uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    const int reps = argc > 3 ? atoi(argv[3]) : 5;
    const uint32_t wpb = 4, slots = 8;
    const uint64_t gt_base = (1ull << 40) - 12345;
    warp_probe *p = synth_probes(n, wpb, slots, seed, gt_base);
    if (!p) return 1;
    printf("records\t%llu\tcores\t%ld\n", (unsigned long long)n, sysconf(_SC_NPROCESSORS_ONLN));

    double t_clk = 1e9, t_infl = 1e9, t_sum = 1e9, t_conc = 1e9, t_log = 1e9, t_once = 1e9, t;
    double clk = 0;
    inflight_result o;
    lat_summary ls;
    long conc = 0;
    inflight_params prm;
    char err[1400];
    for (int k = 0; k < reps; k++) {
        t = now_s();
        clk = probeset_clock_MHz(p, n, gt_base, 20000);
        t_clk = fmin(t_clk, now_s() - t);

        t = now_s();
        prm = (inflight_params){128, slots, clk, 1.5};
        if (probeset_inflight(p, n, wpb, 1, gt_base, &prm, &o, err, sizeof err) != 0) return 1;
        t_infl = fmin(t_infl, now_s() - t);

        t = now_s();
        if (probeset_summary(p, n, wpb, 1, &ls, err, sizeof err) != 0) return 1;
        t_sum = fmin(t_sum, now_s() - t);

        t = now_s();
        conc = probeset_max_concurrency(p, n);
        t_conc = fmin(t_conc, now_s() - t);

        t = now_s();
        figs f = {.p = p, .n = n, .gt_base = gt_base, .wpb = wpb, .prm = prm};
        f.prm.sm_clock_MHz = probeset_clock_MHz(p, n, gt_base, 20000);
        pthread_t a, b;
        pthread_create(&a, NULL, fig_inflight, &f);
        pthread_create(&b, NULL, fig_summary, &f);
        f.conc = probeset_max_concurrency(p, n);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
        t_once = fmin(t_once, now_s() - t);
        if (f.conc != conc || memcmp(&f.ls, &ls, sizeof ls) != 0 || memcmp(&f.o, &o, sizeof o) != 0)
            return 1;
    }

    char infl[512];
    inflight_format(infl, sizeof infl, &o);
    printf("clock_MHz\t%.17g\ninflight\t%s\tblocks %llu\twindows %llu\n", clk, infl,
           (unsigned long long)o.blocks, (unsigned long long)o.windows);
    printf("summary\t%llu\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%llu\t%llu\n",
           (unsigned long long)ls.count, ls.mean_cycles, ls.p5_cycles, ls.p50_cycles,
           ls.p95_cycles, ls.p99_cycles, (unsigned long long)ls.min_cycles,
           (unsigned long long)ls.max_cycles);
    printf("max_concurrency\t%ld\n", conc);

    /* the log: a header as the engine's, the probes handed over */
    warplog_header h;
    warplog_header_init(&h);
    snprintf(h.experiment, sizeof h.experiment, "readonly");
    snprintf(h.kernel, sizeof h.kernel, "baseline");
    h.record_count = n;
    h.warps_per_block = wpb;
    h.records_per_warp = 1;
    h.sample_blocks = 1;
    h.blocks = n / wpb;
    h.sm_count = 132;
    h.gtimer_base_ns = gt_base;
    char path[256];
    snprintf(path, sizeof path, "/tmp/bench_host.%d.bin", (int)getpid());
    for (int k = 0; k < reps; k++) {
        warp_probe *q = malloc(n * sizeof *q);   /* the job takes its probes */
        if (!q) return 1;
        memcpy(q, p, n * sizeof *q);
        t = now_s();
        logjob *j = logjob_start(path, &h, q, 1, err, sizeof err);
        if (!j || logjob_finish(j, err, sizeof err) != 0) {
            fprintf(stderr, "bench_host: %s\n", err);
            return 1;
        }
        t_log = fmin(t_log, now_s() - t);
    }
    free(p);
    unsigned long crc;
    unsigned long long len;
    if (log_crc(path, &crc, &len) != 0) return 1;
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    const long zbytes = ftell(f);
    fclose(f);
    unlink(path);
    printf("log\tdecompressed %llu bytes crc32 %08lx\n", len, crc);
    fprintf(stderr, "compressed %ld bytes\n", zbytes);
    fprintf(stderr, "time_s\tclock %.4f\tinflight %.4f\tsummary %.4f\tconcurrency %.4f\t"
            "point_total %.4f\tpoint_at_once %.4f\tlog %.4f\n", t_clk, t_infl, t_sum, t_conc,
            t_clk + t_infl + t_sum + t_conc, t_once, t_log);
    return 0;
}

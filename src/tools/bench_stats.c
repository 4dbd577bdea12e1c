/*
 * bench_stats - is bin/latency_stats about as fast as decompressing the log?
 *
 *   bench_stats LOG                   time both on LOG, print the ratio
 *   bench_stats --make RECORDS LOG    first write a synthetic log of RECORDS
 *                                     warps (3.1e6 is N = 1e8 at one float
 *                                     per thread, every block recorded)
 *
 * Target: `bin/latency_stats LOG` takes at most 1.5 x `zcat LOG` (best of 3
 * runs each, both as processes, so that a cold page cache does not decide).
 * The synthetic log is a plausible readonly run: 132 SMs, 4 warps per block,
 * blocks dealt to SMs in turn, each SM's clock with its own offset,
 * latencies 450..1050 cycles with a 5 % tail up to 600 more, ~400 cycles
 * between blocks on an SM; it is the same for the same RECORDS (a fixed
 * seed).  Exit status: 0 within the target, 1 above it or a runtime failure,
 * 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "warplog.h"

#define PROG "bench_stats"
#define TARGET 1.5

extern char **environ;

static uint64_t rng = 42;
/* splitmix64: a fixed sequence for a fixed seed */
static double uniform(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

static int make_log(const char *path, uint64_t n)
{
    enum { NSM = 132, WPB = 4, CHUNK = 65536 };
    warplog_header h;
    warplog_header_init(&h);
    h.record_count = n;
    h.chunk_records = CHUNK;
    snprintf(h.experiment, sizeof h.experiment, "readonly");
    snprintf(h.kernel, sizeof h.kernel, "baseline");
    snprintf(h.device_name, sizeof h.device_name, "synthetic (bench_stats)");
    snprintf(h.date, sizeof h.date, "2026-01-01T00:00:00Z");
    h.warps_per_block = WPB;
    h.threads_per_block = 32 * WPB;
    h.n_elems = n * 32;
    h.blocks = (n + WPB - 1) / WPB;
    h.elem_bytes = 4;
    h.bytes_per_warp_load = 128;
    h.stride = 1;
    h.reps = 1;
    h.loads_per_warp = 1;
    h.sm_count = NSM;
    h.sm_clock_nominal_khz = 1980000;
    h.sm_clock_measured_MHz = 1980; /* no note from latency_stats on every run */
    h.peak_dram_GBps = 3352.3;
    char err[512];
    warplog_writer *w = warplog_writer_open(path, &h, 1, err, sizeof err);
    if (!w) { fprintf(stderr, PROG ": %s\n", err); return -1; }
    static warp_record buf[CHUNK];
    uint64_t t[NSM];
    for (int s = 0; s < NSM; s++) t[s] = 1000000ull * (uint64_t)(s + 1) + (uint64_t)(uniform() * 5000);
    size_t k = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t b = i / WPB, wi = i % WPB, sm = b % NSM;
        if (wi == 0) t[sm] += 400 + (uint64_t)(uniform() * 50);
        const uint64_t st = t[sm] + wi * 3 + (uint64_t)(uniform() * 8);
        uint64_t lat = 450 + (uint64_t)(uniform() * 600);
        if (uniform() < 0.05) lat += (uint64_t)(uniform() * 600);
        buf[k].start_clk = st;
        buf[k].end_clk = st + lat;
        buf[k].gtimer_ns = 5000000 + i * 5;
        buf[k].block = (uint32_t)b;
        buf[k].warp = (uint16_t)wi;
        buf[k].smid = (uint16_t)sm;
        if (++k == CHUNK || i + 1 == n) {
            if (warplog_writer_put(w, buf, k, err, sizeof err) != 0) {
                warplog_writer_abort(w);
                fprintf(stderr, PROG ": %s\n", err);
                return -1;
            }
            k = 0;
        }
    }
    if (warplog_writer_close(w, err, sizeof err) != 0) { fprintf(stderr, PROG ": %s\n", err); return -1; }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Wall seconds of one run of argv with stdout to /dev/null; -1 on failure. */
static double run(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    const double t0 = now_s();
    const int e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0) { fprintf(stderr, PROG ": cannot run %s: %s\n", argv[0], strerror(e)); return -1; }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, PROG ": %s failed\n", argv[0]);
        return -1;
    }
    return now_s() - t0;
}

static double best_of_3(char *const argv[])
{
    double best = -1;
    for (int i = 0; i < 3; i++) {
        const double t = run(argv);
        if (t < 0) return -1;
        if (best < 0 || t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    uint64_t make = 0;
    int make_given = 0;
    const cli_opt opts[] = {
        {"--make", 0, CLI_COUNT, 0, 1ull << 32, 0, 0, &make, "RECORDS",
         "first write a synthetic log of RECORDS warps to LOG", 0, &make_given},
        CLI_END};
    const cli_opt *const tables[] = {opts};
    cli_parse_result r;
    const int prc = cli_parse(PROG, argc, argv, tables, 1, 1, &r);
    if (prc != 0) return prc;
    if (r.help) {
        printf("usage: bench_stats [--make RECORDS] LOG\n"
               "  Times bin/latency_stats LOG against zcat LOG (best of 3 each); exit 1 when\n"
               "  latency_stats takes more than %.1f x as long.\n", TARGET);
        cli_print_options(stdout, opts);
        return outfile_check_stdout(PROG);
    }
    if (r.npos != 1) return cli_usage_error(PROG, "LOG is missing");
    char *log = r.pos[0];
    if (make_given && make_log(log, make) != 0) return 1;
    if (access(log, R_OK) != 0) {
        fprintf(stderr, PROG ": %s: %s (write one with --make RECORDS)\n", log, strerror(errno));
        return 1;
    }
    char zcat[] = "zcat", stats[] = "bin/latency_stats";
    char *za[] = {zcat, log, NULL}, *la[] = {stats, log, NULL};
    const double zc = best_of_3(za), ls = best_of_3(la);
    if (zc <= 0 || ls < 0) return 1;
    const double ratio = ls / zc;
    printf("log %s\nzcat            %.3f s\nlatency_stats   %.3f s\nratio           %.2f (target <= %.1f)\n",
           log, zc, ls, ratio, TARGET);
    if (outfile_check_stdout(PROG) != 0) return 1;
    return ratio <= TARGET ? 0 : 1;
}

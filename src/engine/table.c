/*
 * table.c - the summary: the '#' lines that say which GPU and how, then one
 * row per variant and configuration (the columns: columns.c).  It goes to
 * stdout, or to --table FILE through outfile (a unique temporary, removed on
 * a signal or at exit, renamed when whole).
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"

void eng_table_open(eng_run *r)
{
    if (!r->opt.table) {
        r->tbl = stdout;
        return;
    }
    char err[1400];
    r->tbl = outfile_open(&r->table_out, r->opt.table, "w", err, sizeof err);
    if (!r->tbl) eng_die(r, "%s", err);
    /* any exit before the commit (eng_die, a CUDA error) leaves no table */
    atexit(outfile_remove_temporaries);
}

int eng_table_close(eng_run *r, int keep)
{
    if (r->tbl == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "%s: error writing the table to stdout: %s\n", r->prog, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!r->tbl) return -1;
    r->tbl = NULL;
    if (!keep) {
        outfile_abort(&r->table_out);
        return 0;
    }
    char err[1400];
    if (outfile_commit(&r->table_out, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", r->prog, err);
        return -1;
    }
    return 0;
}

void eng_print_meta(const eng_run *r)
{
    FILE *t = r->tbl;
    const warplog_header *d = &r->dev;
    const int probes = !r->profile_only && !r->opt.no_probes;
    fprintf(t, "# device\t%s (sm_%d%d, %d SMs, L2 %u KiB)\n", d->device_name, d->cc_major,
            d->cc_minor, d->sm_count, d->l2_bytes >> 10);
    fprintf(t, "# peak_dram_GBps\t%.1f (memory clock %u MHz x %u-bit bus x 2)\n", d->peak_dram_GBps,
            d->mem_clock_khz / 1000, d->bus_width_bits);
    fprintf(t, "# sm_clock_nominal_MHz\t%u\n", d->sm_clock_nominal_khz / 1000);
    fprintf(t, "# build\t%s (%s), toolkit %s\n", r->prog,
            probes ? "clean twin and probes" : "clean kernels only", WARPLOG_TOOLKIT_VERSION);
    fprintf(t, "# l2_fetch_granularity_bytes\t%zu\n", r->l2_fetch_now);
    /* the device's facts as key/value lines (the log header's keys), for the
     * tools that read this table: sm_count, peak_dram_GBps, ... */
    fprintf(t, "# experiment\t%s\n# device_name\t%s\n# device_ordinal\t%d\n"
               "# compute_capability\t%d.%d\n# sm_count\t%d\n# l2_bytes\t%u\n"
               "# bus_width_bits\t%u\n# mem_clock_khz\t%u\n# peak_dram_GBps\t%.6g\n"
               "# sm_clock_nominal_khz\t%u\n# max_threads_per_sm\t%u\n# max_smem_per_sm\t%u\n"
               "# driver_version\t%d\n# runtime_version\t%d\n# date\t%s\n# toolkit_version\t%s\n"
               "# host_arch\t%s\n# ceiling_GBps\t%.6g\n",
            r->fam->name, d->device_name, d->device_ordinal, d->cc_major, d->cc_minor, d->sm_count,
            d->l2_bytes, d->bus_width_bits, d->mem_clock_khz, d->peak_dram_GBps,
            d->sm_clock_nominal_khz, d->max_threads_per_sm, d->max_smem_per_sm,
            d->driver_version, d->runtime_version, d->date, d->toolkit_version, d->host_arch,
            r->opt.ceiling);
    fprintf(t, "# kernel_ms\tthe clean twin (no probes): median of --reps launches; bw_GBps = "
               "(bytes read + written) / kernel_ms\n");
    if (probes)
        fprintf(t, "# instr_ms\tthe instrumented kernel, timed interleaved with the clean twin; "
                   "overhead_pct = instr_ms / kernel_ms - 1; sample K = one block in K "
                   "recorded\n");
    eng_columns_header(t);
}

/* test_engine_columns.c - the summary's column table (src/engine/columns.c)
 * writes the bytes the engine wrote before the table existed: the header and
 * the three kinds of row (probed, not probed, failed validation) compared
 * with the format strings they replace, and --list-columns names the same
 * columns as the header, one meaning each.
 *
 * columns.c is plain C but lives with the engine, which only CUDA programs
 * link; the test compiles it in. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../src/engine/columns.c"

/* The header and rows as engine.c wrote them (commit 9a07e12), and after
 * them the three columns of the adaptive launch count and overhead_met
 * (issue 37) and the --batch-file line of the row (batch_line). */
static const char *OLD_HEADER =
    "kernel\tn\tsmem_bytes\twarps_per_block\tblocks_per_sm\tkernel_ms\tkernel_ms_min\t"
    "kernel_ms_max\tbw_GBps\tpct_peak\tsm_clock_MHz\tlat_mean_cycles\tlat_p50_cycles\t"
    "lat_p95_cycles\tvalid\tlog\tconfig\tsample\tinstr_ms\tinstr_ms_min\tinstr_ms_max\t"
    "overhead_pct\trecords\tbytes_read\tbytes_written\tkernel_fn\tregs\tblocks\tflops\t"
    "gflops\tlaunches\tkernel_ms_ci_lo\tkernel_ms_ci_hi\toverhead_met\tbatch_line\n";

static void old_ok_row(FILE *f, const eng_row *r)
{
    char smp[16] = "-", ims[3][24] = {"nan", "nan", "nan"}, ovh[24] = "nan", lat[3][24];
    if (r->probed) {
        snprintf(smp, sizeof smp, "%u", r->sample);
        snprintf(ims[0], sizeof ims[0], "%.4f", r->instr_ms);
        snprintf(ims[1], sizeof ims[1], "%.4f", r->instr_ms_min);
        snprintf(ims[2], sizeof ims[2], "%.4f", r->instr_ms_max);
        snprintf(ovh, sizeof ovh, "%.2f", r->overhead_pct);
        snprintf(lat[0], sizeof lat[0], "%.1f", r->lat_mean_cycles);
        snprintf(lat[1], sizeof lat[1], "%.1f", r->lat_p50_cycles);
        snprintf(lat[2], sizeof lat[2], "%.1f", r->lat_p95_cycles);
    } else {
        for (int i = 0; i < 3; i++) snprintf(lat[i], sizeof lat[i], "nan");
    }
    fprintf(f, "%s\t%llu\t%u\t%u\t%d\t%.4f\t%.4f\t%.4f\t%.1f\t%.1f\t%.0f\t%s\t%s\t%s\tok\t%s\t"
               "%s\t%s\t%s\t%s\t%s\t%s\t%llu\t%.0f\t%.0f\t%s\t%d\t%llu\t%.0f\t%.1f\t%llu\t%.4f\t%.4f\t%s\t%llu\n",
            r->kernel, (unsigned long long)r->n, r->smem_bytes, r->warps_per_block, r->blocks_per_sm,
            r->kernel_ms, r->kernel_ms_min, r->kernel_ms_max, r->bw_GBps, r->pct_peak, r->sm_clock_MHz,
            lat[0], lat[1], lat[2], r->log, r->config, smp, ims[0], ims[1], ims[2], ovh,
            (unsigned long long)r->records, r->bytes_read, r->bytes_written, r->kernel_fn, r->regs,
            (unsigned long long)r->blocks, r->flops, r->gflops, (unsigned long long)r->launches,
            r->kernel_ms_ci_lo, r->kernel_ms_ci_hi, r->probed ? (r->overhead_met ? "1" : "0") : "-",
            (unsigned long long)r->batch_line);
}

static void old_fail_row(FILE *f, const eng_row *r)
{
    fprintf(f, "%s\t%llu\t%u\t%u\t%d\tnan\tnan\tnan\tnan\tnan\tnan\tnan\tnan\tnan\tFAIL\t-\t%s\t"
               "-\tnan\tnan\tnan\tnan\t0\t%.0f\t%.0f\t%s\t%d\t%llu\t%.0f\tnan\t-\tnan\tnan\t-\t%llu\n",
            r->kernel, (unsigned long long)r->n, r->smem_bytes, r->warps_per_block, r->blocks_per_sm,
            r->config, r->bytes_read, r->bytes_written, r->kernel_fn, r->regs,
            (unsigned long long)r->blocks, r->flops, (unsigned long long)r->batch_line);
}

/* What f wrote (f from open_memstream), as a string the caller frees. */
typedef struct mem {
    char *buf;
    size_t len;
    FILE *f;
} mem;
static void mem_open(mem *m) { m->buf = NULL, m->len = 0, m->f = open_memstream(&m->buf, &m->len); }
static char *mem_close(mem *m)
{
    fclose(m->f);
    return m->buf;
}

static void same_row(const eng_row *r, int failed, const char *what)
{
    mem a, b;
    mem_open(&a);
    mem_open(&b);
    if (failed) old_fail_row(a.f, r); else old_ok_row(a.f, r);
    eng_columns_row(b.f, r);
    char *want = mem_close(&a), *got = mem_close(&b);
    check_count++;
    if (strcmp(want, got) != 0) {
        check_failed++;
        fprintf(stderr, "%s: %s row differs:\n want %s got  %s", __FILE__, what, want, got);
    }
    free(want);
    free(got);
}

static eng_row probed_row(void)
{
    eng_row r = {0};
    r.timed = r.probed = 1;
    r.kernel = "baseline";
    r.n = 100000000;
    r.smem_bytes = 49152;
    r.warps_per_block = 4;
    r.blocks_per_sm = 4;
    r.kernel_ms = 0.14862;
    r.kernel_ms_min = 0.148123;
    r.kernel_ms_max = 0.15;
    r.bw_GBps = 2691.35;
    r.pct_peak = 80.349;
    r.sm_clock_MHz = 1755.4;
    r.lat_mean_cycles = 1234.56;
    r.lat_p50_cycles = 1100.05;
    r.lat_p95_cycles = 2048.0;
    r.valid = "ok";
    r.log = "data/readonly_baseline_4.bin";
    r.config = "-";
    r.sample = 16;
    r.instr_ms = 0.15123;
    r.instr_ms_min = 0.15;
    r.instr_ms_max = 0.1601;
    r.overhead_pct = 1.756;
    r.records = 65536;
    r.bytes_read = 4e8;
    r.bytes_written = 0;
    r.kernel_fn = "readonly_baseline";
    r.regs = 16;
    r.blocks = 781250;
    r.flops = 0;
    r.gflops = 0;
    r.launches = 7;
    r.kernel_ms_ci_lo = 0.14801;
    r.kernel_ms_ci_hi = 0.14913;
    r.overhead_met = 1;
    return r;
}

int main(void)
{
    mem h;
    mem_open(&h);
    eng_columns_header(h.f);
    char *header = mem_close(&h);
    CHECK(strcmp(header, OLD_HEADER) == 0);

    eng_row r = probed_row();
    same_row(&r, 0, "probed");
    r.overhead_pct = -0.004;   /* a probe kernel a hair faster: "-0.00", as printf writes it */
    r.config = "stride=8";
    r.bw_GBps = INFINITY;
    same_row(&r, 0, "probed, odd values");

    /* not probed: the throughput-only families, --no-probes, _profile */
    r = probed_row();
    r.probed = 0;
    r.sm_clock_MHz = 0;
    r.log = "-";
    r.records = 0;
    r.flops = 2.0 * 8192.0 * 8192.0 * 8192.0;
    r.gflops = r.flops / (r.kernel_ms * 1e-3) / 1e9;
    r.kernel_fn = "-";
    r.regs = 0;
    same_row(&r, 0, "not probed");

    /* failed validation: no times, whatever the fields hold */
    r = probed_row();
    r.timed = r.probed = 0;
    r.valid = "FAIL";
    r.log = "-";
    r.records = 0;
    r.config = "dsize=1024,tile=32";
    same_row(&r, 1, "failed");

    /* --list-columns: the header's names, in order, each with one meaning */
    mem l;
    mem_open(&l);
    eng_columns_list(l.f);
    char *list = mem_close(&l);
    char names[2048] = "";
    int lines = 0, bad = 0;
    for (char *save = NULL, *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        if (!tab || tab[1] == 0 || strchr(tab + 1, '\t')) bad++;
        if (tab) *tab = 0;
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", lines ? "\t" : "", line);
        lines++;
    }
    strcat(names, "\n");
    CHECK_EQ_I(bad, 0);
    CHECK_EQ_I(lines, 35);
    CHECK(strcmp(names, OLD_HEADER) == 0);
    free(list);
    free(header);
    return check_report("test_engine_columns");
}

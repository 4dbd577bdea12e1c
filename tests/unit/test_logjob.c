/* test_logjob.c - background log writers: whole logs, or none at all. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include "check.h"
#include "testfiles.h"
#include "logjob.h"

static char dir[256];

static warp_probe *probes(uint64_t n)
{
    warp_probe *p = malloc(n * sizeof *p);
    for (uint64_t i = 0; i < n; i++) {
        p[i].start_lo = (uint32_t)(1000 + 3 * i);
        p[i].lat_smid = (uint32_t)(500 + i % 97) | (uint32_t)(i % 132) << 24;
        p[i].gtimer_lo = (uint32_t)(10 * i);
        p[i].block = (uint32_t)(i / 4) * 8;   /* every 8th block, 4 warps */
    }
    return p;
}

static void header(warplog_header *h, uint64_t n)
{
    warplog_header_init(h);
    snprintf(h->experiment, sizeof h->experiment, "test");
    snprintf(h->kernel, sizeof h->kernel, "baseline");   /* a log names both (warplog_name_check) */
    h->record_count = n;
    h->warps_per_block = 4;
    h->records_per_warp = 1;
    h->sample_blocks = 8;
    h->blocks = n / 4 * 8;
    h->sm_count = 132;
}

static int exists(const char *p) { struct stat st; return stat(p, &st) == 0; }

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_logjob.%d", (int)getpid());
    mkdir(dir, 0777);
    char path[512], err[1400];
    warplog_header h;

    /* a whole log: records expanded with the block from the probe */
    const uint64_t n = 200000;
    snprintf(path, sizeof path, "%s/a.bin", dir);
    header(&h, n);
    logjob *j = logjob_start(path, &h, probes(n), 1, err, sizeof err);
    CHECK(j != NULL);
    CHECK(logjob_finish(j, err, sizeof err) == 0);
    CHECK(exists(path));
    warplog_reader *r = warplog_reader_open(path, err, sizeof err);
    CHECK(r != NULL);
    warp_record rec[8];
    CHECK_EQ_I(warplog_reader_next(r, rec, 8, err, sizeof err), 8);
    CHECK_EQ_U(rec[5].block, 8);     /* probe 5: block (5/4)*8 */
    CHECK_EQ_U(rec[5].warp, 1);
    CHECK_EQ_U(warplog_reader_header(r)->sample_blocks, 8);
    warplog_reader_close(r);

    /* a failing writer leaves neither the log nor its .tmp */
    snprintf(path, sizeof path, "%s/b.bin", dir);
    logjob_test_fail_after(65536);
    j = logjob_start(path, &h, probes(n), 1, err, sizeof err);
    CHECK(logjob_finish(j, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "injected failure");
    CHECK(!exists(path) && !test_count_tmp(dir));

    /* abort_all while jobs run: no .tmp remains; a job that finished first
     * keeps its whole log */
    const uint64_t big = 3000000;
    char p2[512], p3[512];
    snprintf(p2, sizeof p2, "%s/c.bin", dir);
    snprintf(p3, sizeof p3, "%s/d.bin", dir);
    header(&h, big);
    logjob_start(p2, &h, probes(big), 9, err, sizeof err);
    logjob_start(p3, &h, probes(big), 9, err, sizeof err);
    logjob_abort_all();
    CHECK(!test_count_tmp(dir));
    if (exists(p2)) { /* finished before the stop: must be whole */
        r = warplog_reader_open(p2, err, sizeof err);
        CHECK(r != NULL);
        long k, tot = 0;
        const warp_record *rr;
        while ((k = warplog_reader_chunk(r, &rr, err, sizeof err)) > 0) tot += k;
        CHECK_EQ_I(tot, (long)big);
        warplog_reader_close(r);
    }
    /* a log path that cannot be created */
    header(&h, 10);
    j = logjob_start("/nonexistent-dir/x.bin", &h, probes(10), 1, err, sizeof err);
    CHECK(logjob_finish(j, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "/nonexistent-dir/x.bin");

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return check_report("test_logjob");
}

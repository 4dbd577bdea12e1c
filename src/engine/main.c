/*
 * main.c - every family's program: eng_main (contract: engine.h) run on the
 * family's table.  Built twice: PROFILE_ONLY=0 (./NAME) and 1 (./NAME_profile:
 * clean kernels only, for Nsight Compute).
 *
 * eng_main makes one eng_run at start-up (run.c) and hands it down
 * (eng_run.h): one device runs here, in turn every selected variant
 * (variant.c), the sweep (sweep.c) or the batch (batch.c); several devices
 * run as one process each (devices.c).  The top floor of the engine: nothing
 * in it calls back up here.
 */
#include "eng_run.h"

#include <stdlib.h>

#ifndef PROFILE_ONLY
#define PROFILE_ONLY 0
#endif

/* Every selected variant and configuration, or the sweep; failures counted. */
static int run_all(eng_run *r, int argc, char **argv)
{
    int failures = 0;
    eng_table_open(r);
    if (r->opt.sweep) {
        eng_run_sweep(r, eng_first_selected(r), argc, argv);
    } else {
        eng_print_meta(r);
        fflush(r->tbl);
        failures += eng_run_selected(r);
    }
    eng_trace(r, "measured", r->fam->name);
    failures += eng_finish_logs(r);
    eng_trace(r, "logs", r->fam->name);
    if (eng_table_close(r, 1) != 0) failures++;   /* whole: every row, FAIL rows too */
    return failures;
}

/* On the one GPU chosen: set up, run, tear down. */
static int run_on_device(eng_run *r, int argc, char **argv, int ordinal)
{
    const eng_opts *o = &r->opt;
    int rc = eng_open_device(r, ordinal);
    if (rc) return rc;
    eng_trace(r, "device", r->dev.device_name);
    eng_lock_device(r);
    if ((rc = eng_list_on_device(r)) >= 0) return rc;
    if (o->batch) return eng_run_batch(r, argc, argv);
    if ((rc = eng_check_configs(r)) != 0) return rc;
    if ((rc = eng_device_begin(r)) != 0) return rc;
    eng_trace(r, "setup", r->fam->name);
    const int failures = run_all(r, argc, argv);
    eng_device_end(r);
    eng_trace(r, "end", r->fam->name);
    return failures ? 1 : 0;
}

int eng_main(const eng_family *f, int argc, char **argv, int profile_only)
{
    eng_run *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "%s: out of host memory\n", f->name);
        return 1;
    }
    r->fam = f;
    eng_trace_start(r);
    r->profile_only = profile_only;
    snprintf(r->prog, sizeof r->prog, "%s%s", f->name, profile_only ? "_profile" : "");
    int done, ords[64], nord = 0;
    int rc = eng_configure_run(r, argc, argv, &done);
    if (!done && r->opt.batch && (rc = eng_batch_check(r, argc, argv)) != 0) done = 1;
    if (!done && (rc = eng_parse_devices(r, ords, &nord)) != 0) done = 1;
    if (!done && nord > 1 && r->opt.batch) {
        done = 1;
        rc = cli_usage_error(r->prog, "--batch-file runs on one --device");
    }
    if (!done && nord > 1) {
        done = 1;
        if (eng_gpu_lists_asked(&r->opt))
            rc = cli_usage_error(r->prog, "this takes one --device");
        else if (eng_dir_usable(r, r->opt.out_dir, "--out") != 0)
            rc = 1;
        else
            rc = eng_run_on_devices(r, argc, argv, ords, nord);
    }
    if (!done) rc = run_on_device(r, argc, argv, ords[0]);
    free(r);
    return rc;
}

int main(int argc, char **argv) { return eng_main(&eng_family_table, argc, argv, PROFILE_ONLY); }

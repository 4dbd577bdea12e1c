/*
 * run.c - a run's start-up (contract: eng_run.h): the command line checked
 * before any GPU is touched, the listings that exit early, the device's
 * facts, and what a run holds on the device (the family's inputs, the probe
 * buffer, the events) set up and taken down.  eng_main (main.c) and the
 * batch (batch.c) both start their runs here.
 *
 * Plain C11 against the CUDA runtime API.  Kernels are reached only through
 * the family's hooks; the engine itself launches nothing but what those
 * hooks launch, and sets kernel attributes through the function pointers the
 * family hands out.
 */
#define _GNU_SOURCE
#include "eng_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "devinfo.h"

/* ------------------------------------------------------------ start-up */

static int print_done(void) { return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1; }

/* The printers of ENG_LISTS_HOST and ENG_LISTS_GPU: 0, or 1 when stdout failed. */
static int print_positional(const eng_run *r)
{
    for (int i = 0; r->fam->posnames[i]; i++) printf("%s\n", r->fam->posnames[i]);
    return print_done();
}

static int print_kernels(const eng_run *r)
{
    const eng_family *f = r->fam;
    for (int v = 0; v < f->nvariants; v++) printf("%s\t%s\n", f->variants[v].name, f->variants[v].about);
    return print_done();
}

static int print_probed(const eng_run *r)
{
    for (int v = 0; v < r->fam->nvariants; v++)
        if (eng_variant_probed(r, v)) printf("%s\n", r->fam->variants[v].name);
    return print_done();
}

static int print_columns(const eng_run *r)
{
    (void)r;
    eng_columns_list(stdout);
    return print_done();
}

static int print_device_info(const eng_run *r)
{
    printf("key\tvalue\n");
    warplog_header_print(stdout, &r->dev, "");
    return print_done();
}

#define LIST_IF_ASKED(field, option, help, print) \
    if (r->opt.field) return print(r);

/* The listing of ENG_LISTS_HOST asked for, printed: its exit status; -1 when none was. */
static int list_and_exit(const eng_run *r)
{
    ENG_LISTS_HOST(LIST_IF_ASKED)
    return -1;
}

/* The same of ENG_LISTS_GPU, once the device is open. */
int eng_list_on_device(const eng_run *r)
{
    ENG_LISTS_GPU(LIST_IF_ASKED)
    return -1;
}

/* What the command line asks, checked before any GPU is touched: 0, or the
 * exit status (an early exit: *done). */
int eng_configure_run(eng_run *r, int argc, char **argv, int *done)
{
    const eng_family *f = r->fam;
    const eng_opts *o = &r->opt;
    cli_parse_result pr;
    int rc;
    *done = 1;
    if ((rc = eng_parse_options(r, argc, argv, &pr)) != 0) return rc;
    if (pr.help) {
        eng_usage(r, stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if ((rc = list_and_exit(r)) >= 0) return rc;
    if (o->batch && pr.npos > 0)
        return cli_usage_error(r->prog, "--batch-file takes no positional arguments: each line of %s has its own",
                               o->batch);
    if (o->batch && o->sweep) return cli_usage_error(r->prog, "--batch-file and --sweep do not go together");
    if ((rc = eng_parse_positional(r, &pr)) != 0) return rc;
    if ((rc = eng_select_kernels(r)) != 0) return rc;
    if ((rc = eng_parse_sample(r)) != 0) return rc;
    int nsel = 0;
    for (int v = 0; v < f->nvariants; v++) nsel += r->selected[v] != 0;
    if (o->sweep && nsel != 1)
        return cli_usage_error(r->prog, "--sweep takes one variant: add --kernel NAME");
    if (o->sweep)
        for (int v = 0; v < f->nvariants; v++)
            if (r->selected[v] && !f->kernel(v, 0, ENG_CLEAN))
                return cli_usage_error(r->prog, "--sweep: %s is not a kernel (a runtime call): "
                                       "nothing to sweep", f->variants[v].name);
    if (o->sweep && f->configs)
        for (int v = 0; v < f->nvariants; v++)
            if (r->selected[v] && f->configs(&r->ctx, v) != 1)
                return cli_usage_error(r->prog, "--sweep takes one configuration of %s", f->variants[v].name);
    const int logs = !r->profile_only && !o->no_probes && !o->list_occupancy;
    if (logs && eng_dir_usable(r, o->out_dir, "--out") != 0) return 1;
    if (o->table && eng_dir_usable(r, ".", "--table") != 0) return 1;
    /* the carveout: 100 in sweeps and occupancy listings (SMEM alone sets the
     * resident blocks); otherwise, unless given, chosen per kernel: the
     * largest L1 that keeps the resident blocks */
    r->ctx.carveout_pct = o->carveout_given ? (int)o->carveout : o->sweep || o->list_occupancy ? 100 : -1;
    r->ctx.seed = o->seed;
    r->ctx.selected = r->selected;
    r->sample_offset = (uint32_t)((o->seed * 0x9E3779B97F4A7C15ull) >> 40);
    const char *inj = getenv("WARPLAT_INJECT_CUDA_ERROR");
    r->inject_at = inj && *inj ? atol(inj) : -1;
    *done = 0;
    return 0;
}

/* The device's facts, and whether the run fits it: 0, or the exit status. */
int eng_open_device(eng_run *r, int ordinal)
{
    char err[512];
    r->ctx.device = ordinal;
    if (devinfo_select(ordinal, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", r->prog, err);
        return 1;
    }
    warplog_header_init(&r->dev);
    if (devinfo_fill(ordinal, &r->dev, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", r->prog, err);
        return 1;
    }
    return eng_fits_device(r);
}

int eng_fits_device(eng_run *r)
{
    char err[512];
    r->ctx.dev = &r->dev;
    if (cli_check_smem(r->ctx.smem_bytes, r->dev.max_smem_optin_per_block, r->dev.max_smem_per_sm,
                       r->dev.reserved_smem_per_block, r->dev.device_name, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", r->prog, err);
        return 2;
    }
    if (r->dev.sm_count > (int)WARP_PROBE_MAX_SMS) {
        fprintf(stderr, "%s: %s has %d SMs; the probe format holds SM ids below %u\n", r->prog,
                r->dev.device_name, r->dev.sm_count, WARP_PROBE_MAX_SMS);
        return 1;
    }
    return 0;
}

/* The probe buffer: every warp of the largest grid of the run, at the
 * densest sampling it may use. */
static void alloc_probes(eng_run *r, int logs)
{
    r->probe_cap = 0;
    for (int v = 0; v < r->fam->nvariants; v++) {
        if (!r->selected[v]) continue;
        const int nc = eng_nconfigs(r, v);
        for (int c = 0; c < nc; c++) {
            eng_var x;
            if (eng_variant_at(r, v, c, &x, 1) != 0) continue;
            const uint64_t np = eng_nprobes_for(r, &x, eng_first_sample(r, &x));
            if (np > r->probe_cap) r->probe_cap = np;
        }
    }
    if (!logs || !r->probe_cap) return;
    size_t free_b = 0, total_b = 0;
    ENG_CUDA(cudaMemGetInfo(&free_b, &total_b));
    if (r->probe_cap * sizeof(warp_probe) > free_b / 2)   /* refused: a usage error */
        eng_die_status(r, 2, "recording needs %.1f GB of device memory for the probes (%llu of them), more than "
                "half of what is free (%.1f GB): record fewer blocks (a larger --sample K)",
                r->probe_cap * sizeof(warp_probe) / 1e9, (unsigned long long)r->probe_cap, free_b / 1e9);
    ENG_CUDA(cudaMalloc((void **)&r->d_probes, r->probe_cap * sizeof(warp_probe)));
}

/* ------------------------------------------------------------ on the device */

int eng_device_begin(eng_run *r)
{
    const eng_opts *o = &r->opt;
    const int logs = !r->profile_only && !o->no_probes;
    if (logs && eng_mkdir_p(o->out_dir) != 0) {
        fprintf(stderr, "%s: cannot create --out %s: %s\n", r->prog, o->out_dir, strerror(errno));
        return 1;
    }
    logjob_install_signal_handlers();
    /* In a batch the limit is the context's and outlives a line: a line
     * without --l2-fetch gets back the limit the batch started with, so that
     * it never runs under the previous line's. */
    const size_t l2_fetch = o->l2_fetch ? o->l2_fetch : r->l2_fetch_default;
    if (l2_fetch) ENG_CUDA(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, l2_fetch));
    ENG_CUDA(cudaDeviceGetLimit(&r->l2_fetch_now, cudaLimitMaxL2FetchGranularity));
    const int src = r->fam->setup(&r->ctx);
    if (src == (int)cudaErrorMemoryAllocation) {
        /* a size the options accept but this device cannot hold: refused, as
         * a usage error, before any kernel ran or any file was written */
        size_t free_b = 0, total_b = 0;
        cudaGetLastError();
        cudaMemGetInfo(&free_b, &total_b);
        fprintf(stderr, "%s: the inputs of %s at these sizes do not fit in %s's memory "
                "(%.1f GB free of %.1f GB): use a smaller N\n", r->prog, r->fam->name,
                r->dev.device_name, free_b / 1e9, total_b / 1e9);
        logjob_abort_all();
        exit(2);
    }
    eng_hook(r, src, "setting up the inputs of", r->fam->name);
    alloc_probes(r, logs);
    ENG_CUDA(cudaEventCreate(&r->ev0));
    ENG_CUDA(cudaEventCreate(&r->ev1));
    return 0;
}

void eng_device_end(eng_run *r)
{
    if (r->fam->teardown) r->fam->teardown(&r->ctx);
    cudaFree(r->d_probes);
    r->d_probes = NULL;
    cudaEventDestroy(r->ev0);
    cudaEventDestroy(r->ev1);
}

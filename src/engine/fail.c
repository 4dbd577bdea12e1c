/*
 * fail.c - how the engine fails (contract: eng_run.h; eng_cuda_fail:
 * engine.h).  Every failure removes the temporary logs (logjob) and, at
 * exit, the table's temporary (outfile, registered by eng_table_open), then
 * exits.  The ground floor of the engine: it calls nothing of it.
 */
#define _GNU_SOURCE
#include "eng_run.h"

#include <errno.h>   /* program_invocation_short_name */
#include <stdarg.h>
#include <stdlib.h>

/* Families (and ./latency) call this from code that has no run at hand, so
 * it names the program as it was started. */
void eng_cuda_fail(const char *file, int line, const char *call, cudaError_t e)
{
    fprintf(stderr, "%s: %s:%d: CUDA error in %s: %s (%s)\n", program_invocation_short_name, file,
            line, call, cudaGetErrorString(e), cudaGetErrorName(e));
    logjob_abort_all();
    exit(1);
}

void eng_hook(const eng_run *r, int rc, const char *what, const char *variant)
{
    if (rc == 0) return;
    fprintf(stderr, "%s: %s %s: CUDA error: %s (%s)\n", r->prog, what, variant,
            cudaGetErrorString((cudaError_t)rc), cudaGetErrorName((cudaError_t)rc));
    logjob_abort_all();
    exit(1);
}

static void die_v(const eng_run *r, int status, const char *fmt, va_list ap)
    __attribute__((noreturn));
static void die_v(const eng_run *r, int status, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: ", r->prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    logjob_abort_all();
    exit(status);
}

void eng_die(const eng_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    die_v(r, 1, fmt, ap);
}

void eng_die_status(const eng_run *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    die_v(r, status, fmt, ap);
}

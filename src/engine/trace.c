/*
 * trace.c - where a run spends its wall time: with WARPLAT_TRACE set, one
 * line per step on stderr, "trace<TAB>seconds since start<TAB>step<TAB>what".
 * The steps are the engine's own (device open, inputs, validation, the timed
 * launches, the log); scripts/reference.sh's budget is read from them.
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

void eng_trace_start(eng_run *r)
{
    const char *t = getenv("WARPLAT_TRACE");
    r->trace = t && *t && *t != '0';
    r->trace_t0 = now_s();
}

void eng_trace(const eng_run *r, const char *step, const char *what)
{
    if (!r->trace) return;
    fprintf(stderr, "trace\t%.4f\t%s\t%s\n", now_s() - r->trace_t0, step, what ? what : "");
}

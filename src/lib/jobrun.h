/*
 * jobrun.h - run a plan's jobs (jobplan.h) on a bounded pool of processes,
 * as scripts/report.sh's step "draw the charts" (bin/report run-plan).
 *
 * Each job is fork/exec of its argv (no shell), in a process group of its
 * own (so that it can be stopped with whatever it started: gnuplot), with
 * stdin /dev/null, its stderr kept whole in LOGDIR/job<I>.err and its
 * stdout dropped or, when the job names a STDOUT file, kept there
 * atomically (outfile.h: only when the job exits 0).  The runner makes no
 * folder: the plan's maker did (a job must not re-create a folder that is
 * being removed).
 *
 * What is recorded, for bin/report render and kernel:
 *   - LOGDIR/failures.tsv, written whole at the end (columns output,
 *     error): each failed job with the last two non-blank lines of its
 *     stderr (or "exit status N"), and with no_charts each chart job as
 *     "not drawn: the report was made with --no-charts" (not run, not a
 *     failure);
 *   - LOGDIR/steps.tsv, appended (it has its header): a row per job run,
 *     "chart: WHAT", ok or failed, its start and end in microseconds;
 *   - failed_list: "chart: WHAT" and a NUL per failed job, in the order
 *     they ended (scripts/report.sh names them under "failed parts").
 * Progress on o->progress, as scripts/report.sh's own lines: the count of
 * jobs, a line per job that ends, and when none has ended for tick_s,
 * every job still running with its time.
 *
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT (those not ignored on entry) stop the
 * run: every running job's process group gets SIGTERM (SIGKILL after 2 s),
 * is waited for, and every temporary file is removed; jr_run then returns
 * -2 with the signal in res->signal, for the caller to die of it.
 */
#ifndef WARPLAT_JOBRUN_H
#define WARPLAT_JOBRUN_H
#include <stddef.h>
#include <stdio.h>

#include "jobplan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jr_opts {
    int jobs;                /* at most this many at once (>= 1) */
    int no_charts;           /* chart jobs are not run: "not drawn" */
    const char *logdir;      /* job<I>.err, failures.tsv, steps.tsv */
    FILE *progress;          /* NULL: none */
    const char *prog;        /* the progress lines' prefix ("report.sh") */
    long long t0_us;         /* the caller's start (wall clock, µs): the lines' times */
    double tick_s;           /* quiet seconds before "still running" lines (5) */
} jr_opts;

typedef struct jr_result {
    size_t run, failed, not_drawn;
    int max_running;         /* the most jobs that ran at once */
    int signal;              /* the signal that stopped the run, 0 if none */
} jr_result;

/* Run every job of p.  0 when each was run (some may have failed: see res),
 * -1 with err filled when the run could not be made (LOGDIR not writable,
 * a process not started: the jobs started are stopped), -2 when a signal
 * stopped it. */
int jr_run(const jp_plan *p, const jr_opts *o, jr_result *res, FILE *failed_list, char *err, size_t errlen);

/* The error a failed job is named with: the last two lines of text[0..len)
 * that are not blank, each followed by a space, TABs as spaces, into out;
 * empty when there is none. */
void jr_error_tail(const char *text, size_t len, char *out, size_t outlen);

/* The wall clock in microseconds, as bash's EPOCHREALTIME. */
long long jr_now_us(void);

#ifdef __cplusplus
}
#endif
#endif

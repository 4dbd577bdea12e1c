/*
 * logjob.h - write per-warp logs on background threads, and never leave a
 * partial one behind.
 *
 * An experiment hands the probes of a launch to logjob_start(), which turns
 * them into records and compresses them on a thread of its own while the GPU
 * runs the next variant.  Every job's temporary file (outfile.h) is known to
 * outfile's registry until the job has renamed it onto PATH or removed it, so that:
 *   - logjob_abort_all() (called by the engine on a CUDA error, and at exit)
 *     tells every running job to stop, waits for it, and leaves no temporary;
 *   - a SIGINT, SIGTERM or SIGHUP removes every temporary file before the
 *     process dies (logjob_install_signal_handlers).
 * Not for use by several experiments in one process at once: the registry is
 * process-wide.
 */
#ifndef WARPLAT_LOGJOB_H
#define WARPLAT_LOGJOB_H
#include <stddef.h>
#include <stdint.h>
#include "warplog.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct logjob logjob;

/*
 * Start writing h->record_count records expanded from probes (ownership of
 * probes passes to the job, which frees it) to path, at zlib level `level`.
 * The header h is copied.  Returns the job, or NULL with err filled (the
 * probes are then freed too).  When no thread can be started the log is
 * written before the call returns.
 */
logjob *logjob_start(const char *path, const warplog_header *h, warp_probe *probes, int level,
                     char *err, size_t errlen);

/* Wait for the job; 0 when the log is complete at its path, -1 with err
 * filled (and no file).  Frees the job. */
int logjob_finish(logjob *j, char *err, size_t errlen);

/* Stop every job still running, wait for them, remove their temporary files.
 * Safe to call more than once, and from atexit. */
void logjob_abort_all(void);

/* SIGINT, SIGTERM, SIGHUP: remove the temporary files of running jobs, then
 * die of the signal as the default action would.  Also registers
 * logjob_abort_all with atexit. */
void logjob_install_signal_handlers(void);

/* For tests: make the next started job fail after writing `records` records,
 * as a full disk would (0 = off). */
void logjob_test_fail_after(uint64_t records);

#ifdef __cplusplus
}
#endif
#endif

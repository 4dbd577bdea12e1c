/* logjob.c - see logjob.h. */
#define _POSIX_C_SOURCE 200809L
#include "logjob.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "outfile.h"

/* The temporary files are registered by the writer itself (outfile.h, through
 * warplog's writer): its registry is what a signal cleans up. */

struct logjob {
    pthread_t thread;
    int threaded;
    warplog_header h;
    warp_probe *probes;
    char path[1024];
    int level;
    uint64_t fail_after;
    atomic_int stop;
    int ok;
    char err[1400];
    logjob *next;             /* list of live jobs, for abort_all */
};

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static logjob *live;
static uint64_t test_fail_after;

void logjob_test_fail_after(uint64_t records) { test_fail_after = records; }

static void *run(void *arg)
{
    logjob *j = arg;
    enum { BATCH = 65536 };
    warp_record *buf = malloc(BATCH * sizeof *buf);
    warplog_writer *w = NULL;
    uint32_t sm_ref[WARP_PROBE_MAX_SMS];
    uint8_t sm_seen[WARP_PROBE_MAX_SMS] = {0};
    if (!buf) set_err(j->err, sizeof j->err, "out of memory writing %s", j->path);
    else w = warplog_writer_open(j->path, &j->h, j->level, j->err, sizeof j->err);
    if (w) {
        int rc = 0;
        const uint64_t n = j->h.record_count;
        for (uint64_t i = 0; rc == 0 && i < n; i += BATCH) {
            if (atomic_load(&j->stop)) {
                set_err(j->err, sizeof j->err, "%s: not written (the run was stopped)", j->path);
                rc = -1;
                break;
            }
            if (j->fail_after && i >= j->fail_after) {
                set_err(j->err, sizeof j->err, "cannot write %s.tmp: injected failure (test)", j->path);
                rc = -1;
                break;
            }
            const uint64_t k = n - i < BATCH ? n - i : BATCH;
            for (uint64_t r = 0; r < k; r++)
                warplog_expand_probe(&j->probes[i + r], i + r, j->h.warps_per_block,
                                     j->h.records_per_warp, j->h.gtimer_base_ns, sm_ref, sm_seen,
                                     &buf[r]);
            rc = warplog_writer_put(w, buf, (size_t)k, j->err, sizeof j->err);
        }
        if (rc == 0) j->ok = warplog_writer_close(w, j->err, sizeof j->err) == 0;
        else warplog_writer_abort(w);
    }
    free(buf);
    free(j->probes);
    j->probes = NULL;
    return NULL;
}

logjob *logjob_start(const char *path, const warplog_header *h, warp_probe *probes, int level,
                     char *err, size_t errlen)
{
    logjob *j = calloc(1, sizeof *j);
    if (!j) {
        free(probes);
        set_err(err, errlen, "out of memory writing %s", path);
        return NULL;
    }
    if (strlen(path) >= sizeof j->path) {
        free(probes);
        free(j);
        set_err(err, errlen, "log path too long: %s", path);
        return NULL;
    }
    snprintf(j->path, sizeof j->path, "%s", path);
    j->h = *h;
    j->probes = probes;
    j->level = level;
    j->fail_after = test_fail_after;
    test_fail_after = 0;
    pthread_mutex_lock(&live_lock);
    j->next = live;
    live = j;
    pthread_mutex_unlock(&live_lock);
    if (pthread_create(&j->thread, NULL, run, j) == 0) j->threaded = 1;
    else run(j);
    return j;
}

static void unlink_live(logjob *j)
{
    pthread_mutex_lock(&live_lock);
    for (logjob **p = &live; *p; p = &(*p)->next)
        if (*p == j) {
            *p = j->next;
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

int logjob_finish(logjob *j, char *err, size_t errlen)
{
    if (!j) return -1;
    if (j->threaded) pthread_join(j->thread, NULL);
    j->threaded = 0;
    unlink_live(j);
    const int ok = j->ok;
    if (!ok) set_err(err, errlen, "%s", j->err[0] ? j->err : "log not written");
    free(j);
    return ok ? 0 : -1;
}

void logjob_abort_all(void)
{
    for (;;) {
        pthread_mutex_lock(&live_lock);
        logjob *j = live;
        if (j) atomic_store(&j->stop, 1);
        pthread_mutex_unlock(&live_lock);
        if (!j) break;
        logjob_finish(j, NULL, 0);
    }
    /* a job that completed after its stop flag was seen renamed its file: it
     * is whole and stays; every other job removed its temporary file */
}

static void on_signal(int sig)
{
    outfile_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

void logjob_install_signal_handlers(void)
{
    static int done;
    if (done) return;
    done = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    atexit(logjob_abort_all);
}

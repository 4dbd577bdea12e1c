/* jobrun.c - a bounded pool of chart jobs (jobrun.h).
 *
 * Why the runner waits for each job's whole process group before it
 * returns from a signal: scripts/report.sh removes its staging folder right
 * after, and a job still writing there (a gnuplot whose plot tool died)
 * re-created files in it: DIR.new.XXXXXX was left behind (issue 35).
 *
 * Why our own handlers replace outfile's: outfile's would remove the
 * temporaries and die at once, with the jobs still running.  They are
 * installed after the first outfile_open (which installs outfile's), and
 * every temporary is removed here by outfile_abort before the caller dies
 * of the signal. */
#define _GNU_SOURCE /* pipe2 */
#include "jobrun.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "outfile.h"

long long jr_now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

/* "12.3 s", tenths truncated, as report.sh's secs() */
static void secs(char *buf, size_t len, long long since_us)
{
    const long long d = (jr_now_us() - since_us) / 100000;
    snprintf(buf, len, "%lld.%lld s", d / 10, d % 10);
}

static void say(const jr_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const jr_opts *o, const char *fmt, ...)
{
    if (!o->progress) return;
    char t[32];
    secs(t, sizeof t, o->t0_us);
    fprintf(o->progress, "%s: [%s] ", o->prog ? o->prog : "report", t);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(o->progress, fmt, ap);
    va_end(ap);
    fputc('\n', o->progress);
    fflush(o->progress);
}

void jr_error_tail(const char *text, size_t len, char *out, size_t outlen)
{
    /* the last two non-blank lines: [a0, a1) and [b0, b1) */
    size_t s[2] = {0, 0}, e[2] = {0, 0};
    int found = 0;
    size_t end = len;
    while (end > 0 && found < 2) {
        size_t stop = end;                         /* the line is [start, stop) */
        if (text[stop - 1] == '\n') stop--;
        size_t start = stop;
        while (start > 0 && text[start - 1] != '\n') start--;
        int blank = 1;
        for (size_t i = start; i < stop; i++)
            if (!isspace((unsigned char)text[i])) blank = 0;
        if (!blank) {
            s[1] = s[0], e[1] = e[0];
            s[0] = start, e[0] = stop;
            found++;
        }
        end = start;
    }
    size_t n = 0;
    if (outlen == 0) return;
    for (int k = 0; k < found; k++)
        for (size_t i = s[k]; i <= e[k] && n + 1 < outlen; i++)
            out[n++] = i == e[k] || text[i] == '\t' ? ' ' : text[i];   /* the line's end: a space */
    out[n] = '\0';
}

typedef struct slot {
    size_t job;           /* index in the plan */
    pid_t pid;            /* 0: free */
    long long start_us;
    outfile err, out;
    int have_out;
} slot;

static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

static void catch_signals(struct sigaction *saved, int *caught)
{
    for (size_t k = 0; k < NSTOP; k++) {
        caught[k] = 0;
        if (sigaction(stop_signals[k], NULL, &saved[k]) != 0) continue;
        if (!(saved[k].sa_flags & SA_SIGINFO) && saved[k].sa_handler == SIG_IGN) continue; /* nohup, a background job */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal; /* no SA_RESTART: the wait below wakes */
        sigemptyset(&sa.sa_mask);
        caught[k] = sigaction(stop_signals[k], &sa, NULL) == 0;
    }
}

static void restore_signals(const struct sigaction *saved, const int *caught)
{
    for (size_t k = 0; k < NSTOP; k++)
        if (caught[k]) sigaction(stop_signals[k], &saved[k], NULL);
}

static void cloexec(FILE *f)
{
    const int fd = fileno(f);
    if (fd >= 0) fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

/* Start job i in slot s.  0, or -1 with err. */
static int start(const jp_plan *p, size_t i, slot *s, const jr_opts *o, int devnull, char *err, size_t errlen)
{
    const jp_job *j = &p->jobs[i];
    char path[4200];
    snprintf(path, sizeof path, "%s/job%zu.err", o->logdir, i);
    if (!outfile_open(&s->err, path, "w", err, errlen)) return -1;
    cloexec(s->err.f);
    s->have_out = 0;
    if (j->out_stdout) {
        if (!outfile_open(&s->out, j->out_stdout, "w", err, errlen)) {
            outfile_abort(&s->err);
            return -1;
        }
        cloexec(s->out.f);
        s->have_out = 1;
    }
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        set_err(err, errlen, "cannot start %s: %s", j->argv[0], strerror(errno));
        outfile_abort(&s->err);
        if (s->have_out) outfile_abort(&s->out);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        const int ofd = s->have_out ? fileno(s->out.f) : devnull, efd = fileno(s->err.f);
        if (dup2(devnull, 0) < 0 || dup2(ofd, 1) < 0 || dup2(efd, 2) < 0) _exit(126);
        /* the handlers are reset by exec; the mask is inherited: clear it */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execvp(j->argv[0], j->argv);
        const int e = errno;
        dprintf(2, "cannot run %s: %s\n", j->argv[0], strerror(e));
        _exit(e == ENOENT ? 127 : 126);
    }
    setpgid(pid, pid); /* also in the parent: a signal may come before the child runs */
    s->job = i;
    s->pid = pid;
    s->start_us = jr_now_us();
    return 0;
}

/* Stop every running job: TERM to its group, KILL after 2 s; reap it and
 * what it started (the runner is their subreaper) until nothing of the
 * group is left; remove its temporaries. */
static void stop_all(slot *sl, int n)
{
    for (int k = 0; k < n; k++)
        if (sl[k].pid > 0) kill(-sl[k].pid, SIGTERM);
    const long long t0 = jr_now_us();
    int killed = 0;
    for (int k = 0; k < n; k++) {
        if (sl[k].pid <= 0) continue;
        for (;;) {
            while (waitpid(-sl[k].pid, NULL, WNOHANG) > 0) {}
            if (kill(-sl[k].pid, 0) != 0) break;   /* nothing of the group is left */
            if (!killed && jr_now_us() - t0 > 2000000) {
                for (int m = 0; m < n; m++)
                    if (sl[m].pid > 0) kill(-sl[m].pid, SIGKILL);
                killed = 1;
            }
            if (jr_now_us() - t0 > 4000000) break; /* a zombie no one reaps: give up waiting */
            const struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
        sl[k].pid = 0;
        outfile_abort(&sl[k].err);
        if (sl[k].have_out) outfile_abort(&sl[k].out);
    }
}

static void put_failure(FILE *f, const char *output, const char *error)
{
    outfile_put_field(f, output);
    fputc('\t', f);
    outfile_put_field(f, error);
    fputc('\n', f);
}

/* The job in s ended with wait status st: record it. */
static void finish(const jp_plan *p, slot *s, int st, const jr_opts *o, jr_result *res, size_t *finished,
                   size_t n, FILE *fail, FILE *steps, FILE *failed_list)
{
    const jp_job *j = &p->jobs[s->job];
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
    char err[1024] = "", e2[512];
    if (s->have_out) {
        if (rc == 0 && outfile_commit(&s->out, e2, sizeof e2) != 0) {
            rc = 1;
            snprintf(err, sizeof err, "%s ", e2);
        } else if (rc != 0) outfile_abort(&s->out);
    }
    /* the job's stderr: kept whole, its end names a failure */
    char path[4200];
    snprintf(path, sizeof path, "%s", outfile_name(&s->err));
    if (rc != 0 && !*err) {
        FILE *f = fopen(path, "rb");
        if (f) {
            static char buf[65536];
            long at = 0;
            if (fseek(f, 0, SEEK_END) == 0 && (at = ftell(f)) > (long)sizeof buf) fseek(f, at - (long)sizeof buf, SEEK_SET);
            else rewind(f);
            const size_t got = fread(buf, 1, sizeof buf, f);
            fclose(f);
            jr_error_tail(buf, got, err, sizeof err);
        }
    }
    if (outfile_commit(&s->err, e2, sizeof e2) != 0 && rc == 0) say(o, "  note: %s", e2);
    const long long end_us = jr_now_us();
    (*finished)++;
    res->run++;
    if (!*err) snprintf(err, sizeof err, "exit status %d", rc);
    char t[32];
    secs(t, sizeof t, s->start_us);
    if (steps) {
        fputs("chart: ", steps);
        outfile_put_field(steps, j->what);
        fprintf(steps, "\t%s\t%lld\t%lld\n", rc ? "failed" : "ok", s->start_us, end_us);
        fflush(steps);
    }
    if (rc == 0) say(o, "  [%zu/%zu] %s (%s)", *finished, n, j->what, t);
    else {
        res->failed++;
        put_failure(fail, j->output, err);
        if (failed_list) {
            fprintf(failed_list, "chart: %s", j->what);
            fputc('\0', failed_list);
            fflush(failed_list);
        }
        say(o, "  [%zu/%zu] FAILED: %s: %s", *finished, n, j->what, err);
    }
    s->pid = 0;
}

int jr_run(const jp_plan *p, const jr_opts *o, jr_result *res, FILE *failed_list, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    const int nslots = o->jobs < 1 ? 1 : o->jobs;
    const size_t n = p->n;
    char path[4200];
    snprintf(path, sizeof path, "%s/failures.tsv", o->logdir);
    outfile fo;
    FILE *fail = outfile_open(&fo, path, "w", err, errlen);
    if (!fail) return -1;
    cloexec(fail);
    fputs("output\terror\n", fail);
    snprintf(path, sizeof path, "%s/steps.tsv", o->logdir);
    FILE *steps = fopen(path, "a");   /* a row per job, appended to the caller's run log */
    if (steps) cloexec(steps);
    const int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    slot *sl = calloc((size_t)nslots, sizeof *sl);
    if (devnull < 0 || !sl) {
        set_err(err, errlen, devnull < 0 ? "cannot open /dev/null" : "out of memory");
        outfile_abort(&fo);
        if (steps) fclose(steps);
        if (devnull >= 0) close(devnull);
        free(sl);
        return -1;
    }
#ifdef __linux__
    /* a job's orphans (a gnuplot whose plot tool died) become ours, so
     * that stop_all can reap them and knows when they are gone */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    struct sigaction saved[NSTOP];
    int caught[NSTOP];
    got_signal = 0;
    catch_signals(saved, caught);
    say(o, "  %zu job(s) on %d core(s)", n, nslots);

    size_t next = 0, finished = 0;
    int running = 0, rc = 0;
    long long last_event = jr_now_us();
    const double tick = o->tick_s > 0 ? o->tick_s : 5;
    while (finished < n && !got_signal) {
        while (running < nslots && next < n && !got_signal) {
            const jp_job *j = &p->jobs[next];
            if (o->no_charts && jp_is_chart(j)) {
                put_failure(fail, j->output, "not drawn: the report was made with --no-charts");
                res->not_drawn++;
                next++, finished++;
                continue;
            }
            int k = 0;
            while (sl[k].pid) k++;
            if (start(p, next, &sl[k], o, devnull, err, errlen) != 0) {
                rc = -1;
                break;
            }
            next++, running++;
            if (running > res->max_running) res->max_running = running;
        }
        if (rc || running == 0) break;
        int st;
        const pid_t pid = waitpid(-1, &st, WNOHANG);
        if (pid > 0) {
            for (int k = 0; k < nslots; k++)
                if (sl[k].pid == pid) {
                    finish(p, &sl[k], st, o, res, &finished, n, fail, steps, failed_list);
                    running--;
                    last_event = jr_now_us();
                }
            continue;
        }
        if ((double)(jr_now_us() - last_event) >= tick * 1e6) {
            /* nothing ended for a while: say what is still running, in plan order */
            for (size_t i = 0; i < next; i++)
                for (int k = 0; k < nslots; k++)
                    if (sl[k].pid > 0 && sl[k].job == i) {
                        char t[32];
                        secs(t, sizeof t, sl[k].start_us);
                        say(o, "  still running: %s (%s)", p->jobs[i].what, t);
                    }
            last_event = jr_now_us();
        }
        const struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL); /* a signal ends it early */
    }
    if (got_signal || rc) {
        stop_all(sl, nslots);
        outfile_abort(&fo);
        if (got_signal) {
            res->signal = got_signal;
            rc = -2;
        }
    } else if (outfile_commit(&fo, err, errlen) != 0) rc = -1;
    if (steps) fclose(steps);
    close(devnull);
    free(sl);
    restore_signals(saved, caught);
    return rc;
}

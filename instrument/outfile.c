/* outfile.c - see outfile.h.
 *
 * Why a unique temporary name: with a fixed PATH.tmp two runs writing one
 * output shared the temporary file and the last rename published a mix of
 * both.  Why stat before choosing: rename(2) replaces whatever the name
 * points at, a device node included.  Why fsync: a rename that reaches the
 * disk before the data leaves an empty "complete" file after a crash.
 *
 * The signal registry is a fixed array of slots whose state is a lock-free
 * atomic int: the handler reads it without taking a lock, so it stays
 * async-signal-safe (it only calls unlink, sigaction and raise).  A slot's
 * path is set before its state becomes 1 and freed only after it is 0. */
#define _GNU_SOURCE /* mkstemps */
#include "outfile.h"
#include "err.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

enum { OUTFILE_SLOTS = 512 }; /* logjob alone may write 256 logs at once */

static struct {
    atomic_int state;     /* 0 free, 2 being filled, 1 live */
    char *volatile path;
} slots[OUTFILE_SLOTS];

/* Every catchable signal whose default action ends the process and that a
 * writer may meet: the terminal's and the job control's (INT, QUIT, HUP,
 * TERM), a timer (ALRM), a user's (USR1, USR2), a reader that went away
 * (PIPE) and a file grown past ulimit -f (XFSZ).  Each leaves a temporary
 * file behind unless it is caught here. */
static const int caught[] = {SIGINT, SIGTERM, SIGHUP,  SIGQUIT, SIGALRM,
                             SIGUSR1, SIGUSR2, SIGPIPE, SIGXFSZ};
enum { NCAUGHT = sizeof caught / sizeof caught[0] };
static struct sigaction previous[NCAUGHT];
static atomic_int handlers_installed;

void outfile_remove_temporaries(void)
{
    for (int i = 0; i < OUTFILE_SLOTS; i++)
        if (atomic_load(&slots[i].state) == 1) unlink(slots[i].path);
}

static void on_signal(int sig)
{
    outfile_remove_temporaries();
    for (int k = 0; k < NCAUGHT; k++) {
        if (caught[k] != sig) continue;
        /* a handler installed before ours (logjob's) gets its turn */
        if (!(previous[k].sa_flags & SA_SIGINFO) && previous[k].sa_handler != SIG_DFL &&
            previous[k].sa_handler != SIG_IGN && previous[k].sa_handler != on_signal)
            previous[k].sa_handler(sig);
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig); /* die of it: the parent sees the signal, the shell 128+sig */
}

static void install_handlers(void)
{
    int expect = 0;
    if (!atomic_compare_exchange_strong(&handlers_installed, &expect, 1)) return;
    for (int k = 0; k < NCAUGHT; k++) {
        struct sigaction old;
        if (sigaction(caught[k], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        previous[k] = old;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (int j = 0; j < NCAUGHT; j++) sigaddset(&sa.sa_mask, caught[j]);
        sigaction(caught[k], &sa, NULL);
    }
}

/* Take a slot for path (copied); -1 when every slot is in use. */
static int slot_take(const char *path)
{
    for (int i = 0; i < OUTFILE_SLOTS; i++) {
        int expect = 0;
        if (atomic_compare_exchange_strong(&slots[i].state, &expect, 2)) {
            slots[i].path = strdup(path);
            if (!slots[i].path) {
                atomic_store(&slots[i].state, 0);
                return -1;
            }
            atomic_store(&slots[i].state, 1);
            return i;
        }
    }
    return -1;
}

static void slot_release(int i)
{
    if (i < 0 || i >= OUTFILE_SLOTS) return;
    char *p = slots[i].path;
    atomic_store(&slots[i].state, 2);
    slots[i].path = NULL;
    free(p);
    atomic_store(&slots[i].state, 0);
}

static void outfile_clear(outfile *o)
{
    slot_release(o->slot - 1);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

/* The mode a new file gets from open(2): 0666 less the umask.  umask can
 * only be read by setting it, so it is set straight back. */
static mode_t default_mode(void)
{
    mode_t m = umask(022);
    umask(m);
    return 0666 & ~m;
}

/* Whether the user may write the existing regular file PATH by its mode.
 * Root may write anything, so for root a file with no write bit at all
 * (chmod a-w) is the owner's word that it is not to be replaced. */
static int may_write(const char *path, const struct stat *st)
{
    if (geteuid() == 0) return (st->st_mode & 0222) != 0;
    return faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
}

FILE *outfile_open(outfile *o, const char *path, const char *mode, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (!path || !*path) {
        set_err(err, errlen, "the output file name is empty");
        return NULL;
    }
    struct stat st;
    int have = stat(path, &st) == 0;
    if (have && S_ISDIR(st.st_mode)) {
        set_err(err, errlen, "cannot write %s: it is a directory", path);
        return NULL;
    }
    if (have && !S_ISREG(st.st_mode)) {
        /* a device, a FIFO or a socket: in place, never renamed over */
        o->path = strdup(path);
        if (!o->path) goto oom;
        o->f = fopen(path, mode);
        if (!o->f) {
            set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
            outfile_clear(o);
            return NULL;
        }
        return o->f;
    }
    /* a file the user may not write is not replaced either: the rename
     * would go round its mode, break its hard links and make it the user's */
    if (have && !may_write(path, &st)) {
        set_err(err, errlen, "cannot write %s: it is read-only (mode %04o); change its mode "
                "or remove it first", path, (unsigned)(st.st_mode & 07777));
        return NULL;
    }
    /* a symbolic link to a file: replace the file, keep the link */
    struct stat lst;
    char *real = NULL;
    if (have && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) real = realpath(path, NULL);
    o->path = real ? real : strdup(path);
    if (!o->path) goto oom;
    size_t n = strlen(o->path) + sizeof ".XXXXXX.tmp";
    o->tmp = malloc(n);
    if (!o->tmp) goto oom;
    snprintf(o->tmp, n, "%s.XXXXXX.tmp", o->path);
    /* the handler is in place, and the signals held, from before the file
     * exists until it is registered: a signal in between would leave it */
    install_handlers();
    sigset_t hold, before;
    sigemptyset(&hold);
    for (int k = 0; k < NCAUGHT; k++) sigaddset(&hold, caught[k]);
    pthread_sigmask(SIG_BLOCK, &hold, &before);
    int fd = mkstemps(o->tmp, 4);
    if (fd >= 0) o->slot = slot_take(o->tmp) + 1;
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (fd < 0) {
        int e = errno;
        set_err(err, errlen, "cannot write %s: %s%s", path, strerror(e),
                e == ENOENT ? " (does the output directory exist?)" : "");
        free(o->tmp);
        o->tmp = NULL;
        outfile_clear(o);
        return NULL;
    }
    if (o->slot == 0) {
        unlink(o->tmp);
        close(fd);
        set_err(err, errlen, "cannot write %s: more than %d outputs open at once", path,
                OUTFILE_SLOTS);
        outfile_clear(o);
        return NULL;
    }
    if (fchmod(fd, have ? (st.st_mode & 07777) : default_mode()) != 0) {
        /* not ours to change (another owner's file): the default is fine */
    }
    o->f = fdopen(fd, mode);
    if (!o->f) {
        set_err(err, errlen, "cannot write %s: %s", o->tmp, strerror(errno));
        close(fd);
        unlink(o->tmp);
        outfile_clear(o);
        return NULL;
    }
    return o->f;
oom:
    set_err(err, errlen, "out of memory");
    outfile_clear(o);
    return NULL;
}

const char *outfile_name(const outfile *o) { return o->tmp ? o->tmp : o->path; }

int outfile_close(outfile *o, char *err, size_t errlen)
{
    if (!o->f) return 0;
    errno = 0;
    int ok = fflush(o->f) == 0;
    int saved = errno;
    if (ok && ferror(o->f)) ok = 0;
    /* fsync the data before the rename publishes it; a FIFO or a device
     * cannot be synced, and needs not be */
    if (ok && o->tmp && fsync(fileno(o->f)) != 0) {
        ok = 0;
        saved = errno;
    }
    if (fclose(o->f) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    o->f = NULL;
    if (!ok) {
        set_err(err, errlen, "cannot write %s: %s", o->path, saved ? strerror(saved) : "write error");
        return -1;
    }
    return 0;
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
    int rc = outfile_close(o, err, errlen);
    if (rc == 0 && o->tmp && rename(o->tmp, o->path) != 0) {
        set_err(err, errlen, "cannot write %s: %s", o->path, strerror(errno));
        rc = -1;
    }
    if (rc != 0 && o->tmp) unlink(o->tmp);
    outfile_clear(o);
    return rc;
}

void outfile_abort(outfile *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp) unlink(o->tmp);
    outfile_clear(o);
}

void outfile_abandon(outfile *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp) fprintf(stderr, "kept for debugging: %s\n", o->tmp);
    outfile_clear(o);
}

int outfile_check_stdout(const char *prog)
{
    errno = 0;
    int flushed = fflush(stdout) == 0;
    int saved = errno;
    if (flushed && !ferror(stdout)) return 0;
    fprintf(stderr, "%s: cannot write to standard output: %s\n", prog,
            saved ? strerror(saved) : "write error");
    return 1;
}

void outfile_put_field(FILE *f, const char *s)
{
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f) fprintf(f, "\\x%02x", c);
        else fputc(c, f);
    }
}

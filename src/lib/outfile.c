/* outfile.c - see outfile.h. */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"
#include "err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void outfile_clear(outfile *o)
{
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

FILE *outfile_open(outfile *o, const char *path, const char *mode, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(path) + 5;
    o->path = strdup(path);
    o->tmp = malloc(n);
    if (!o->path || !o->tmp) {
        set_err(err, errlen, "out of memory");
        outfile_clear(o);
        return NULL;
    }
    snprintf(o->tmp, n, "%s.tmp", path);
    o->f = fopen(o->tmp, mode);
    if (!o->f) {
        set_err(err, errlen, "cannot create %s: %s%s", o->tmp, strerror(errno),
                errno == ENOENT ? " (does the output directory exist?)" : "");
        outfile_clear(o);
        return NULL;
    }
    return o->f;
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
    int rc = 0;
    errno = 0;
    int flushed = fflush(o->f) == 0;
    int saved = errno;
    int bad = ferror(o->f);
    if (fclose(o->f) != 0 && flushed && !bad) {
        saved = errno;
        bad = 1;
    }
    o->f = NULL;
    if (!flushed || bad) {
        set_err(err, errlen, "cannot write %s: %s", o->tmp, saved ? strerror(saved) : "write error");
        rc = -1;
    } else if (rename(o->tmp, o->path) != 0) {
        set_err(err, errlen, "cannot rename %s to %s: %s", o->tmp, o->path, strerror(errno));
        rc = -1;
    }
    if (rc != 0) unlink(o->tmp);
    outfile_clear(o);
    return rc;
}

void outfile_abort(outfile *o)
{
    if (o->f) fclose(o->f);
    if (o->tmp) unlink(o->tmp);
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

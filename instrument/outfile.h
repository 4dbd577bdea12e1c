/*
 * outfile.h - the one writer of whole-file outputs.  A file appears only
 * complete, a write error (on a file or on stdout) is a failure with a
 * sentence, and nothing a tool writes can damage what it writes onto.
 *
 *   outfile o;
 *   FILE *f = outfile_open(&o, path, "w", err, errlen);   (NULL: err says why)
 *   ... fprintf(f, ...) ...
 *   if (outfile_commit(&o, err, errlen) != 0) ...         (no file is left)
 * or outfile_abort(&o) to give up (the temporary file is removed).
 *
 * Where the bytes go, by what PATH is when outfile_open is called:
 *   - a regular file, or no file yet: a temporary file with a unique name
 *     (mkstemp) in PATH's folder, BASE.XXXXXX.tmp; outfile_commit flushes,
 *     fsyncs and renames it onto PATH.  Two writers of one PATH each write
 *     their own temporary, so the last rename wins whole, never a mix.
 *     A symbolic link is followed: the file it names is replaced, the link
 *     stays.  The new file keeps the old one's permissions (or 0666 less the
 *     umask, as fopen would).
 *   - a device, a FIFO or a socket: written in place, never renamed over
 *     (renaming a temporary onto /dev/full would replace the device node).
 *   - a directory: refused with a sentence.
 *   - a regular file the user may not write (for root: one with no write
 *     bit, mode 0444): refused with a sentence, the file untouched; a rename
 *     would replace it all the same, break its hard links and change its
 *     owner.
 *
 * Every temporary file is registered until it is renamed or removed, and
 * every catchable signal that would end the process (SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGPIPE, SIGXFSZ) removes all
 * of them before the process dies of the signal (the shell sees 128 + its
 * number: 130, 143, 129 ...).  A signal that was ignored when the first
 * output was opened stays ignored (nohup; SIGXFSZ ignored makes a write past
 * ulimit -f fail with EFBIG, and the commit then removes the temporary).  A
 * handler that was installed before is called after the temporaries are
 * gone.
 *
 * Standard output cannot be taken back, so a tool checks it once at the end
 * with outfile_check_stdout (and may stop early when ferror(stdout) is set).
 */
#ifndef WARPLAT_OUTFILE_H
#define WARPLAT_OUTFILE_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct outfile {
    FILE *f;
    char *path;  /* the final name (a symbolic link resolved) */
    char *tmp;   /* the temporary file, NULL when written in place */
    int slot;    /* the signal registry's slot of tmp + 1, 0 if none */
} outfile;

/* Create the temporary file (or open PATH in place) with fopen mode w or wb.
 * NULL with err filled and nothing created. */
FILE *outfile_open(outfile *o, const char *path, const char *mode, char *err, size_t errlen);

/* Flush, fsync and close the stream but keep the temporary file, for a
 * program that writes it by name (gnuplot draws into outfile_name()).  0, or
 * -1 with err filled; o stays live either way (commit or abort it). */
int outfile_close(outfile *o, char *err, size_t errlen);

/* The name the bytes go to now: the temporary file, or PATH in place. */
const char *outfile_name(const outfile *o);

/* Flush, check, fsync, close and rename onto the final name.  0, or -1 with
 * err filled and the temporary removed (PATH untouched).  Either way o is
 * finished. */
int outfile_commit(outfile *o, char *err, size_t errlen);

/* Close and remove the temporary file. */
void outfile_abort(outfile *o);

/* Close and unregister, but leave the temporary file for debugging (its name
 * is printed on stderr).  o is finished. */
void outfile_abandon(outfile *o);

/* Remove every registered temporary file now.  Async-signal-safe: for
 * another module's signal handler. */
void outfile_remove_temporaries(void);

/* Flush stdout and check that everything written to it arrived.  0, or 1
 * after printing "PROG: cannot write to standard output: REASON" on stderr
 * (1 is the toolkit's exit status for a runtime failure). */
int outfile_check_stdout(const char *prog);

/* Write s as one TSV field: control characters (tab and newline included)
 * as \xNN, so that a file name or a string from a file cannot split a row
 * or reach a terminal as an escape sequence. */
void outfile_put_field(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif
#endif

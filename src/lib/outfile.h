/*
 * outfile.h - every output a tool writes is checked: a file appears only
 * complete (written as PATH.tmp, renamed when every byte reached it), and a
 * write error on a file or on stdout is a failure with a sentence, never a
 * silent exit 0 (`tool > /dev/full` must fail).
 *
 *   outfile o;
 *   FILE *f = outfile_open(&o, path, "w", err, errlen);   (NULL: err says why)
 *   ... fprintf(f, ...) ...
 *   if (outfile_commit(&o, err, errlen) != 0) ...         (no file is left)
 * or outfile_abort(&o) to give up (the .tmp is removed).
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
    char *path;  /* the final name */
    char *tmp;   /* path + ".tmp" */
} outfile;

/* Create PATH.tmp with fopen mode (w or wb).  NULL with err filled. */
FILE *outfile_open(outfile *o, const char *path, const char *mode, char *err, size_t errlen);
/* Flush, check, close and rename onto the final name.  0, or -1 with err
 * filled and PATH.tmp removed (PATH untouched).  Either way o is finished. */
int outfile_commit(outfile *o, char *err, size_t errlen);
/* Close and remove PATH.tmp. */
void outfile_abort(outfile *o);

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

/*
 * jobplan.h - the report's chart jobs as data: a list of argv arrays, and
 * the two ways it is written down.
 *
 * A job makes one file (OUTPUT: a chart or a table) by running a program
 * whose argv is given element by element, so no shell ever splits or
 * expands it: a path may hold any byte but NUL (issue 35: a TAB in --out
 * shifted the fields of the old TAB-separated plan, and a field was run as
 * a command).
 *
 *   TSV, for reading by eye (bin/report plan): one job a line,
 *       OUTPUT<TAB>STDOUT<TAB>WHAT<TAB>ARGV0<TAB>ARGV1...
 *     (STDOUT "-": the job's stdout is not kept).  A field with a TAB or a
 *     newline cannot be told apart here: never parse it, use the NUL form.
 *   NUL, for bin/report run-plan (bin/report plan --nul): the magic
 *       "warplat-plan 1" NUL, then per job its field count N (decimal) NUL
 *     and its N fields, each ended by NUL: OUTPUT, STDOUT, WHAT, ARGV...
 *     Any field may be empty but OUTPUT, WHAT and ARGV0.
 */
#ifndef WARPLAT_JOBPLAN_H
#define WARPLAT_JOBPLAN_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JP_MAGIC "warplat-plan 1"
#define JP_MAX_ARGS 4096   /* argv elements of one job */

typedef struct jp_job {
    char *output;      /* the file the job makes */
    char *out_stdout;  /* where its stdout is kept (atomically), NULL: not kept */
    char *what;        /* what it draws, in words: progress lines and the run log */
    char **argv;       /* argc elements and a NULL */
    int argc;
} jp_job;

typedef struct jp_plan {
    jp_job *jobs;
    size_t n, cap;
} jp_plan;

/* Append a job (the strings are copied; out_stdout NULL: not kept).  0, or
 * -1 with err filled (out of memory, an empty OUTPUT, WHAT or ARGV0). */
int jp_add(jp_plan *p, const char *output, const char *out_stdout, const char *what, int argc,
           const char *const *argv, char *err, size_t errlen);
void jp_free(jp_plan *p);

/* Write the plan in the TSV form or the NUL form (above). */
void jp_write_tsv(FILE *f, const jp_plan *p);
void jp_write_nul(FILE *f, const jp_plan *p);

/* Read a plan in the NUL form from path ("-": stdin) into p (empty on
 * entry).  0, or -1 with a sentence in err (no magic, a count that is no
 * number or under 4, a job cut short) and p empty. */
int jp_read_nul(const char *path, jp_plan *p, char *err, size_t errlen);
/* The same from memory (buf[0..len)); name is used in messages. */
int jp_parse_nul(const char *buf, size_t len, const char *name, jp_plan *p, char *err, size_t errlen);

/* A job that draws a chart (its OUTPUT ends in .svg, .png or .pdf), not a table. */
int jp_is_chart(const jp_job *j);

#ifdef __cplusplus
}
#endif
#endif

/*
 * gp.h - write a chart as a gnuplot script plus data files, atomically, and
 * render it with gnuplot.
 *
 * For OUT = DIR/NAME.EXT (EXT: svg, png or pdf) a job writes
 *
 *   DIR/NAME.gp            the script; `cd DIR && gnuplot -c NAME.gp` redraws
 *   DIR/NAME<suffix>       each data file the tool adds (e.g. NAME.dat)
 *   DIR/NAME.EXT           the chart
 *
 * Every file is first written as a unique temporary (outfile.h); gnuplot is
 * run (in DIR, as `gnuplot -d -c NAME.gp.XXXXXX.tmp NAME.EXT.XXXXXX.tmp
 * DATA.XXXXXX.tmp...`) and only when it succeeded and left a non-empty
 * chart are the files renamed onto their names.  On any failure, or a
 * signal, every temporary is removed: a failed run leaves nothing.
 *
 * The script refers to its outputs and data through the variables `out`
 * and the names the tool gave each data file (ARG1, ARG2, ... when given,
 * else the final names), so the same text serves both runs.  It always sets
 * `termoption noenhanced`: kernel names like random_access must print as
 * written.
 *
 * Usage:
 *   job = gp_job_new(out, 900, 600, err, errlen);
 *   FILE *d = gp_job_add_data(job, ".dat", "dat", "wb", err, errlen);
 *   ... write data to d ...
 *   FILE *s = gp_job_script(job, err, errlen);   (after every add_data)
 *   ... write the plot commands to s, using `dat` ...
 *   rc = gp_job_finish(job, err, errlen);        (frees job)
 * or gp_job_abort(job) at any point.
 */
#ifndef WARPLAT_GP_H
#define WARPLAT_GP_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GP_MISSING_MSG "gnuplot not found: install it with apt-get install gnuplot-nox"

typedef struct gp_job gp_job;

/* "svg", "png" or "pdf" from the extension of path (case-insensitive), or
 * NULL when it is none of those (a usage error for the tools). */
const char *gp_format_for(const char *path);

/* 1 when an executable gnuplot is on PATH. */
int gp_available(void);

/* Start a job for chart path out, width x height in pixels (pdf: /100 in
 * inches).  Checks the format, that gnuplot is installed, and that the
 * output directory exists.  NULL with err filled on failure. */
gp_job *gp_job_new(const char *out, int width_px, int height_px, char *err, size_t errlen);

/* Open a data file NAME<suffix> (written as a temporary); var is the gnuplot
 * variable that will hold its name in the script.  mode is "w" or "wb".
 * The job owns the FILE. */
FILE *gp_job_add_data(gp_job *job, const char *suffix, const char *var, const char *mode,
                      char *err, size_t errlen);

/* Open the script and write its preamble (terminal, output, data names).
 * Call once, after the last gp_job_add_data.  The job owns the FILE. */
FILE *gp_job_script(gp_job *job, char *err, size_t errlen);

/* Close the files, run gnuplot, rename.  0 on success; -1 with err filled
 * and no file left: a data file that could not be written (a full disk),
 * gnuplot's failure, or a chart that is empty or cut short (an SVG without
 * its closing </svg>, a PNG without its IEND chunk, a PDF without %%EOF:
 * gnuplot exits 0 after a failed write).  Frees job either way. */
int gp_job_finish(gp_job *job, char *err, size_t errlen);

/* With keep set, a failed job leaves its temporary script and data in place
 * (and names them on stderr) so that the script can be debugged. */
void gp_job_keep_on_failure(gp_job *job, int keep);

/* Remove the temporary files (unless kept) and free job. */
void gp_job_abort(gp_job *job);

/*
 * The one way a string enters a gnuplot script (a chart's script or its
 * data file's comments): titles, labels, file names, comments.  Whatever
 * s holds (a name from a log, a file name with a newline, quotes,
 * backslashes, `system(...)`), it stays text:
 *   GP_TEXT_STRING   a single-quoted gnuplot string, quotes included: '
 *                    doubled, which is all gnuplot reads in one (no
 *                    backslash escapes, no backquote or @macro
 *                    substitution); a control character (newline, CR, ...;
 *                    not tab), which would end the command, becomes a space.
 *                    gnuplot reads '' as a quote only after another
 *                    character of the string, so a quote that opens the
 *                    string or follows a quote is written as U+2019 (’).
 *   GP_TEXT_COMMENT  the text of a comment line (after the caller's "# "):
 *                    a control character becomes '?', and so does a
 *                    backslash, which at the end of a line would continue
 *                    the comment onto the next command.
 * Text without control characters or backslashes is written as it is (a
 * string: quoted).
 */
typedef enum gp_text { GP_TEXT_STRING, GP_TEXT_COMMENT } gp_text;
void gp_put_text(FILE *f, gp_text as, const char *s);

/* gp_put_text(f, GP_TEXT_STRING, s): s as a gnuplot single-quoted string. */
void gp_put_str(FILE *f, const char *s);

/* A whole chart with one data file (variable dat, OUT's stem + .dat,
 * opened with dat_mode "w" or "wb"): put_data writes it (0, or -1 with err
 * filled), then put_script writes the script's body; gnuplot runs.  0, or 1
 * after "PROG: <sentence>" on stderr, with no file left. */
typedef int (*gp_put_data_fn)(FILE *dat, const void *ctx, char *err, size_t errlen);
typedef void (*gp_put_script_fn)(FILE *script, const void *ctx);
int gp_draw(const char *prog, const char *out, int width_px, int height_px, int keep,
            const char *dat_mode, gp_put_data_fn put_data, gp_put_script_fn put_script,
            const void *ctx);

/* Write sep, then v as %.6g, or "nan" (a data file's missing value). */
void gp_put_num(FILE *f, const char *sep, double v);

/* The final name (no directory) of the chart, or of the script. */
const char *gp_job_chart_name(const gp_job *job);
const char *gp_job_script_name(const gp_job *job);

#ifdef __cplusplus
}
#endif
#endif /* WARPLAT_GP_H */

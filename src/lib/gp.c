/*
 * gp.c - gnuplot jobs (contract: gp.h).
 *
 * Why gnuplot runs in the output directory with bare file names: the
 * script then names its data by basename, so it is the same text whatever
 * directory the tool was run from (which keeps golden files stable), and a
 * user can move the three files together and redraw them.
 *
 * Why fork/exec rather than system(): no shell parses the file names, and
 * the exit status is gnuplot's own.
 */
#define _POSIX_C_SOURCE 200809L
#include "gp.h"
#include "err.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define GP_MAX_DATA 8

typedef struct gp_file {
    char *final_path; /* DIR/NAME<suffix> */
    char *final_name; /* basename of final_path: what the script defaults to */
    char *var;        /* gnuplot variable holding the name */
    outfile o;        /* the file being written (a unique temporary) */
    int open;         /* o is live */
    FILE *f;          /* o.f while the tool writes it */
} gp_file;

struct gp_job {
    char *dir;        /* output directory, "." when OUT has none */
    char *stem;       /* DIR/NAME */
    const char *fmt;  /* svg png pdf */
    int width_px, height_px;
    gp_file chart, script;
    gp_file data[GP_MAX_DATA];
    int ndata;
    int keep;         /* leave the temporary script and data behind on failure */
};

static char *cat3(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

const char *gp_format_for(const char *path)
{
    const char *b = base_of(path);
    const char *dot = strrchr(b, '.');
    if (!dot || dot == b) return NULL;
    if (strcasecmp(dot, ".svg") == 0) return "svg";
    if (strcasecmp(dot, ".png") == 0) return "png";
    if (strcasecmp(dot, ".pdf") == 0) return "pdf";
    return NULL;
}

int gp_available(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path) return 0;
    char *copy = strdup(path);
    if (!copy) return 0;
    int found = 0;
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && !found;
         d = strtok_r(NULL, ":", &save)) {
        char *p = cat3(*d ? d : ".", "/", "gnuplot");
        if (p && access(p, X_OK) == 0) found = 1;
        free(p);
    }
    free(copy);
    return found;
}

static void file_free(gp_file *g)
{
    if (g->open) outfile_abort(&g->o);
    free(g->final_path);
    free(g->final_name);
    free(g->var);
    memset(g, 0, sizeof *g);
}

static int file_init(gp_file *g, const char *final_path, const char *var)
{
    g->final_path = strdup(final_path);
    g->final_name = strdup(base_of(final_path));
    g->var = strdup(var ? var : "");
    return g->final_path && g->final_name && g->var ? 0 : -1;
}

/* Open the file's temporary (outfile: unique, removed on a signal). */
static FILE *file_open(gp_file *g, const char *mode, char *err, size_t errlen)
{
    g->f = outfile_open(&g->o, g->final_path, mode, err, errlen);
    g->open = g->f != NULL;
    return g->f;
}

/* What gnuplot, run in the job's directory, is given: the temporary's base
 * name (it is in the same folder as the final name), or its whole name when
 * that is absolute (a symbolic link resolved to another folder). */
static const char *file_tmp_name(const gp_file *g)
{
    const char *n = outfile_name(&g->o);
    return n[0] == '/' ? n : base_of(n);
}

static void file_drop(gp_file *g, int keep)
{
    if (!g->open) return;
    if (keep) outfile_abandon(&g->o);
    else outfile_abort(&g->o);
    g->open = 0;
    g->f = NULL;
}

static void job_free(gp_job *job)
{
    file_free(&job->chart);
    file_free(&job->script);
    for (int i = 0; i < job->ndata; i++) file_free(&job->data[i]);
    free(job->dir);
    free(job->stem);
    free(job);
}

void gp_job_keep_on_failure(gp_job *job, int keep) { job->keep = keep; }

void gp_job_abort(gp_job *job)
{
    if (!job) return;
    file_drop(&job->chart, 0);
    file_drop(&job->script, job->keep);
    for (int i = 0; i < job->ndata; i++) file_drop(&job->data[i], job->keep);
    job_free(job);
}

gp_job *gp_job_new(const char *out, int width_px, int height_px, char *err, size_t errlen)
{
    const char *fmt = gp_format_for(out);
    if (!fmt) {
        set_err(err, errlen, "%s: the chart must end in .svg, .png or .pdf", out);
        return NULL;
    }
    if (!gp_available()) {
        set_err(err, errlen, "%s", GP_MISSING_MSG);
        return NULL;
    }
    gp_job *job = calloc(1, sizeof *job);
    if (!job) goto oom;
    job->fmt = fmt;
    job->width_px = width_px;
    job->height_px = height_px;
    const char *b = base_of(out);
    /* "dir/name.svg" -> "dir"; "/name.svg" -> "/"; "name.svg" -> "." */
    job->dir = b == out ? strdup(".") : b - out == 1 ? strdup("/")
                                                     : strndup(out, (size_t)(b - out - 1));
    job->stem = strndup(out, (size_t)(strrchr(b, '.') - out));
    if (!job->dir || !job->stem) goto oom;
    struct stat st;
    if (stat(job->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        set_err(err, errlen, "cannot write %s: the output directory %s %s", out, job->dir,
                errno == ENOENT || stat(job->dir, &st) != 0 ? "does not exist"
                                                            : "is not a directory");
        job_free(job);
        return NULL;
    }
    char *sp = cat3(job->stem, ".gp", "");
    if (!sp || file_init(&job->chart, out, "out") != 0 || file_init(&job->script, sp, NULL) != 0) {
        free(sp);
        goto oom;
    }
    free(sp);
    return job;
oom:
    set_err(err, errlen, "out of memory");
    if (job) job_free(job);
    return NULL;
}

FILE *gp_job_add_data(gp_job *job, const char *suffix, const char *var, const char *mode,
                      char *err, size_t errlen)
{
    if (job->ndata == GP_MAX_DATA || job->script.f) {
        set_err(err, errlen, "internal error: data file %s added too late or too many", suffix);
        return NULL;
    }
    gp_file *g = &job->data[job->ndata];
    char *p = cat3(job->stem, suffix, "");
    if (!p || file_init(g, p, var) != 0) {
        free(p);
        file_free(g);
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    free(p);
    job->ndata++;
    return file_open(g, mode, err, errlen);
}

void gp_put_text(FILE *f, gp_text as, const char *s)
{
    const int str = as == GP_TEXT_STRING;
    int after_text = 0;   /* the last byte written inside the quotes was not a quote */
    if (str) fputc('\'', f);
    for (; s && *s; s++) {
        const unsigned char c = (unsigned char)*s;
        const int ctl = (c < 0x20 && c != '\t') || c == 0x7f;
        if (str) {
            /* gnuplot's scanner takes '' as a quote only after another
             * character of the string: a quote first, or right after
             * another, would end the string, so it is written as U+2019 */
            if (c == '\'') fputs(after_text ? "''" : "\xe2\x80\x99", f);
            /* a newline (or CR) would end the command inside the string */
            else fputc(ctl ? ' ' : c, f);
            after_text = c != '\'';
        } else {
            /* a comment ends at a newline; one that ends in a backslash
             * swallows the next line (gnuplot's line continuation) */
            fputc(ctl || c == '\\' ? '?' : c, f);
        }
    }
    if (str) fputc('\'', f);
}

void gp_put_str(FILE *f, const char *s) { gp_put_text(f, GP_TEXT_STRING, s); }

void gp_put_num(FILE *f, const char *sep, double v)
{
    fputs(sep, f);
    if (isnan(v)) fputs("nan", f);
    else fprintf(f, "%.6g", v);
}

FILE *gp_job_script(gp_job *job, char *err, size_t errlen)
{
    gp_file *s = &job->script;
    /* the chart's name is reserved now: gnuplot writes into it by name */
    if (!job->chart.open) {
        if (!file_open(&job->chart, "wb", err, errlen)) return NULL;
        if (outfile_close(&job->chart.o, err, errlen) != 0) return NULL;
        job->chart.f = NULL;
    }
    FILE *f = file_open(s, "w", err, errlen);
    if (!f) return NULL;
    /* the names are the user's: comment text, never a command */
    fputs("# ", f);
    gp_put_text(f, GP_TEXT_COMMENT, s->final_name);
    fputs(" - written by warplat; edit it, then redraw from this directory with\n"
          "#   gnuplot -c ", f);
    gp_put_text(f, GP_TEXT_COMMENT, s->final_name);
    fputs(" [OUTPUT [DATA...]]\n", f);
    /* ARGn overrides the default name: the tool passes the temporary names. */
    fprintf(f, "out = ARGC >= 1 ? ARG1 : ");
    gp_put_str(f, job->chart.final_name);
    fputc('\n', f);
    for (int i = 0; i < job->ndata; i++) {
        fprintf(f, "%s = ARGC >= %d ? ARG%d : ", job->data[i].var, i + 2, i + 2);
        gp_put_str(f, job->data[i].final_name);
        fputc('\n', f);
    }
    int w = job->width_px, h = job->height_px;
    if (strcmp(job->fmt, "svg") == 0) {
        fprintf(f, "set terminal svg size %d,%d dynamic background rgb 'white' "
                   "font 'Helvetica,12'\n", w, h);
    } else if (strcmp(job->fmt, "png") == 0) {
        /* pngcairo anti-aliases; plain png (libgd) is the fallback. */
        fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                   "    set terminal pngcairo size %d,%d background rgb 'white' "
                   "font 'Helvetica,12'\n"
                   "} else {\n"
                   "    set terminal png size %d,%d background rgb 'white'\n"
                   "}\n", w, h, w, h);
    } else {
        fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pdfcairo') == 0) {\n"
                   "    print 'this gnuplot has no pdfcairo terminal: write .svg or .png, "
                   "or install gnuplot-qt'\n"
                   "    exit status 1\n"
                   "}\n"
                   "set terminal pdfcairo size %.2fin,%.2fin font 'Helvetica,10'\n",
                w / 100.0, h / 100.0);
    }
    fprintf(f, "set termoption noenhanced\n"
               "set output out\n");
    return f;
}

const char *gp_job_chart_name(const gp_job *job) { return job->chart.final_name; }
const char *gp_job_script_name(const gp_job *job) { return job->script.final_name; }

static int close_file(gp_file *g, char *err, size_t errlen)
{
    if (!g->open) return -1;
    g->f = NULL;
    return outfile_close(&g->o, err, errlen);
}

/* The last non-empty line of text (at most len bytes), trimmed, into out. */
static void last_line(const char *text, size_t len, char *out, size_t outlen)
{
    size_t end = len;
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
        end--;
    size_t start = end;
    while (start > 0 && text[start - 1] != '\n') start--;
    size_t n = end - start;
    if (n >= outlen) n = outlen - 1;
    memcpy(out, text + start, n);
    out[n] = '\0';
}

/* Whether the chart file PATH ends as a whole file of format FMT does: an
 * SVG with </svg>, a PNG with its IEND chunk, a PDF with %%EOF (trailing
 * white space allowed).  Why: gnuplot ignores a failed write (a full disk)
 * and still exits 0, leaving a chart cut short at a block boundary. */
static int chart_is_whole(const char *path, const char *fmt)
{
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    unsigned char tail[64];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    off_t end = lseek(fd, 0, SEEK_END);
    off_t from = end > (off_t)sizeof tail ? end - (off_t)sizeof tail : 0;
    ssize_t n = end < 0 ? -1 : pread(fd, tail, (size_t)(end - from), from);
    close(fd);
    if (n != end - from) return 0;
    size_t len = (size_t)n;
    if (strcmp(fmt, "png") == 0) return len >= sizeof iend && !memcmp(tail + len - sizeof iend, iend, sizeof iend);
    while (len > 0 && (tail[len - 1] == '\n' || tail[len - 1] == '\r' || tail[len - 1] == ' ' ||
                       tail[len - 1] == '\t'))
        len--;
    const char *want = strcmp(fmt, "svg") == 0 ? "</svg>" : "%%EOF";
    size_t w = strlen(want);
    return len >= w && !memcmp(tail + len - w, want, w);
}

/* Run gnuplot in the job's directory; 0 when it exited 0.
 *
 * Why two pipes: exit status 127 is what the shell convention gives both
 * to "no such program" and to a gnuplot that the dynamic loader could not
 * start (a missing shared library), so the child reports a failed execvp()
 * on a close-on-exec pipe, and gnuplot's own stderr is read through a
 * second pipe, passed on to ours, and its last line kept for the error:
 * a chart that fails then says what really failed. */
static int run_gnuplot(gp_job *job, char *err, size_t errlen)
{
    char *argv[GP_MAX_DATA + 6];
    int a = 0;
    argv[a++] = "gnuplot";
    argv[a++] = "-d"; /* ignore the user's ~/.gnuplot: charts must not vary */
    argv[a++] = "-c";
    argv[a++] = (char *)file_tmp_name(&job->script);
    argv[a++] = (char *)file_tmp_name(&job->chart);
    for (int i = 0; i < job->ndata; i++) argv[a++] = (char *)file_tmp_name(&job->data[i]);
    argv[a] = NULL;

    int ep[2], op[2];
    if (pipe(ep) != 0) {
        set_err(err, errlen, "cannot start gnuplot: pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe(op) != 0) {
        set_err(err, errlen, "cannot start gnuplot: pipe: %s", strerror(errno));
        close(ep[0]), close(ep[1]);
        return -1;
    }
    fcntl(ep[1], F_SETFD, FD_CLOEXEC);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        set_err(err, errlen, "cannot start gnuplot: %s", strerror(errno));
        close(ep[0]), close(ep[1]), close(op[0]), close(op[1]);
        return -1;
    }
    if (pid == 0) {
        close(ep[0]);
        close(op[0]);
        if (dup2(op[1], 2) < 0) _exit(126);
        close(op[1]);
        int e = 0;
        if (chdir(job->dir) != 0) e = errno ? errno : EIO;
        else {
            execvp("gnuplot", argv);
            e = errno ? errno : ENOENT;
        }
        ssize_t w = write(ep[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    close(ep[1]);
    close(op[1]);
    /* gnuplot's stderr: passed on whole, its last 4 KiB kept */
    char tail[4096];
    size_t nt = 0;
    char buf[1024];
    for (;;) {
        ssize_t r = read(op[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        ssize_t w = write(2, buf, (size_t)r);
        (void)w;
        /* buf is smaller than tail: drop the oldest bytes to make room */
        if (nt + (size_t)r > sizeof tail) {
            size_t drop = nt + (size_t)r - sizeof tail;
            memmove(tail, tail + drop, nt - drop);
            nt -= drop;
        }
        memcpy(tail + nt, buf, (size_t)r);
        nt += (size_t)r;
    }
    close(op[0]);
    int exec_errno = 0;
    ssize_t got;
    do got = read(ep[0], &exec_errno, sizeof exec_errno);
    while (got < 0 && errno == EINTR);
    close(ep[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            set_err(err, errlen, "cannot wait for gnuplot: %s", strerror(errno));
            return -1;
        }
    }
    if (got == (ssize_t)sizeof exec_errno) {
        if (exec_errno == ENOENT) set_err(err, errlen, "%s", GP_MISSING_MSG);
        else set_err(err, errlen, "cannot run gnuplot in %s: %s", job->dir, strerror(exec_errno));
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char said[512];
        last_line(tail, nt, said, sizeof said);
        set_err(err, errlen, "gnuplot failed (%s %d) drawing %s with %s: %s",
                WIFEXITED(status) ? "exit status" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                job->chart.final_path, job->script.final_name,
                said[0] ? said : "it printed nothing");
        return -1;
    }
    struct stat st;
    const char *drawn = outfile_name(&job->chart.o);
    if (stat(drawn, &st) != 0 || (S_ISREG(st.st_mode) && st.st_size == 0)) {
        set_err(err, errlen, "gnuplot exited 0 but wrote no chart %s", job->chart.final_path);
        return -1;
    }
    if (S_ISREG(st.st_mode) && !chart_is_whole(drawn, job->fmt)) {
        set_err(err, errlen, "gnuplot exited 0 but its chart %s is cut short (%lld bytes, no %s "
                "at its end): is the disk full?", job->chart.final_path, (long long)st.st_size,
                strcmp(job->fmt, "svg") == 0 ? "</svg>" : strcmp(job->fmt, "png") == 0
                                                            ? "IEND chunk" : "%%EOF");
        return -1;
    }
    return 0;
}

int gp_job_finish(gp_job *job, char *err, size_t errlen)
{
    if (close_file(&job->script, err, errlen) != 0) goto fail;
    for (int i = 0; i < job->ndata; i++)
        if (close_file(&job->data[i], err, errlen) != 0) goto fail;
    if (run_gnuplot(job, err, errlen) != 0) goto fail;

    /* Data first and the chart last: a chart on disk implies its sources. */
    gp_file *order[GP_MAX_DATA + 2];
    int n = 0;
    for (int i = 0; i < job->ndata; i++) order[n++] = &job->data[i];
    order[n++] = &job->script;
    order[n++] = &job->chart;
    for (int i = 0; i < n; i++) {
        order[i]->open = 0;
        if (outfile_commit(&order[i]->o, err, errlen) != 0) {
            for (int k = 0; k < i; k++) unlink(order[k]->final_path);
            goto fail;
        }
    }
    job_free(job);
    return 0;
fail:
    gp_job_abort(job);
    return -1;
}

int gp_draw(const char *prog, const char *out, int width_px, int height_px, int keep,
            const char *dat_mode, gp_put_data_fn put_data, gp_put_script_fn put_script,
            const void *ctx)
{
    char err[1024];
    gp_job *job = gp_job_new(out, width_px, height_px, err, sizeof err);
    if (!job) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return 1;
    }
    gp_job_keep_on_failure(job, keep);
    FILE *d = gp_job_add_data(job, ".dat", "dat", dat_mode, err, sizeof err);
    FILE *s = d && put_data(d, ctx, err, sizeof err) == 0 ? gp_job_script(job, err, sizeof err) : NULL;
    if (!s) {
        fprintf(stderr, "%s: %s\n", prog, err);
        gp_job_abort(job);
        return 1;
    }
    put_script(s, ctx);
    if (gp_job_finish(job, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return 1;
    }
    return 0;
}

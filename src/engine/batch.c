/*
 * batch.c - --batch-file FILE: many runs of one program in one process.
 *
 * Why: Nsight Compute pays its start and the CUDA context's for every process
 * it profiles (seconds each), and a random model check (bin/model_check,
 * scripts/model_check.sh) profiles hundreds of configurations, each with its
 * own N, WPB and options.  One process that runs them all in turn costs one
 * start, and its one table holds every row in launch order, which is what
 * the sector join (sector_join.h: the k-th row of a kernel pairs with its
 * k-th launch) needs.
 *
 * Each line of FILE is a command line without the program's name: its
 * positional arguments and options ("1234567 0 8 --kernel stride --stride
 * 37"), split at blanks (no quoting: no argument here has a blank).  The
 * options given beside --batch-file are appended to every line, so that
 * `PROG_profile --batch-file F --reps 1 --warmup 0 --table T` profiles each line
 * once.  Blank lines and '#' comments are skipped.  With probes (./PROG, not
 * PROG_profile), two lines of one variant and WPB write the same log name:
 * give each its own --out when the logs matter.
 *
 * Every line is checked before the GPU does anything (a bad line: "FILE:L:
 * ..." and exit 2, nothing run).  Then each line runs as a run of its own
 * (a fresh eng_run: options, inputs, probe buffer), on the device opened
 * once, its rows going to the one table.  A family's own options live in the
 * family's statics, so their values are saved before the first line and put
 * back before each line: a line never inherits the previous line's --stride.
 * The same holds for the device's cudaLimitMaxL2FetchGranularity: a line
 * with --l2-fetch B sets it, a line without gets back the limit the batch
 * started with (run.c), so lines of different limits may share one batch
 * (scripts/ncu_profile.sh readonly).  Each row carries its line's number
 * (column batch_line), so that the table splits per line.
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <stdlib.h>
#include <string.h>

#define BATCH_MAX_LINES 100000
#define BATCH_MAX_ARGS 128

/* The family options' values before any line: restored before each line. */
typedef struct opt_saved {
    unsigned char bytes[sizeof(cli_list) > sizeof(cli_strings) ? sizeof(cli_list) : sizeof(cli_strings)];
    int given;
} opt_saved;

static size_t dest_size(cli_kind k)
{
    switch (k) {
    case CLI_FLAG: case CLI_CHOICE: return sizeof(int);
    case CLI_U64: case CLI_COUNT: return sizeof(uint64_t);
    case CLI_DOUBLE: return sizeof(double);
    case CLI_STRING: return sizeof(const char *);
    case CLI_LIST: return sizeof(cli_list);
    case CLI_STRINGS: return sizeof(cli_strings);
    }
    return 0;
}

static size_t count_opts(const cli_opt *t)
{
    size_t n = 0;
    while (t && t[n].name) n++;
    return n;
}

static void opts_save(const cli_opt *t, opt_saved *s)
{
    for (size_t i = 0; t && t[i].name; i++) {
        if (t[i].dest) memcpy(s[i].bytes, t[i].dest, dest_size(t[i].kind));
        s[i].given = t[i].given ? *t[i].given : 0;
    }
}

static void opts_restore(const cli_opt *t, const opt_saved *s)
{
    for (size_t i = 0; t && t[i].name; i++) {
        if (t[i].dest) memcpy(t[i].dest, s[i].bytes, dest_size(t[i].kind));
        if (t[i].given) *t[i].given = s[i].given;
    }
}

/* The command line less --batch-file, --table and --device (with their
 * values): what every line gets after its own arguments.  Returns the count
 * put in extra. */
static int common_args(int argc, char **argv, char **extra, int cap)
{
    int n = 0;
    for (int i = 1; i < argc && n < cap; i++) {
        /* the batch's own: the file, the one table, the one device */
        if (!strcmp(argv[i], "--batch-file") || !strcmp(argv[i], "--table") || !strcmp(argv[i], "--device")) {
            i++;
            continue;
        }
        if (!strncmp(argv[i], "--batch-file=", 13) || !strncmp(argv[i], "--table=", 8) ||
            !strncmp(argv[i], "--device=", 9))
            continue;
        extra[n++] = argv[i];
    }
    return n;
}

/* Line buf (modified: split in place) as argv: prog, its words, extra. */
static int line_argv(char *buf, const char *prog, char **extra, int nextra, char **av)
{
    int ac = 0;
    av[ac++] = (char *)prog;
    char *save = NULL;
    for (char *w = strtok_r(buf, " \t\r\n", &save); w && ac < BATCH_MAX_ARGS - nextra - 1;
         w = strtok_r(NULL, " \t\r\n", &save))
        av[ac++] = w;
    for (int i = 0; i < nextra; i++) av[ac++] = extra[i];
    av[ac] = NULL;
    return ac;
}

/* The file's lines that hold a command (comments and blanks dropped); each
 * malloc'd, with its line number.  Returns the count, or -1 (said). */
static long read_lines(const eng_run *r, const char *path, char ***lines, long **lineno)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: --batch-file %s: cannot open it\n", r->prog, path);
        return -1;
    }
    char buf[4096];
    long n = 0, cap = 0, at = 0;
    *lines = NULL;
    *lineno = NULL;
    while (fgets(buf, sizeof buf, f)) {
        at++;
        if (!strchr(buf, '\n') && !feof(f)) {
            fprintf(stderr, "%s: %s:%ld: line longer than %zu characters\n", r->prog, path, at, sizeof buf - 2);
            fclose(f);
            return -1;
        }
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        if (strspn(buf, " \t\r\n") == strlen(buf)) continue;
        if (n == BATCH_MAX_LINES) {
            fprintf(stderr, "%s: %s: more than %d runs\n", r->prog, path, BATCH_MAX_LINES);
            fclose(f);
            return -1;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nl = realloc(*lines, cap * sizeof **lines);
            long *nn = realloc(*lineno, cap * sizeof **lineno);
            if (!nl || !nn) eng_die(r, "out of host memory reading %s", path);
            *lines = nl;
            *lineno = nn;
        }
        (*lines)[n] = strdup(buf);
        if (!(*lines)[n]) eng_die(r, "out of host memory reading %s", path);
        (*lineno)[n++] = at;
    }
    const int bad = ferror(f);
    fclose(f);
    if (bad || n == 0) {
        fprintf(stderr, "%s: --batch-file %s: %s\n", r->prog, path, bad ? "read error" : "no run in it");
        return -1;
    }
    return n;
}

/* What a line may not ask for: one table, one device, no listing. */
static const char *line_refusal(const eng_opts *o)
{
    if (o->batch) return "--batch-file inside a batch";
    if (o->table) return "--table (give it beside --batch-file: one table for every line)";
    if (strcmp(o->devices, "0")) return "--device (give it beside --batch-file)";
    if (o->sweep) return "--sweep";
    if (eng_host_lists_asked(o) || eng_gpu_lists_asked(o)) return "a --list option";
    return NULL;
}

/* Configure one line (text, split in place) into a fresh run x: 0, or 2
 * (said, with the line's place). */
static int configure_line(const eng_run *outer, eng_run *x, char *text, const char *path, long at,
                          char **extra, int nextra)
{
    char *av[BATCH_MAX_ARGS];
    const int ac = line_argv(text, outer->prog, extra, nextra, av);
    memset(x, 0, sizeof *x);
    x->fam = outer->fam;
    x->profile_only = outer->profile_only;
    snprintf(x->prog, sizeof x->prog, "%s", outer->prog);
    int done = 0;
    int rc = eng_configure_run(x, ac, av, &done);
    if (rc == 0 && done) rc = 2;   /* --help or a listing inside a batch */
    const char *why = rc == 0 ? line_refusal(&x->opt) : NULL;
    if (why)
        fprintf(stderr, "%s: %s:%ld: a batch line may not have %s\n", outer->prog, path, at, why);
    else if (rc != 0)
        fprintf(stderr, "%s: %s:%ld: this line is not a valid command line (said above)\n", outer->prog,
                path, at);
    return rc || why ? 2 : 0;
}

static void free_lines(char **lines, long *lineno, long n)
{
    for (long i = 0; i < n; i++) free(lines[i]);
    free(lines);
    free(lineno);
}

/* One line, configured in x, on the device outer opened: its rows to the
 * table.  Returns the failures. */
static int run_line(eng_run *outer, eng_run *x, const char *path, long at)
{
    x->dev = outer->dev;
    x->ctx.device = outer->ctx.device;
    x->tbl = outer->tbl;
    x->l2_fetch_default = outer->l2_fetch_default;
    x->batch_line = (uint64_t)at;
    x->trace = outer->trace;   /* WARPLAT_TRACE: a line's steps too, on the batch's clock */
    x->trace_t0 = outer->trace_t0;
    int rc = eng_fits_device(x);
    if (rc) {
        fprintf(stderr, "%s: %s:%ld: the line does not fit this device\n", outer->prog, path, at);
        return 1;
    }
    if (eng_check_configs(x) != 0) {
        fprintf(stderr, "%s: %s:%ld: the line cannot run (said above)\n", outer->prog, path, at);
        return 1;
    }
    if ((rc = eng_device_begin(x)) != 0) return 1;
    int failures = eng_run_selected(x);
    failures += eng_finish_logs(x);
    eng_device_end(x);
    return failures;
}

/* What a batch holds while it runs. */
typedef struct batch {
    char **lines;
    long *lineno, n;
    char *extra[BATCH_MAX_ARGS];
    int nextra;
    opt_saved *saved;
    eng_run *x;
} batch;

static void batch_free(const eng_run *outer, batch *b)
{
    opts_restore(outer->fam->options, b->saved);
    free(b->saved);
    free(b->x);
    free_lines(b->lines, b->lineno, b->n);
}

/* Read FILE and save the family's options; with check, also configure every
 * line (no GPU touched).  0, or the exit status (the batch freed). */
static int batch_open(const eng_run *outer, int argc, char **argv, batch *b, int check)
{
    memset(b, 0, sizeof *b);
    b->n = read_lines(outer, outer->opt.batch, &b->lines, &b->lineno);
    if (b->n < 0) return 2;
    b->nextra = common_args(argc, argv, b->extra, BATCH_MAX_ARGS / 2);
    const cli_opt *fopts = outer->fam->options;
    b->saved = calloc(count_opts(fopts) + 1, sizeof *b->saved);
    b->x = calloc(1, sizeof *b->x);
    if (!b->saved || !b->x) eng_die(outer, "out of host memory");
    opts_save(fopts, b->saved);
    int rc = 0;
    for (long i = 0; check && i < b->n && rc == 0; i++) {
        char *copy = strdup(b->lines[i]);
        if (!copy) eng_die(outer, "out of host memory");
        opts_restore(fopts, b->saved);
        rc = configure_line(outer, b->x, copy, outer->opt.batch, b->lineno[i], b->extra, b->nextra);
        free(copy);
    }
    if (rc) batch_free(outer, b);
    return rc;
}

int eng_batch_check(const eng_run *outer, int argc, char **argv)
{
    batch b;
    const int rc = batch_open(outer, argc, argv, &b, 1);
    if (rc == 0) batch_free(outer, &b);
    return rc;
}

int eng_run_batch(eng_run *outer, int argc, char **argv)
{
    const char *path = outer->opt.batch;
    batch b;
    const int rc = batch_open(outer, argc, argv, &b, 0);   /* eng_main checked every line */
    if (rc) return rc;
    int failures = 0;
    /* the driver's limit before any line: each line without --l2-fetch runs
     * under it (run.c), whatever the line before it asked for */
    ENG_CUDA(cudaDeviceGetLimit(&outer->l2_fetch_default, cudaLimitMaxL2FetchGranularity));
    outer->l2_fetch_now = outer->l2_fetch_default;
    eng_table_open(outer);
    fprintf(outer->tbl, "# batch\t%s (%ld runs)\n", path, b.n);
    eng_print_meta(outer);
    for (long i = 0; i < b.n; i++) {
        opts_restore(outer->fam->options, b.saved);
        if (configure_line(outer, b.x, b.lines[i], path, b.lineno[i], b.extra, b.nextra) != 0)
            eng_die(outer, "%s:%ld: the line changed meaning between its check and its run", path, b.lineno[i]);
        if (!outer->opt.quiet)
            fprintf(stderr, "%s: batch %ld of %ld (%s:%ld)\n", outer->prog, i + 1, b.n, path, b.lineno[i]);
        failures += run_line(outer, b.x, path, b.lineno[i]);
    }
    if (eng_table_close(outer, 1) != 0) failures++;
    batch_free(outer, &b);
    return failures ? 1 : 0;
}

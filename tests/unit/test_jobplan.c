/*
 * test_jobplan - the report's chart jobs (jobplan.h) and their runner
 * (jobrun.h): the NUL form carries TABs, newlines, quotes and empty
 * arguments whole (issue 35: the TSV plan split them), a broken plan is
 * refused with a sentence; the runner keeps at most N jobs at once, runs
 * argv arrays (a path is never a command), keeps a job's stdout only when
 * it exits 0, names each failure by the end of its stderr and records it
 * in failures.tsv, steps.tsv and the failed list.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "testfiles.h"
#include "jobplan.h"
#include "jobrun.h"

static char dir[256];
static const char odd[] = "a b\tc\nd\"e'f";

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = calloc(1, 1 << 16);
    *len = b ? fread(b, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    return b;
}

static void add(jp_plan *p, const char *out, const char *so, const char *what, int argc, const char *const *argv)
{
    char err[256];
    const int rc = jp_add(p, out, so, what, argc, argv, err, sizeof err);
    CHECK_EQ_I(rc, 0);
    if (rc) fprintf(stderr, "jp_add: %s\n", err);
}

static void test_round_trip(void)
{
    jp_plan p = {0};
    const char *a0[] = {"bin/plot_warps", odd, "", "--region", "x\ty"};
    add(&p, odd, NULL, "what\twith a tab", 5, a0);
    const char *a1[] = {"bin/sector_compare", "s.tsv"};
    add(&p, "/o/t.svg", "/o/t.tsv", "a table", 2, a1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    jp_write_nul(f, &p);
    fclose(f);
    jp_plan q = {0};
    char err[256];
    CHECK_EQ_I(jp_parse_nul(buf, len, "mem", &q, err, sizeof err), 0);
    CHECK_EQ_U(q.n, 2);
    if (q.n == 2) {
        CHECK(!strcmp(q.jobs[0].output, odd));
        CHECK(q.jobs[0].out_stdout == NULL);
        CHECK(!strcmp(q.jobs[0].what, "what\twith a tab"));
        CHECK_EQ_I(q.jobs[0].argc, 5);
        for (int i = 0; i < 5 && q.jobs[0].argc == 5; i++) CHECK(!strcmp(q.jobs[0].argv[i], a0[i]));
        CHECK(q.jobs[0].argv[5] == NULL);
        CHECK(!strcmp(q.jobs[1].out_stdout, "/o/t.tsv"));
        CHECK(jp_is_chart(&q.jobs[1]));
    }
    /* the TSV form, as bin/report plan always printed it */
    jp_plan r = {0};
    add(&r, "/o/t.svg", "/o/t.tsv", "a table", 2, a1);
    add(&r, "/o/l.svg", NULL, "a chart", 2, a1);
    free(buf);
    f = open_memstream(&buf, &len);
    jp_write_tsv(f, &r);
    fclose(f);
    CHECK(!strcmp(buf, "/o/t.svg\t/o/t.tsv\ta table\tbin/sector_compare\ts.tsv\n"
                       "/o/l.svg\t-\ta chart\tbin/sector_compare\ts.tsv\n"));
    free(buf);
    jp_free(&p);
    jp_free(&q);
    jp_free(&r);
}

static void refused(const char *buf, size_t len, const char *says)
{
    jp_plan p = {0};
    char err[256] = "";
    CHECK_EQ_I(jp_parse_nul(buf, len, "plan", &p, err, sizeof err), -1);
    CHECK_STR_HAS(err, says);
    CHECK_EQ_U(p.n, 0);
    CHECK(p.jobs == NULL);
}

static void test_refused(void)
{
    static const char tsv[] = "/o/a.svg\t-\tw\tbin/x\n";
    refused(tsv, sizeof tsv - 1, "not a plan in the NUL form");
    static const char word[] = "warplat-plan 1\0four\0";
    refused(word, sizeof word - 1, "job 1: its field count is not a number");
    static const char three[] = "warplat-plan 1\0003\0a\0b\0c\0";
    refused(three, sizeof three - 1, "job 1: its field count");
    static const char cut[] = "warplat-plan 1\0004\0a\0\0w\0bin/x\0" "5\0b\0\0w\0bin/y\0";
    refused(cut, sizeof cut - 1, "job 2 is cut short (5 fields announced)");
    static const char noprog[] = "warplat-plan 1\0004\0a\0\0w\0\0";
    refused(noprog, sizeof noprog - 1, "a job needs an output, its words and a program");
    /* an empty plan is a plan */
    jp_plan p = {0};
    char err[256];
    CHECK_EQ_I(jp_parse_nul("warplat-plan 1", 15, "plan", &p, err, sizeof err), 0);
    CHECK_EQ_U(p.n, 0);
}

static void tail_is(const char *text, const char *want)
{
    char out[256];
    jr_error_tail(text, strlen(text), out, sizeof out);
    if (strcmp(out, want)) fprintf(stderr, "tail of [%s]: [%s], want [%s]\n", text, out, want);
    CHECK(!strcmp(out, want));
}

static void test_error_tail(void)
{
    /* as report.sh's grep -v '^[[:space:]]*$' | tail -n 2 | tr '\t\n' '  ' */
    tail_is("", "");
    tail_is("\n  \n\t\n", "");
    tail_is("only", "only ");
    tail_is("only\n", "only ");
    tail_is("one\ntwo\n\nthree\tx\n \n", "two three x ");
    tail_is("a\nb\nc", "b c ");
}

static const char *path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
    return buf;
}

static void test_run(void)
{
    char logdir[512], p1[512], p2[512], p3[512], p4[512], oddpath[512], err[512];
    snprintf(logdir, sizeof logdir, "%s/logs", dir);
    CHECK(mkdir(logdir, 0777) == 0);
    test_put_file(logdir, "steps.tsv", "step\tstatus\tstart_us\tend_us\n");
    snprintf(oddpath, sizeof oddpath, "%s/%s.svg", dir, odd);

    jp_plan p = {0};
    const char *fails[] = {"sh", "-c", "echo out; echo err1 >&2; echo >&2; echo 'err 2' >&2; exit 3"};
    add(&p, path_in(p1, sizeof p1, "f.svg"), NULL, "fails", 3, fails);
    const char *hello[] = {"sh", "-c", "echo hello"};
    add(&p, path_in(p2, sizeof p2, "t.tsv"), p2, "a table", 3, hello);
    const char *partial[] = {"sh", "-c", "echo partial; exit 1"};
    add(&p, path_in(p3, sizeof p3, "u.tsv"), p3, "a partial table", 3, partial);
    const char *none[] = {"/nonexistent/prog", "x"};
    add(&p, path_in(p4, sizeof p4, "n.svg"), NULL, "no program", 2, none);
    /* a path with every awkward byte is an argument, never a command */
    const char *oddjob[] = {"sh", "-c", "printf %s \"$1\" >\"$2\"", "sh", odd, oddpath};
    add(&p, oddpath, NULL, odd, 6, oddjob);

    char *list = NULL, *prog = NULL;
    size_t llen = 0, plen = 0;
    FILE *lf = open_memstream(&list, &llen), *pf = open_memstream(&prog, &plen);
    jr_opts o = {.jobs = 1, .logdir = logdir, .progress = pf, .prog = "report.sh", .t0_us = jr_now_us(), .tick_s = 5};
    jr_result res;
    CHECK_EQ_I(jr_run(&p, &o, &res, lf, err, sizeof err), 0);
    fclose(lf);
    fclose(pf);
    CHECK_EQ_U(res.run, 5);
    CHECK_EQ_U(res.failed, 3);
    CHECK_EQ_I(res.max_running, 1);
    CHECK_EQ_I(res.signal, 0);
    /* the failed list: "chart: WHAT" and a NUL each, in order */
    static const char want_list[] = "chart: fails\0chart: a partial table\0chart: no program";
    CHECK_EQ_U(llen, sizeof want_list);
    CHECK(llen == sizeof want_list && !memcmp(list, want_list, llen));
    CHECK_STR_HAS(prog, "report.sh: [0.");
    CHECK_STR_HAS(prog, "  5 job(s) on 1 core(s)\n");
    CHECK_STR_HAS(prog, "]   [1/5] FAILED: fails: err1 err 2 \n");
    CHECK_STR_HAS(prog, "]   [2/5] a table (0.");

    size_t len = 0;
    char *t = slurp(p2, &len);
    CHECK(t && !strcmp(t, "hello\n"));
    free(t);
    CHECK(access(p3, F_OK) != 0);        /* a failed job's table is not kept */
    CHECK_EQ_I(test_count_tmp(dir), 0);
    CHECK_EQ_I(test_count_tmp(logdir), 0);
    t = slurp(oddpath, &len);
    CHECK(t && len == strlen(odd) && !memcmp(t, odd, len));
    free(t);

    char fpath[600];
    snprintf(fpath, sizeof fpath, "%s/failures.tsv", logdir);
    t = slurp(fpath, &len);
    char want[2048];
    snprintf(want, sizeof want,
             "output\terror\n%s\terr1 err 2 \n%s\texit status 1\n%s\tcannot run /nonexistent/prog: No such file or directory \n",
             p1, p3, p4);   /* the partial table said nothing on stderr: its exit status names it */
    if (t && strcmp(t, want)) fprintf(stderr, "failures.tsv:\n%s\nwant:\n%s\n", t, want);
    CHECK(t && !strcmp(t, want));
    free(t);
    /* each job a row of the run log, its name's TAB and newline escaped */
    snprintf(fpath, sizeof fpath, "%s/steps.tsv", logdir);
    t = slurp(fpath, &len);
    CHECK_STR_HAS(t, "\nchart: fails\tfailed\t");
    CHECK_STR_HAS(t, "\nchart: a table\tok\t");
    CHECK_STR_HAS(t, "\nchart: a b\\x09c\\x0ad\"e'f\tok\t");
    int rows = 0;
    for (size_t i = 0; t && i < len; i++) rows += t[i] == '\n';
    CHECK_EQ_I(rows, 6);
    free(t);
    snprintf(fpath, sizeof fpath, "%s/job0.err", logdir);
    t = slurp(fpath, &len);
    CHECK(t && !strcmp(t, "err1\n\nerr 2\n"));   /* the whole stderr is kept */
    free(t);
    free(list);
    free(prog);
    jp_free(&p);
}

static void test_pool_and_no_charts(void)
{
    char logdir[512], out[512], mark[512], err[512];
    snprintf(logdir, sizeof logdir, "%s/logs2", dir);
    CHECK(mkdir(logdir, 0777) == 0);
    test_put_file(logdir, "steps.tsv", "step\tstatus\tstart_us\tend_us\n");
    jp_plan p = {0};
    /* 0.4 s: the third nap starts, and a tick sees the first, long before
       the first ends, even on a loaded machine under the sanitizers */
    const char *nap[] = {"sleep", "0.4"};
    for (int i = 0; i < 6; i++) {
        char w[32];
        snprintf(w, sizeof w, "nap %d", i);
        snprintf(out, sizeof out, "%s/nap%d.tsv", dir, i);
        add(&p, out, NULL, w, 2, nap);
    }
    snprintf(mark, sizeof mark, "%s/drawn", dir);
    const char *draw[] = {"touch", mark};
    add(&p, path_in(out, sizeof out, "c.svg"), NULL, "a chart", 2, draw);
    char *prog = NULL;
    size_t plen = 0;
    FILE *pf = open_memstream(&prog, &plen);
    jr_opts o = {.jobs = 3, .no_charts = 1, .logdir = logdir, .progress = pf, .t0_us = jr_now_us(), .tick_s = 0.05};
    jr_result res;
    CHECK_EQ_I(jr_run(&p, &o, &res, NULL, err, sizeof err), 0);
    fclose(pf);
    CHECK_EQ_I(res.max_running, 3);       /* the bound, and reached */
    CHECK_EQ_U(res.run, 6);
    CHECK_EQ_U(res.failed, 0);
    CHECK_EQ_U(res.not_drawn, 1);
    CHECK(access(mark, F_OK) != 0);        /* the chart job did not run */
    CHECK_STR_HAS(prog, "still running: nap 0 (0.");
    char fpath[600];
    size_t len;
    snprintf(fpath, sizeof fpath, "%s/failures.tsv", logdir);
    char *t = slurp(fpath, &len);
    char want[1024];
    snprintf(want, sizeof want, "output\terror\n%s/c.svg\tnot drawn: the report was made with --no-charts\n", dir);
    CHECK(t && !strcmp(t, want));
    free(t);
    free(prog);
    jp_free(&p);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/test_jobplan.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return 1;
    test_round_trip();
    test_refused();
    test_error_tail();
    test_run();
    test_pool_and_no_charts();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_jobplan");
}

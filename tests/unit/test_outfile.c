/*
 * test_outfile - checked outputs (outfile.h) and bounded line reading
 * (lines.h): a write error is reported and leaves no file; stdout on a full
 * device is a failure; a line longer than the bound is refused.
 */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "lines.h"
#include "outfile.h"

static char dir[256];

static int exists(const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

static void test_commit(void)
{
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/ok.tsv", dir);
    outfile o;
    FILE *f = outfile_open(&o, path, "w", err, sizeof err);
    CHECK(f != NULL);
    if (!f) return;
    fputs("a\tb\n", f);
    CHECK(exists("ok.tsv.tmp") && !exists("ok.tsv"));
    CHECK_EQ_I(outfile_commit(&o, err, sizeof err), 0);
    CHECK(exists("ok.tsv") && !exists("ok.tsv.tmp"));

    f = outfile_open(&o, path, "w", err, sizeof err);
    fputs("half", f);
    outfile_abort(&o);
    CHECK(!exists("ok.tsv.tmp"));
    FILE *r = fopen(path, "r");
    char buf[16] = "";
    CHECK(r && fgets(buf, sizeof buf, r) && !strcmp(buf, "a\tb\n")); /* untouched */
    if (r) fclose(r);

    CHECK(outfile_open(&o, "/nonexistent-dir/x.tsv", "w", err, sizeof err) == NULL);
    CHECK_STR_HAS(err, "cannot create /nonexistent-dir/x.tsv.tmp");
    CHECK_STR_HAS(err, "does the output directory exist");
}

/* A file that cannot grow (RLIMIT_FSIZE, as a full disk): the commit fails,
 * says why, and leaves neither the file nor its .tmp.  In a child, so that
 * the limit does not outlive the test. */
static void test_write_error(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &rl);
        char path[512], err[256] = "";
        snprintf(path, sizeof path, "%s/full.tsv", dir);
        outfile o;
        FILE *f = outfile_open(&o, path, "w", err, sizeof err);
        if (!f) _exit(10);
        for (int i = 0; i < 100000; i++) fprintf(f, "%d\n", i);
        int rc = outfile_commit(&o, err, sizeof err);
        if (rc != -1) _exit(11);
        if (!strstr(err, "cannot write") || !strstr(err, "full.tsv.tmp")) _exit(12);
        if (exists("full.tsv") || exists("full.tsv.tmp")) _exit(13);
        _exit(0);
    }
    int st = -1;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st));
    CHECK_EQ_I(WEXITSTATUS(st), 0);
}

static void test_stdout(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/full", "w", stdout)) _exit(20);
        if (!freopen("/dev/null", "w", stderr)) _exit(21);
        printf("a row that cannot be written\n");
        _exit(outfile_check_stdout("test") == 1 ? 0 : 22);
    }
    int st = -1;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st));
    CHECK_EQ_I(WEXITSTATUS(st), 0);

    FILE *f = tmpfile();
    outfile_put_field(f, "a\tb\nc\033[0m");
    rewind(f);
    char buf[64] = "";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECK(!strcmp(buf, "a\\x09b\\x0ac\\x1b[0m"));
}

static void test_lines(void)
{
    const char text[] = "one\r\n\ntwo\nlast-without-newline";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    char *buf = NULL;
    size_t cap = 0;
    CHECK_EQ_I(lines_read(f, &buf, &cap, 100), 3);
    CHECK(!strcmp(buf, "one"));
    CHECK_EQ_I(lines_read(f, &buf, &cap, 100), 0);
    CHECK_EQ_I(lines_read(f, &buf, &cap, 100), 3);
    CHECK_EQ_I(lines_read(f, &buf, &cap, 100), 20);
    CHECK(!strcmp(buf, "last-without-newline"));
    CHECK_EQ_I(lines_read(f, &buf, &cap, 100), -1);
    fclose(f);
    /* the bound: exactly max is fine, one more is refused, and the buffer
     * never grows past max + 1 */
    char longl[40];
    memset(longl, 'x', sizeof longl);
    free(buf);
    buf = NULL;
    cap = 0;
    f = fmemopen(longl, 11, "r");
    CHECK_EQ_I(lines_read(f, &buf, &cap, 10), -2);
    CHECK(cap <= 11);
    fclose(f);
    f = fmemopen(longl, 10, "r");
    CHECK_EQ_I(lines_read(f, &buf, &cap, 10), 10);
    fclose(f);
    free(buf);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/test_outfile.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_commit();
    test_write_error();
    test_stdout();
    test_lines();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_outfile");
}

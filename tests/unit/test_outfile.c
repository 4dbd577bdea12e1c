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
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "testfiles.h"
#include "lines.h"
#include "outfile.h"

static char dir[256];

static int exists(const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

static void slurp(const char *path, char *buf, size_t cap)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) return;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
}

/* A directory is refused; a FIFO is written in place and stays a FIFO; a
 * symbolic link stays a link to the new file; permissions are kept. */
static void test_kinds(void)
{
    char path[512], err[256] = "";
    outfile o;
    CHECK(outfile_open(&o, dir, "w", err, sizeof err) == NULL);
    CHECK_STR_HAS(err, "is a directory");
    CHECK(outfile_open(&o, "", "w", err, sizeof err) == NULL);

    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        char e2[256];
        outfile w;
        FILE *f = outfile_open(&w, path, "w", e2, sizeof e2);
        if (!f) _exit(30);
        fputs("through the fifo\n", f);
        _exit(outfile_commit(&w, e2, sizeof e2) == 0 ? 0 : 31);
    }
    char buf[128];
    slurp(path, buf, sizeof buf);
    int st = -1;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(!strcmp(buf, "through the fifo\n"));
    struct stat sb;
    CHECK(lstat(path, &sb) == 0 && S_ISFIFO(sb.st_mode));
    CHECK_EQ_I(test_count_tmp(dir), 0);

    char target[512];
    snprintf(target, sizeof target, "%s/target.tsv", dir);
    snprintf(path, sizeof path, "%s/link.tsv", dir);
    FILE *t = fopen(target, "w");
    if (t) fclose(t);
    CHECK(chmod(target, 0640) == 0);
    CHECK(symlink("target.tsv", path) == 0);
    FILE *f = outfile_open(&o, path, "w", err, sizeof err);
    CHECK(f != NULL);
    if (f) {
        fputs("new\n", f);
        CHECK_EQ_I(outfile_commit(&o, err, sizeof err), 0);
    }
    CHECK(lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode));
    slurp(target, buf, sizeof buf);
    CHECK(!strcmp(buf, "new\n"));
    CHECK(stat(target, &sb) == 0 && (sb.st_mode & 0777) == 0640);
}

/* A file the user may not write (mode 0444: refused for root too) is
 * refused with a sentence and stays as it was, its hard link included. */
static void test_read_only(void)
{
    char path[512], other[512], err[256] = "";
    snprintf(path, sizeof path, "%s/ro.tsv", dir);
    snprintf(other, sizeof other, "%s/ro-link.tsv", dir);
    FILE *t = fopen(path, "w");
    if (t) {
        fputs("kept\n", t);
        fclose(t);
    }
    CHECK(chmod(path, 0444) == 0);
    CHECK(link(path, other) == 0);
    outfile o;
    CHECK(outfile_open(&o, path, "w", err, sizeof err) == NULL);
    CHECK_STR_HAS(err, "is read-only (mode 0444)");
    char buf[32];
    slurp(other, buf, sizeof buf);
    CHECK(!strcmp(buf, "kept\n"));
    struct stat a, b;
    CHECK(stat(path, &a) == 0 && stat(other, &b) == 0 && a.st_ino == b.st_ino && a.st_nlink == 2);
    CHECK_EQ_I(test_count_tmp(dir), 0);
    /* writable again: replaced as any file */
    CHECK(chmod(path, 0644) == 0);
    FILE *f = outfile_open(&o, path, "w", err, sizeof err);
    CHECK(f != NULL);
    if (f) {
        fputs("new\n", f);
        CHECK_EQ_I(outfile_commit(&o, err, sizeof err), 0);
    }
    slurp(path, buf, sizeof buf);
    CHECK(!strcmp(buf, "new\n"));
}

/* Two writers of one file at once: each has its own temporary, and the
 * file is one of theirs whole. */
static void test_two_writers(void)
{
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/both.tsv", dir);
    outfile a, b;
    FILE *fa = outfile_open(&a, path, "w", err, sizeof err);
    FILE *fb = outfile_open(&b, path, "w", err, sizeof err);
    CHECK(fa && fb);
    if (!fa || !fb) return;
    CHECK(strcmp(outfile_name(&a), outfile_name(&b)) != 0);
    for (int i = 0; i < 20000; i++) {
        fputs("aaaaaaaa\n", fa);
        fputs("bbbbbbbb\n", fb);
    }
    CHECK_EQ_I(outfile_commit(&a, err, sizeof err), 0);
    CHECK_EQ_I(outfile_commit(&b, err, sizeof err), 0);
    FILE *f = fopen(path, "r");
    char line[32];
    int n = 0, mixed = 0;
    while (f && fgets(line, sizeof line, f)) {
        n++;
        if (strcmp(line, "bbbbbbbb\n") != 0) mixed++;
    }
    if (f) fclose(f);
    CHECK_EQ_I(n, 20000);
    CHECK_EQ_I(mixed, 0);
    CHECK_EQ_I(test_count_tmp(dir), 0);
}

/* SIGTERM and SIGINT while outputs are open: the temporaries go, the
 * process dies of the signal, the final names never appear. */
static void test_signal(int sig)
{
    pid_t pid = fork();
    if (pid == 0) {
        char path[512], err[256];
        outfile o[3];
        for (int i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/sig%d.tsv", dir, i);
            FILE *f = outfile_open(&o[i], path, "w", err, sizeof err);
            if (!f) _exit(40);
            fputs("partial\n", f);
            fflush(f);
        }
        if (test_count_tmp(dir) != 3) _exit(41);
        raise(sig);
        _exit(42);
    }
    int st = -1;
    waitpid(pid, &st, 0);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sig);
    CHECK_EQ_I(test_count_tmp(dir), 0);
    CHECK(!exists("sig0.tsv") && !exists("sig1.tsv") && !exists("sig2.tsv"));
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
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s", outfile_name(&o));
    /* a unique temporary beside the target: BASE.XXXXXX.tmp */
    CHECK(!strncmp(tmp, path, strlen(path)) && strlen(tmp) == strlen(path) + 11);
    CHECK(access(tmp, F_OK) == 0 && !exists("ok.tsv"));
    CHECK_EQ_I(outfile_commit(&o, err, sizeof err), 0);
    CHECK(exists("ok.tsv") && access(tmp, F_OK) != 0);
    CHECK_EQ_I(test_count_tmp(dir), 0);

    f = outfile_open(&o, path, "w", err, sizeof err);
    fputs("half", f);
    outfile_abort(&o);
    CHECK_EQ_I(test_count_tmp(dir), 0);
    FILE *r = fopen(path, "r");
    char buf[16] = "";
    CHECK(r && fgets(buf, sizeof buf, r) && !strcmp(buf, "a\tb\n")); /* untouched */
    if (r) fclose(r);

    CHECK(outfile_open(&o, "/nonexistent-dir/x.tsv", "w", err, sizeof err) == NULL);
    CHECK_STR_HAS(err, "cannot write /nonexistent-dir/x.tsv");
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
        if (!strstr(err, "cannot write") || !strstr(err, "full.tsv")) _exit(12);
        if (exists("full.tsv") || test_count_tmp(dir) != 0) _exit(13);
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
    /* an ignored signal stays ignored by outfile (nohup, a background job):
     * the test is about the handler, so the signals start at their default
     * before the first output installs it */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM,
                        SIGUSR1, SIGUSR2, SIGPIPE, SIGXFSZ};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) signal(sigs[k], SIG_DFL);
    struct rlimit nocore = {0, 0};
    setrlimit(RLIMIT_CORE, &nocore); /* SIGQUIT and SIGXFSZ would dump one */
    snprintf(dir, sizeof dir, "%s/test_outfile.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_commit();
    test_write_error();
    test_kinds();
    test_two_writers();
    test_read_only();
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) test_signal(sigs[k]);
    test_stdout();
    test_lines();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_outfile");
}

/* test_gp.c - the one way a string enters a gnuplot script (gp_put_text,
 * issue 35): hostile strings stay text.  As a string, reading the output
 * back by gnuplot's rules for single-quoted strings gives the input (control
 * characters as spaces) and ends where it should; as a comment, nothing
 * can end the line or continue it.  Where gnuplot is installed, a whole
 * chart whose titles, labels and file names are these strings is drawn
 * and creates nothing else (tests/cli/gp_names.sh runs the tools so). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "gp.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const HOSTILE[] = {
    "x\nsystem(\"touch PWNED\")\n#",
    "a'b",
    "it''s",
    "'",
    "''''",
    "'lead and trail'",
    "'; system('touch PWNED'); '",
    "back\\",
    "\\",
    "a\\\nsystem(\"touch PWNED\")",
    "`touch PWNED`",
    "@ARG1",
    "\r!touch PWNED\r",
    "\"double\" \\n \\' quotes",
    "tab\there \x1b[2J \x7f end",
    "",
    "plain words, 1.5 GB/s (ok)",
};
#define NH (sizeof HOSTILE / sizeof *HOSTILE)

/* gp_put_text's output for s, as a string (static buffer). */
static const char *put(gp_text as, const char *s)
{
    static char buf[1024];
    memset(buf, 0, sizeof buf);   /* glibc's fmemopen leaves it as it was when nothing is written */
    FILE *f = fmemopen(buf, sizeof buf, "w");
    if (!f) return "";
    gp_put_text(f, as, s);
    fclose(f);
    return buf;
}

/* Read a single-quoted gnuplot string at q as gnuplot 5.4 does (scanner.c:
 * at a character of the string, a '' that follows it is taken in; the
 * next lone quote ends the string; parse_sq then makes '' a quote); its
 * value into out.  Returns the bytes read, or 0 when q does not start with
 * one whole string on one line. */
static size_t gnuplot_squote(const char *q, char *out, size_t len)
{
    size_t cur = 0, u = 0;
    if (q[0] != '\'') return 0;
    while (q[++cur] != '\'') {
        if (q[cur] == 0 || q[cur] == '\n') return 0;
        if (q[cur + 1] == '\'' && q[cur + 2] == '\'') cur += 2;
    }
    for (size_t i = 1; i < cur && u + 1 < len; i++) {
        if (q[i] == '\'' && q[i + 1] == '\'') i++;
        out[u++] = q[i];
    }
    out[u] = 0;
    return cur + 1;
}

static void test_text(void)
{
    for (size_t k = 0; k < NH; k++) {
        const char *s = HOSTILE[k];
        /* a string: one token, the whole output, whose value is s with its
         * control characters (tab aside) as spaces */
        const char *q = put(GP_TEXT_STRING, s);
        char got[512], want[512];
        CHECK_EQ_U(gnuplot_squote(q, got, sizeof got), strlen(q));
        size_t u = 0;
        for (const char *p = s; *p && u + 4 < sizeof want; p++) {
            if (*p == '\'' && (p == s || p[-1] == '\'')) {
                memcpy(want + u, "\xe2\x80\x99", 3);   /* a quote gnuplot cannot read doubled */
                u += 3;
            } else {
                want[u++] = ((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f ? ' ' : *p;
            }
        }
        want[u] = 0;
        CHECK(strcmp(got, want) == 0);
        CHECK(strchr(q, '\n') == NULL && strchr(q, '\r') == NULL);
        /* a comment: one line that cannot continue onto the next */
        const char *c = put(GP_TEXT_COMMENT, s);
        CHECK_EQ_U(strlen(c), strlen(s));
        for (const char *p = c; *p; p++)
            CHECK(!((unsigned char)*p < 0x20 && *p != '\t') && *p != 0x7f && *p != '\\');
    }
    /* what charts write today is written as it was: byte for byte */
    CHECK(strcmp(put(GP_TEXT_STRING, "random_access, 4 warps/block"), "'random_access, 4 warps/block'") == 0);
    CHECK(strcmp(put(GP_TEXT_STRING, "it's"), "'it''s'") == 0);
    CHECK(strcmp(put(GP_TEXT_COMMENT, "latency.gp"), "latency.gp") == 0);
    CHECK(strcmp(put(GP_TEXT_COMMENT, "a\nb\\"), "a?b?") == 0);
    CHECK(strcmp(put(GP_TEXT_STRING, "a\nb"), "'a b'") == 0);
    CHECK(strcmp(put(GP_TEXT_STRING, "'x''"), "'\xe2\x80\x99x''\xe2\x80\x99'") == 0);
    CHECK(strcmp(put(GP_TEXT_STRING, NULL), "''") == 0);
    /* gp_put_str is the string form */
    char b1[64] = "", b2[64];
    FILE *f = fmemopen(b1, sizeof b1, "w");
    gp_put_str(f, "x'\ny");
    fclose(f);
    snprintf(b2, sizeof b2, "%s", put(GP_TEXT_STRING, "x'\ny"));
    CHECK(strcmp(b1, b2) == 0);
}

/* The chart's data and script: every hostile string as a title, a label, a
 * comment and a key entry. */
static int put_data(FILE *d, const void *ctx, char *err, size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    for (size_t k = 0; k < NH; k++) {
        fputs("# ", d);
        gp_put_text(d, GP_TEXT_COMMENT, HOSTILE[k]);
        fprintf(d, "\n%zu\t%zu\n", k, k * k);
    }
    return 0;
}

static void put_script(FILE *s, const void *ctx)
{
    (void)ctx;
    for (size_t k = 0; k < NH; k++) {
        fputs("# ", s);
        gp_put_text(s, GP_TEXT_COMMENT, HOSTILE[k]);
        fputs("\nset title ", s);
        gp_put_str(s, HOSTILE[k]);
        fprintf(s, "\nset label %zu ", k + 1);
        gp_put_str(s, HOSTILE[k]);
        fprintf(s, " at %zu,%zu\n", k, k * k);
    }
    fputs("set xlabel ", s);
    gp_put_str(s, HOSTILE[0]);
    fputs("\nplot dat using 1:2 with linespoints title ", s);
    gp_put_str(s, HOSTILE[3]);
    fputs(", x title ", s);
    gp_put_str(s, HOSTILE[6]);
    fputc('\n', s);
}

/* Only the chart, its script and its data are in dir afterwards. */
static void test_gnuplot_draws(void)
{
    if (!gp_available()) {
        printf("test_gp: gnuplot not installed: the drawing part is left to tests/cli/gp_names.sh (it skips)\n");
        return;
    }
    char dir[] = "/tmp/test_gp.XXXXXX", out[128], here[4096];
    if (!mkdtemp(dir) || !getcwd(here, sizeof here)) {
        CHECK(0);
        return;
    }
    CHECK_EQ_I(chdir(dir), 0);   /* gnuplot's own cwd is the chart's folder */
    snprintf(out, sizeof out, "%s/chart.svg", dir);
    CHECK_EQ_I(gp_draw("test_gp", out, 400, 300, 0, "w", put_data, put_script, NULL), 0);
    int n = 0, other = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        n++;
        if (strcmp(e->d_name, "chart.svg") && strcmp(e->d_name, "chart.gp") && strcmp(e->d_name, "chart.dat")) {
            other++;
            fprintf(stderr, "test_gp: gnuplot created %s\n", e->d_name);
        }
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    if (d) closedir(d);
    CHECK_EQ_I(n, 3);
    CHECK_EQ_I(other, 0);
    CHECK(access("PWNED", F_OK) != 0);
    CHECK_EQ_I(chdir(here), 0);
    CHECK(access("PWNED", F_OK) != 0);
    rmdir(dir);
}

int main(void)
{
    test_text();
    test_gnuplot_draws();
    return check_report("test_gp");
}

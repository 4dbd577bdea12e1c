#define _POSIX_C_SOURCE 200809L
/* test_optfuzz.c - the command lines tests/gpu/fuzz_options.sh runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "optfuzz.h"

static const char OPTIONS[] =
    "option\tkind\tlo\thi\tchoices\tscope\n"
    "N\tcount\t1\t68719476736\t-\tpositional\n"
    "SMEM\tu64\t0\t1073741824\t-\tpositional\n"
    "WPB\tu64\t1\t32\t-\tpositional\n"
    "--kernel\tstring\t-\t-\t-\tcommon\n"
    "--reps\tu64\t1\t10000\t-\tcommon\n"
    "--sample\tstring\t-\t-\t-\tcommon\n"
    "--out\tstring\t-\t-\t-\tcommon\n"
    "--configs-max\tu64\t1\t1048576\t-\tcommon\n"
    "--batch\tlist\t1\t16\t-\tfamily\n"
    "--width\tlist\t4\t16\t4,8,16\tfamily\n"
    "--flag\tflag\t-\t-\t-\tfamily\n";

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

/* The value after option `name` in a TAB-separated line, or NULL. */
static const char *value_of(char *line, const char *name, char *out, size_t len)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", line);
    char *save = NULL;
    for (char *t = strtok_r(copy, "\t", &save); t; t = strtok_r(NULL, "\t", &save))
        if (!strcmp(t, name)) {
            char *v = strtok_r(NULL, "\t", &save);
            if (!v) return NULL;
            snprintf(out, len, "%s", v);
            return out;
        }
    return NULL;
}

int main(void)
{
    char dir[] = "/tmp/test_optfuzz.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char op[256], kp[256], err[256];
    snprintf(op, sizeof op, "%s/p.options", dir);
    snprintf(kp, sizeof kp, "%s/p.kernels", dir);
    CHECK(write_file(op, OPTIONS) == 0);
    CHECK(write_file(kp, "alpha\tthe first\nbeta\tthe second\n") == 0);
    of_prog p;
    CHECK(of_read_program(&p, "prog", op, kp, err, sizeof err) == 0);
    CHECK_EQ_I(p.nopt, 11);
    CHECK_EQ_I(p.nkernel, 2);
    CHECK(strcmp(p.kernel[1], "beta") == 0);
    CHECK_EQ_U(p.opt[1].hi, 1073741824);
    CHECK(strcmp(p.opt[9].choices, "4,8,16") == 0);

    /* a table without the columns is refused with a sentence */
    CHECK(write_file(op, "a\tb\n1\t2\n") == 0);
    of_prog q;
    CHECK(of_read_program(&q, "q", op, NULL, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "no column 'option'");

    /* many lines: the shape, the ranges, the edges, and what is never drawn */
    uint64_t rng = 42;
    int saw_lo_edge = 0, saw_hi_past = 0, saw_width5 = 0, saw_wpb[34] = {0}, nwidth = 0, nwidth_set = 0;
    for (int i = 0; i < 4000; i++) {
        char line[4096], v[256];
        const int argc = of_draw_line(&p, &rng, line, sizeof line);
        CHECK(argc >= 3);
        CHECK(!strncmp(line, "prog\t", 5));
        CHECK(strstr(line, "--reps") == NULL && strstr(line, "--out") == NULL);
        CHECK(value_of(line, "--configs-max", v, sizeof v) != NULL);   /* always given */
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", line);
        char *save = NULL;
        strtok_r(copy, "\t", &save);
        strtok_r(NULL, "\t", &save);   /* N */
        strtok_r(NULL, "\t", &save);   /* SMEM */
        const char *wpb = strtok_r(NULL, "\t", &save);
        const unsigned long w = strtoul(wpb, NULL, 10);
        if (w <= 33) saw_wpb[w] = 1;
        if (value_of(line, "--batch", v, sizeof v)) {
            for (char *s = strtok_r(v, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
                const unsigned long b = strtoul(s, NULL, 10);
                CHECK(b <= 17);
                if (b == 0) saw_lo_edge = 1;
                if (b == 17) saw_hi_past = 1;
            }
        }
        if (value_of(line, "--width", v, sizeof v)) {
            for (char *s = strtok_r(v, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
                const unsigned long b = strtoul(s, NULL, 10);
                nwidth++;
                if (b == 4 || b == 8 || b == 16) nwidth_set++;
                if (b == 5) saw_width5 = 1;
            }
        }
    }
    CHECK(saw_lo_edge && saw_hi_past && saw_width5);
    for (int w = 0; w <= 33; w++) CHECK(saw_wpb[w]);   /* every WPB, and 0 and 33 */
    CHECK(nwidth_set * 10 > nwidth * 6);               /* mostly from the allowed set */

    /* the same seed, the same lines; another seed, others */
    char a[4096], b[4096];
    uint64_t r1 = 7, r2 = 7, r3 = 8;
    of_draw_line(&p, &r1, a, sizeof a);
    of_draw_line(&p, &r2, b, sizeof b);
    CHECK(strcmp(a, b) == 0);
    of_draw_line(&p, &r3, b, sizeof b);
    CHECK(strcmp(a, b) != 0);
    /* a buffer too small is said, not overrun */
    char tiny[8];
    uint64_t r4 = 1;
    CHECK(of_draw_line(&p, &r4, tiny, sizeof tiny) == -1);
    remove(op);
    remove(kp);
    remove(dir);
    return check_report("test_optfuzz");
}

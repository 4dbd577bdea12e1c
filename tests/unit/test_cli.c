#define _DEFAULT_SOURCE /* mkstemp, ftruncate, pread */
/* test_cli.c - the experiments' argument parsing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "check.h"
#include "cli.h"

static uint64_t v;
static char err[256];

static int usage_calls;
static void count_usage(FILE *f) { (void)f; usage_calls++; }
static const cli_opt *usage_table;   /* the table cli_tool_parse gave its usage */
static void table_usage(FILE *f, const cli_opt *t) { usage_table = t; count_usage(f); }

static int count(const char *s) { err[0] = 0; return cli_parse_count("N", s, 1ull << 36, &v, err, sizeof err); }

int main(void)
{
    /* accepted forms */
    CHECK(count("100000000") == 0); CHECK_EQ_U(v, 100000000);
    CHECK(count("1e8") == 0);       CHECK_EQ_U(v, 100000000);
    CHECK(count("1E8") == 0);       CHECK_EQ_U(v, 100000000);
    CHECK(count("2.5e3") == 0);     CHECK_EQ_U(v, 2500);
    CHECK(count("64M") == 0);       CHECK_EQ_U(v, 64ull << 20);
    CHECK(count("4K") == 0);        CHECK_EQ_U(v, 4096);
    CHECK(count("1") == 0);         CHECK_EQ_U(v, 1);
    /* rejected: non-numeric, negative, zero, fraction, overflow */
    CHECK(count("abc") == -1);      CHECK_STR_HAS(err, "not a number");
    CHECK(count("1e8x") == -1);     CHECK_STR_HAS(err, "not a number");
    CHECK(count("") == -1);         CHECK_STR_HAS(err, "empty");
    CHECK(count("-5") == -1);       CHECK_STR_HAS(err, "negative");
    CHECK(count("-1e8") == -1);     CHECK_STR_HAS(err, "negative");
    CHECK(count("0") == -1);        CHECK_STR_HAS(err, "at least 1");
    CHECK(count("0e0") == -1);      CHECK_STR_HAS(err, "at least 1");
    CHECK(count("1.5") == -1);      CHECK_STR_HAS(err, "whole number");
    CHECK(count("1e-3") == -1);     CHECK_STR_HAS(err, "whole number");
    CHECK(count("99999999999999999999999") == -1); CHECK_STR_HAS(err, "too large");
    CHECK(count("1e30") == -1);     CHECK_STR_HAS(err, "too large");
    CHECK(count("1e11") == -1);     CHECK_STR_HAS(err, "too large"); /* above 2^36 */
    CHECK(count("inf") == -1);
    CHECK(count("nan") == -1);
    /* ranges (WPB 1..32, SMEM 0..) */
    CHECK(cli_parse_range("WPB", "32", 1, 32, &v, err, sizeof err) == 0); CHECK_EQ_U(v, 32);
    CHECK(cli_parse_range("WPB", "0", 1, 32, &v, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "between 1 and 32");
    CHECK(cli_parse_range("WPB", "33", 1, 32, &v, err, sizeof err) == -1);
    CHECK(cli_parse_range("SMEM", "0", 0, 1u << 30, &v, err, sizeof err) == 0); CHECK_EQ_U(v, 0);
    /* shared memory against the H100's limits: 227 KiB opt-in per block */
    CHECK(cli_check_smem(232448, 232448, 233472, 1024, "H100", err, sizeof err) == 0);
    CHECK(cli_check_smem(0, 232448, 233472, 1024, "H100", err, sizeof err) == 0);
    CHECK(cli_check_smem(232449, 232448, 233472, 1024, "H100", err, sizeof err) == -1);
    CHECK_STR_HAS(err, "232448 bytes with opt-in");
    CHECK_STR_HAS(err, "reserves 1024");
    /* suffixes: T, KiB, kB */
    CHECK(count("1T") == -1);       CHECK_STR_HAS(err, "too large"); /* above 2^36 */
    CHECK(count("4KiB") == 0);      CHECK_EQ_U(v, 4096);
    CHECK(count("1.5K") == 0);      CHECK_EQ_U(v, 1536);
    CHECK(count("2MB") == 0);       CHECK_EQ_U(v, 2ull << 20);
    CHECK(count("1.1K") == -1);     CHECK_STR_HAS(err, "whole number");
    CHECK(count("K") == -1);        CHECK_STR_HAS(err, "not a number");
    /* 2^64 and beyond */
    CHECK(cli_parse_range("S", "18446744073709551615", 0, UINT64_MAX, &v, err, sizeof err) == 0);
    CHECK(cli_parse_range("S", "18446744073709551616", 0, UINT64_MAX, &v, err, sizeof err) == -1);
    CHECK(cli_parse_range("S", "4294967360", 0, 128, &v, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "between 0 and 128");

    /* doubles: finite, in range, decimal only */
    double d;
    CHECK(cli_parse_double("--peak", "3352.3", 0, 1e6, &d, err, sizeof err) == 0); CHECK_NEAR(d, 3352.3, 1e-12);
    CHECK(cli_parse_double("--peak", "1e400", 0, 1e6, &d, err, sizeof err) == -1); CHECK_STR_HAS(err, "too large");
    CHECK(cli_parse_double("--peak", "inf", 0, 1e6, &d, err, sizeof err) == -1);   CHECK_STR_HAS(err, "not a number");
    CHECK(cli_parse_double("--peak", "nan", 0, 1e6, &d, err, sizeof err) == -1);
    CHECK(cli_parse_double("--peak", "0x10", 0, 1e6, &d, err, sizeof err) == -1);
    CHECK(cli_parse_double("--peak", "", 0, 1e6, &d, err, sizeof err) == -1);     CHECK_STR_HAS(err, "empty");
    CHECK(cli_parse_double("--peak", " 5", 0, 1e6, &d, err, sizeof err) == -1);
    CHECK(cli_parse_double("--peak", "-1", 0, 1e6, &d, err, sizeof err) == -1);   CHECK_STR_HAS(err, "between 0 and 1e+06");
    CHECK(cli_parse_double("--x", "1e-400", 0, 1, &d, err, sizeof err) == 0);     CHECK_NEAR(d, 0, 0);
    int64_t iv;
    CHECK(cli_parse_int("--off", "-3", -32, 32, &iv, err, sizeof err) == 0);      CHECK_EQ_I(iv, -3);
    CHECK(cli_parse_int("--off", "33", -32, 32, &iv, err, sizeof err) == -1);
    CHECK(cli_parse_int("--off", "1.0", -32, 32, &iv, err, sizeof err) == -1);
    CHECK(cli_parse_int("--off", "-", -32, 32, &iv, err, sizeof err) == -1);

    /* lists */
    uint64_t lv[8];
    size_t ln;
    CHECK(cli_parse_list("--stride", "1-4,8,16", 1, 128, lv, 8, &ln, err, sizeof err) == 0);
    CHECK_EQ_U(ln, 6); CHECK_EQ_U(lv[3], 4); CHECK_EQ_U(lv[5], 16);
    CHECK(cli_parse_list("--stride", "1-9", 1, 128, lv, 8, &ln, err, sizeof err) == -1); CHECK_STR_HAS(err, "more than 8");
    CHECK(cli_parse_list("--stride", "4-2", 1, 128, lv, 8, &ln, err, sizeof err) == -1); CHECK_STR_HAS(err, "backwards");
    CHECK(cli_parse_list("--stride", "1,,2", 1, 128, lv, 8, &ln, err, sizeof err) == -1); CHECK_STR_HAS(err, "empty item");
    CHECK(cli_parse_list("--stride", "0", 1, 128, lv, 8, &ln, err, sizeof err) == -1);
    CHECK(cli_parse_list("--stride", "-1", 1, 128, lv, 8, &ln, err, sizeof err) == -1);

    /* the option table */
    uint64_t reps = 10; int quiet = 0, given = 0; const char *out = NULL; double pct = 2;
    const cli_opt T[] = {
        {"--reps", 0, CLI_U64, 1, 100, 0, 0, &reps, "R", "reps", 0, &given},
        {"--quiet", 'q', CLI_FLAG, 0, 0, 0, 0, &quiet, 0, "quiet", 0, 0},
        {"--out", 0, CLI_STRING, 0, 0, 0, 0, &out, "DIR", "out", 0, 0},
        {"--pct", 0, CLI_DOUBLE, 0, 0, 0, 100, &pct, "P", "pct", 0, 0},
        CLI_END,
    };
    const cli_opt *tabs[1] = {T};
    cli_parse_result r;
    char a0[] = "prog", a1[] = "--reps=20", a2[] = "1e8", a3[] = "-q", a4[] = "--out", a5[] = "d", a6[] = "-5";
    char *argv1[] = {a0, a1, a2, a3, a4, a5, a6};
    CHECK(cli_parse("prog", 7, argv1, tabs, 1, 3, &r) == 0);
    CHECK_EQ_U(reps, 20); CHECK(given); CHECK(quiet); CHECK(out && !strcmp(out, "d"));
    CHECK_EQ_I(r.npos, 2); CHECK(!strcmp(r.pos[1], "-5"));   /* a negative number is positional */
    char b1[] = "--pct", b2[] = "inf";
    char *argv2[] = {a0, b1, b2};
    CHECK(cli_parse("prog", 3, argv2, tabs, 1, 3, &r) == 2);
    char c1[] = "--nope";
    char *argv3[] = {a0, c1};
    CHECK(cli_parse("prog", 2, argv3, tabs, 1, 3, &r) == 2);
    char *argv4[] = {a0, a4};
    CHECK(cli_parse("prog", 2, argv4, tabs, 1, 3, &r) == 2);
    char d1[] = "--quiet=1";
    char *argv5[] = {a0, d1};
    CHECK(cli_parse("prog", 2, argv5, tabs, 1, 3, &r) == 2);
    char *argv6[] = {a0, a2, a2};
    CHECK(cli_parse("prog", 3, argv6, tabs, 1, 1, &r) == 2);  /* too many */
    CHECK(cli_parse("prog", 2, argv6, tabs, 1, 0, &r) == 2);  /* none allowed */
    char e1[] = "--", e2[] = "--reps";
    char *argv7[] = {a0, e1, e2};
    CHECK(cli_parse("prog", 3, argv7, tabs, 1, 3, &r) == 0);   /* after --, positional */
    CHECK_EQ_I(r.npos, 1);
    char h1[] = "-h";
    char *argv8[] = {a0, h1};
    CHECK(cli_parse("prog", 2, argv8, tabs, 1, 3, &r) == 0); CHECK(r.help);

    /* a repeated option gathers its values, in order, up to its hi */
    cli_strings ws = {{0}, 0};
    const cli_opt wopt[] = {{"--where", 0, CLI_STRINGS, 0, 2, 0, 0, &ws, "C=V", "rows", 0, 0}, CLI_END};
    const cli_opt *wtabs[] = {wopt};
    char w1[] = "--where", w2[] = "a=1", w3[] = "--where=b=2", w4[] = "--where", w5[] = "c=3";
    char *wargv[] = {a0, w1, w2, w3, w4, w5};
    CHECK(cli_parse("prog", 4, wargv, wtabs, 1, 0, &r) == 0);
    CHECK_EQ_U(ws.n, 2);
    CHECK(ws.n == 2 && strcmp(ws.v[0], "a=1") == 0 && strcmp(ws.v[1], "b=2") == 0);
    ws.n = 0;
    CHECK(cli_parse("prog", 6, wargv, wtabs, 1, 0, &r) == 2); /* a third: more than hi */
    char we[] = "--where=";
    char *wargv2[] = {a0, we};
    ws.n = 0;
    CHECK(cli_parse("prog", 2, wargv2, wtabs, 1, 0, &r) == 2); /* empty */

    /* up to CLI_MAX_POS positional arguments (the LOGs of latency_stats), not one more */
    static char *many[CLI_MAX_POS + 2];
    char lg[] = "x.bin";
    many[0] = a0;
    for (int i = 1; i < CLI_MAX_POS + 2; i++) many[i] = lg;
    CHECK(cli_parse("prog", CLI_MAX_POS + 1, many, tabs, 1, CLI_MAX_POS, &r) == 0);
    CHECK_EQ_I(r.npos, CLI_MAX_POS);
    CHECK(cli_parse("prog", CLI_MAX_POS + 2, many, tabs, 1, CLI_MAX_POS, &r) == 2);
    CHECK(cli_parse("prog", CLI_MAX_POS + 2, many, tabs, 1, 100000, &r) == 2); /* clamped */

    /* a tool's main parse: -1 to go on, 2 after a usage error, 0 after the
     * help (the text, then the table's option lines when asked), on stdout */
    char *argv9[] = {a0, lg};
    CHECK_EQ_I(cli_main_parse("prog", 2, argv9, wopt, 1, "usage: prog X\n", 1, &r), -1);
    CHECK(r.npos == 1 && strcmp(r.pos[0], "x.bin") == 0);
    CHECK_EQ_I(cli_main_parse("prog", 2, argv9, wopt, 0, "usage: prog\n", 1, &r), 2);
    char tmpl[] = "/tmp/test_cli_XXXXXX";
    const int fd = mkstemp(tmpl), saved = dup(1);
    CHECK(fd >= 0 && saved >= 0);
    for (int with = 0; with <= 1 && fd >= 0 && saved >= 0; with++) {
        fflush(stdout);
        CHECK(ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0 && dup2(fd, 1) == 1);
        const int hrc = cli_main_parse("prog", 2, argv8, wopt, 1, "usage: prog X\n", with, &r);
        fflush(stdout);
        dup2(saved, 1);
        CHECK_EQ_I(hrc, 0);
        char got[512] = {0};
        CHECK(pread(fd, got, sizeof got - 1, 0) > 0);
        CHECK(strncmp(got, "usage: prog X\n", 14) == 0);
        CHECK_EQ_I(strstr(got, "--where") != NULL, with);
    }
    /* a main that takes a command: none is 2, -h is 0, a command goes on */
    char cmd[] = "cat";
    char *argv10[] = {a0, cmd};
    usage_calls = 0;
    CHECK_EQ_I(cli_command_start("prog", 1, argv10, count_usage), 2);
    CHECK_EQ_I(usage_calls, 1);
    CHECK_EQ_I(cli_command_start("prog", 2, argv10, count_usage), -1);
    CHECK_EQ_I(usage_calls, 1);
    CHECK_EQ_I(cli_command_start("prog", 2, argv8, count_usage), 0);
    CHECK_EQ_I(usage_calls, 2);
    /* a tool whose usage is a function of its table: called once, with that
     * table, after -h only; otherwise as cli_main_parse */
    usage_calls = 0;
    usage_table = NULL;
    CHECK_EQ_I(cli_tool_parse("prog", 2, argv9, wopt, 1, table_usage, &r), -1);
    CHECK(r.npos == 1 && strcmp(r.pos[0], "x.bin") == 0);
    CHECK_EQ_I(cli_tool_parse("prog", 2, argv9, wopt, 0, table_usage, &r), 2);
    CHECK_EQ_I(usage_calls, 0);
    CHECK_EQ_I(cli_tool_parse("prog", 2, argv8, wopt, 1, table_usage, &r), 0);
    CHECK_EQ_I(usage_calls, 1);
    CHECK(usage_table == wopt);
    if (fd >= 0) { close(fd); unlink(tmpl); }
    if (saved >= 0) close(saved);
    {   /* numeric options with an allowed set (choices): refused while parsing */
        static const char *const widths[] = {"4", "8", "16", NULL};
        cli_list wl = {{0}, 0};
        uint64_t one = 0;
        const cli_opt t[] = {
            {"--width", 0, CLI_LIST, 4, 16, 0, 0, &wl, "LIST", "bytes", widths, 0},
            {"--w1", 0, CLI_U64, 4, 16, 0, 0, &one, "W", "bytes", widths, 0},
            CLI_END,
        };
        const cli_opt *tt[] = {t};
        cli_parse_result pr;
        char *ok[] = {"p", "--width", "4,16", "--w1", "8", NULL};
        CHECK(cli_parse("p", 5, ok, tt, 1, 0, &pr) == 0);
        CHECK_EQ_U(wl.n, 2);
        CHECK_EQ_U(wl.v[1], 16);
        CHECK_EQ_U(one, 8);
        char *bad[] = {"p", "--width", "4,5", NULL};
        CHECK(cli_parse("p", 3, bad, tt, 1, 0, &pr) == 2);
        char *bad1[] = {"p", "--w1", "12", NULL};
        CHECK(cli_parse("p", 3, bad1, tt, 1, 0, &pr) == 2);
        /* the listing for tools that draw command lines */
        char buf[512] = "";
        FILE *f = fmemopen(buf, sizeof buf, "w");
        cli_list_options(f, t, "family");
        fclose(f);
        CHECK_STR_HAS(buf, "--width\tlist\t4\t16\t4,8,16\tfamily\n");
        CHECK_STR_HAS(buf, "--w1\tu64\t4\t16\t4,8,16\tfamily\n");
        CHECK(strcmp(cli_kind_name(CLI_COUNT), "count") == 0);
    }
    return check_report("test_cli");
}

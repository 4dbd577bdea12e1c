/* fuzz_cli - the one parser of numbers and options (cli.h), which every
 * program and kernel family's command line goes through, and the result
 * file names (names.h).  The input is split at NUL bytes into arguments. */
#include "fuzz_common.h"

#include "cli.h"
#include "names.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = fuzz_string(data, size);
    char *argv[34];
    int argc = 0;
    argv[argc++] = "fuzz";
    for (size_t i = 0; i <= size && argc < 33;) {
        argv[argc++] = buf + i;
        i += strlen(buf + i) + 1;
    }
    argv[argc] = NULL;
    char err[256];
    uint64_t u, list[CLI_LIST_MAX];
    int64_t s64;
    double d;
    size_t n;
    for (int a = 1; a < argc; a++) {
        cli_parse_count("N", argv[a], UINT64_MAX, &u, err, sizeof err);
        cli_parse_range("R", argv[a], 3, 1u << 20, &u, err, sizeof err);
        cli_parse_int("I", argv[a], INT64_MIN, INT64_MAX, &s64, err, sizeof err);
        cli_parse_double("D", argv[a], -1e300, 1e300, &d, err, sizeof err);
        cli_parse_list("L", argv[a], 0, 1u << 16, list, CLI_LIST_MAX, &n, err, sizeof err);
        char e[64], v[64], l[64], nn[64];
        unsigned wpb;
        names_parse(argv[a], e, v, l, nn, sizeof e, &wpb);
        names_valid_exp(argv[a]);
    }
    /* a table like an experiment's */
    uint64_t reps = 10, big = 1;
    double ceil_GBps = 0;
    int quiet = 0, choice = 0;
    const char *out = NULL;
    cli_list wpbs = {{0}, 0};
    static const char *const kinds[] = {"ca", "cg", NULL};
    const cli_opt opts[] = {
        {"--reps", 'r', CLI_U64, 1, 10000, 0, 0, &reps, "R", "repetitions", 0, 0},
        {"--n", 0, CLI_COUNT, 0, 1ull << 40, 0, 0, &big, "N", "elements", 0, 0},
        {"--ceiling", 0, CLI_DOUBLE, 0, 0, 0, 1e7, &ceil_GBps, "G", "GB/s", 0, 0},
        {"--quiet", 'q', CLI_FLAG, 0, 0, 0, 0, &quiet, 0, "", 0, 0},
        {"--out", 'o', CLI_STRING, 0, 0, 0, 0, &out, "F", "", 0, 0},
        {"--wpb", 0, CLI_LIST, 1, 32, 0, 0, &wpbs, "L", "", 0, 0},
        {"--kind", 0, CLI_CHOICE, 0, 0, 0, 0, &choice, "K", "", kinds, 0},
        CLI_END};
    const cli_opt *tables[] = {opts};
    cli_parse_result res;
    FILE *saved = stderr;
    stderr = fuzz_sink(); /* usage errors print there */
    cli_parse("fuzz", argc, argv, tables, 1, 4, &res);
    stderr = saved;
    free(buf);
    return 0;
}

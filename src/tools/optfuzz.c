/*
 * optfuzz - random command lines for the GPU programs (tests/gpu/fuzz_options.sh).
 *
 *   bin/optfuzz --seed S --count N PROG=DIR/PROG...
 *
 * For each PROG, DIR/PROG.options is what `PROG --list-options` printed and
 * DIR/PROG.kernels what `PROG --list-kernels` printed (may be absent: a
 * program without variants).  Prints N lines, each a program's name and its
 * arguments, TAB-separated; the programs take turns, so that each gets
 * N / (number of programs) lines, and the arguments are drawn as
 * src/lib/optfuzz.h says.  The same seed gives the same lines.
 * Exit status: 0 ok, 1 an unreadable table, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "optfuzz.h"
#include "outfile.h"

#define PROG "optfuzz"
#define MAX_PROGS 32

static const char usage_text[] =
    "usage: optfuzz --seed S --count N PROG=DIR/PROG...\n"
    "  Print N random command lines (the program, then its arguments, TAB-separated),\n"
    "  drawn from DIR/PROG.options (PROG --list-options) and DIR/PROG.kernels\n"
    "  (PROG --list-kernels).  Exit status: 0 ok, 1 an unreadable table, 2 usage.\n"
    "options:\n";

int main(int argc, char **argv)
{
    uint64_t seed = 1, count = 300;
    const cli_opt opts[] = {
        CLI_NUM_OPT("--seed", CLI_U64, 0, UINT64_MAX, &seed, "S", "the generator's seed (default 1)"),
        CLI_NUM_OPT("--count", CLI_COUNT, 0, 1000000, &count, "N", "lines to print (default 300)"),
        CLI_END,
    };
    cli_parse_result r;
    const int prc = cli_main_parse(PROG, argc, argv, opts, MAX_PROGS, usage_text, 1, &r);
    if (prc >= 0) return prc;
    if (r.npos == 0) return cli_usage_error(PROG, "name at least one PROG=DIR/PROG");
    static of_prog progs[MAX_PROGS];
    for (int i = 0; i < r.npos; i++) {
        char *eq = strchr(r.pos[i], '=');
        if (!eq || eq == r.pos[i] || !eq[1])
            return cli_usage_error(PROG, "'%s' is not PROG=DIR/PROG", r.pos[i]);
        *eq = 0;
        char opath[4096], kpath[4096], err[512];
        snprintf(opath, sizeof opath, "%s.options", eq + 1);
        snprintf(kpath, sizeof kpath, "%s.kernels", eq + 1);
        FILE *k = fopen(kpath, "r");
        if (k) fclose(k);
        if (of_read_program(&progs[i], r.pos[i], opath, k ? kpath : NULL, err, sizeof err) != 0) {
            fprintf(stderr, PROG ": %s\n", err);
            return 1;
        }
    }
    uint64_t rng = seed;
    char line[4096];
    for (uint64_t n = 0; n < count; n++) {
        if (of_draw_line(&progs[n % (uint64_t)r.npos], &rng, line, sizeof line) < 0) {
            fprintf(stderr, PROG ": a line of %s is longer than %zu bytes\n", progs[n % (uint64_t)r.npos].name,
                    sizeof line);
            return 1;
        }
        printf("%s\n", line);
    }
    return outfile_check_stdout(PROG);
}

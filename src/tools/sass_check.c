/*
 * sass_check.c - bin/sass_check: claims about machine code, checked.
 *
 *   sass_check functions SASS                      the functions, one per line
 *   sass_check region SASS FUNCTION [--open N] [--close N]
 *       the timed region (between the N-th reads of SR_CLOCKLO, default 1
 *       and 2) holds a load and the first use of its value: exit 0 and the
 *       pair, or exit 1 and why not
 *   sass_check pattern SASS FUNCTION                LDG/STG in program order: LSLS, LLSS
 *   sass_check count SASS FUNCTION OPCODE           instructions whose opcode starts with it
 *   sass_check loops SASS FUNCTION                  backward branches
 *   sass_check select SASS PREFIX [--except SUFFIX]
 *       the listing of every function named PREFIX... (not ...SUFFIX), as
 *       cuobjdump -sass -fun prints it: one disassembly, many listings
 *
 * SASS is the output of `cuobjdump -sass BINARY` (or "-" for stdin).
 * Exit: 0 ok, 1 the claim fails or the input cannot be read, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "sass.h"

#define PROG "sass_check"

static const char usage_text[] =
    "usage: sass_check functions SASS\n"
    "       sass_check region SASS FUNCTION [--open N] [--close N]\n"
    "       sass_check pattern SASS FUNCTION\n"
    "       sass_check count SASS FUNCTION OPCODE\n"
    "       sass_check loops SASS FUNCTION\n"
    "       sass_check select SASS PREFIX [--except SUFFIX]\n"
    "SASS: the output of cuobjdump -sass (- for stdin).\n"
    "Exit status: 0 ok, 1 the claim does not hold or the input is unreadable, 2 usage.\n";


static int finish(void) { return outfile_check_stdout(PROG); }

int main(int argc, char **argv)
{
    uint64_t open = 1, close = 2;
    const char *except = NULL;
    const cli_opt opts[] = {
        {"--open", 0, CLI_U64, 1, 1000, 0, 0, &open, "N", "the clock read that opens the region", 0, 0},
        {"--close", 0, CLI_U64, 2, 1000, 0, 0, &close, "N", "the clock read that closes it", 0, 0},
        {"--except", 0, CLI_STRING, 0, 0, 0, 0, &except, "SUFFIX", "select: leave out functions ending so", 0, 0},
        CLI_END,
    };
    cli_parse_result r;
    int rc = cli_main_parse(PROG, argc, argv, opts, 4, usage_text, 0, &r);
    if (rc >= 0) return rc;
    if (r.npos < 2) {
        fputs(usage_text, stderr);
        return 2;
    }
    const char *cmd = r.pos[0];
    const int want = !strcmp(cmd, "functions") ? 2 : !strcmp(cmd, "count") ? 4
                   : !strcmp(cmd, "select") ? 3
                   : !strcmp(cmd, "region") || !strcmp(cmd, "pattern") || !strcmp(cmd, "loops") ? 3 : -1;
    if (want < 0) return cli_usage_error(PROG, "unknown command '%s'", cmd);
    if (r.npos != want) return cli_usage_error(PROG, "%s takes %d argument%s", cmd, want - 1, want == 2 ? "" : "s");
    if (close <= open) return cli_usage_error(PROG, "--close must come after --open");

    if (!strcmp(cmd, "select")) {
        FILE *in = strcmp(r.pos[1], "-") ? fopen(r.pos[1], "r") : stdin;
        if (!in) {
            fprintf(stderr, PROG ": cannot read %s\n", r.pos[1]);
            return 1;
        }
        const long n = sass_select(in, stdout, r.pos[2], except);
        if (in != stdin) fclose(in);
        if (n < 0) {
            fprintf(stderr, PROG ": error writing stdout\n");
            return 1;
        }
        if (n == 0) {
            fprintf(stderr, PROG ": %s has no function named %s...\n", r.pos[1], r.pos[2]);
            return 1;
        }
        return finish();
    }
    sass_file s;
    char err[512];
    if (sass_read(r.pos[1], &s, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }
    if (!strcmp(cmd, "functions")) {
        for (size_t i = 0; i < s.nfn; i++) printf("%s\n", s.fn[i].name);
        sass_free(&s);
        return finish();
    }
    const sass_func *f = sass_find(&s, r.pos[2]);
    if (!f) {
        fprintf(stderr, PROG ": %s has no function %s\n", r.pos[1], r.pos[2]);
        sass_free(&s);
        return 1;
    }
    rc = 0;
    if (!strcmp(cmd, "region")) {
        char msg[512];
        if (sass_check_region(f, (int)open, (int)close, msg, sizeof msg) == 0) {
            printf("%s: ok: %s\n", f->name, msg);
        } else {
            fprintf(stderr, PROG ": %s\n", msg);
            rc = 1;
        }
    } else if (!strcmp(cmd, "pattern")) {
        char pat[4096];
        sass_ldst_pattern(f, pat, sizeof pat);
        printf("%s\n", pat);
    } else if (!strcmp(cmd, "count")) {
        printf("%zu\n", sass_count(f, r.pos[3]));
    } else {
        printf("%zu\n", sass_backward_branches(f));
    }
    sass_free(&s);
    return rc ? rc : finish();
}

/*
 * names.c - bin/names: the result-file names of docs/naming.md, for scripts,
 * so that no script spells a name itself.
 *
 *   names summary EXP N WPB        readonly_1e8_wpb4.tsv
 *   names log EXP VARIANT WPB [LABEL]
 *   names logdir N                 logs_1e6
 *   names sweep EXP VARIANT WPB    sweep_readonly_float4_4.tsv
 *   names sectors EXP | sass EXP
 *   names latency-stats N WPB
 *   names ncu-table EXP N          tiling_ncu_8192.tsv
 *   names script EXP               the family's own script (exit 1: none)
 *   names families                 every kernel family, one per line (the
 *                                  folders src/families/NAME/, family.h)
 *   names parse BASENAME           kind, exp, variant, label, n, wpb (TSV)
 *   names command DIR BASENAME     the command that makes that file in DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "family.h"
#include "names.h"
#include "outfile.h"

static int usage(FILE *f, int rc)
{
    fprintf(f, "usage: names summary EXP N WPB | log EXP VARIANT WPB [LABEL] | logdir N |\n"
               "             sweep EXP VARIANT WPB | sectors EXP | sass EXP |\n"
               "             latency-stats N WPB | ncu-table EXP N | gpu ORDINAL UUID NAME |\n"
               "             parse BASENAME | command DIR BASENAME | script EXP | families\n"
               "Prints the name docs/naming.md gives a result file.  Exit: 0 ok, 2 usage.\n");
    return rc;
}

static int wpb_of(const char *s, unsigned *w)
{
    uint64_t v;
    char err[128];
    if (cli_parse_range("WPB", s, 1, 32, &v, err, sizeof err) != 0) {
        fprintf(stderr, "names: %s\n", err);
        return -1;
    }
    *w = (unsigned)v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
        return usage(stdout, 0) || outfile_check_stdout("names");
    if (argc == 2 && !strcmp(argv[1], "families")) {
        for (const fam_entry *e = fam_registry; e->name; e++) printf("%s\n", e->name);
        return outfile_check_stdout("names");
    }
    if (argc < 3) return usage(stderr, 2);
    const char *c = argv[1];
    char b[512];
    unsigned w = 0;
    int rc = -2;
    if (!strcmp(c, "summary") && argc == 5) rc = wpb_of(argv[4], &w) ? -3 : names_summary(b, sizeof b, argv[2], argv[3], w);
    else if (!strcmp(c, "log") && (argc == 5 || argc == 6))
        rc = wpb_of(argv[4], &w) ? -3 : names_log(b, sizeof b, argv[2], argv[3], argc == 6 ? argv[5] : "", w);
    else if (!strcmp(c, "logdir") && argc == 3) rc = names_logdir(b, sizeof b, argv[2]);
    else if (!strcmp(c, "sweep") && argc == 5) rc = wpb_of(argv[4], &w) ? -3 : names_sweep(b, sizeof b, argv[2], argv[3], w);
    else if (!strcmp(c, "sectors") && argc == 3) rc = names_sectors(b, sizeof b, argv[2]);
    else if (!strcmp(c, "sass") && argc == 3) rc = names_sass(b, sizeof b, argv[2]);
    else if (!strcmp(c, "latency-stats") && argc == 4) rc = wpb_of(argv[3], &w) ? -3 : names_latency_stats(b, sizeof b, argv[2], w);
    else if (!strcmp(c, "ncu-table") && argc == 4) rc = names_ncu_table(b, sizeof b, argv[2], argv[3]);
    else if (!strcmp(c, "script") && argc == 3) {
        const char *s = names_family_script(argv[2]);
        if (!s) return 1;
        printf("%s\n", s);
        return outfile_check_stdout("names");
    }
    else if (!strcmp(c, "gpu") && argc == 5) {
        uint64_t o;
        char e[128];
        if (cli_parse_range("ORDINAL", argv[2], 0, 1023, &o, e, sizeof e) != 0) {
            fprintf(stderr, "names: %s\n", e);
            return 2;
        }
        rc = names_gpu(b, sizeof b, (int)o, argv[3], argv[4]);
    }
    else if (!strcmp(c, "command") && argc == 4) {
        if (names_command(b, sizeof b, argv[2], argv[3]) != 0) {
            fprintf(stderr, "names: %s is not a result file of docs/naming.md\n", argv[3]);
            return 1;
        }
        rc = 0;
    }
    else if (!strcmp(c, "parse") && argc == 3) {
        char e[128], v[128], l[128], n[128];
        names_kind k = names_parse(argv[2], e, v, l, n, 128, &w);
        printf("kind\texp\tvariant\tlabel\tn\twpb\n%s\t%s\t%s\t%s\t%s\t%u\n", names_kind_name(k), e,
               v, l, n, w);
        return outfile_check_stdout("names");
    }
    if (rc == -2) return usage(stderr, 2);
    if (rc == -3) return 2;
    if (rc != 0) {
        fprintf(stderr, "names: a part is not allowed (experiments are [a-z0-9]+; no '/' or '-' in "
                        "variants; WPB 1..32)\n");
        return 2;
    }
    printf("%s\n", b);
    return outfile_check_stdout("names");
}

/* test_sass.c - reading cuobjdump -sass, and the claims checked on it. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include "check.h"
#include "sass.h"

static const char *LISTING =
    "\tcode for sm_90\n"
    "\t\tFunction : good_probe\n"
    "\t.headerflags\t@\"EF_CUDA_SM90\"\n"
    "        /*0000*/                   LDC R1, c[0x0][0x28] ;   /* 0x00000a00ff017b82 */\n"
    "                                                            /* 0x000fe40000000800 */\n"
    "        /*0010*/                   CS2R R4, SR_CLOCKLO ;    /* 0x0000000000047805 */\n"
    "        /*0020*/                   LDG.E.128 R8, desc[UR6][R8.64] ;\n"
    "        /*0030*/                   FADD R0, RZ, R11 ;\n"
    "        /*0040*/                   CS2R R12, SR_CLOCKLO ;\n"
    "        /*0050*/               @P0 STG.E desc[UR6][R2.64], R0 ;\n"
    "        /*0060*/                   NOP ;\n"
    "        /*0070*/                   BRA 0x70 ;\n"
    "\t\tFunction : unused_probe\n"
    "        /*0000*/                   CS2R R4, SR_CLOCKLO ;\n"
    "        /*0010*/                   LDG.E R8, desc[UR6][R8.64] ;\n"
    "        /*0020*/                   FADD R0, RZ, R18 ;\n"
    "        /*0030*/                   IADD3 R8, R9, R1, RZ ;\n"
    "        /*0040*/                   CS2R R12, SR_CLOCKLO ;\n"
    "\t\tFunction : loop\n"
    "        /*0000*/                   LDG.E R5, desc[UR4][R2.64] ;\n"
    "        /*0010*/                   STG.E desc[UR4][R2.64], R5 ;\n"
    "        /*0020*/              @!P0 BRA 0x0 ;\n"
    "        /*0030*/                   LDGSTS [R1], desc[UR4][R2.64] ;\n"
    "        /*0040*/                   BRA 0x40 ;\n"
    "== excerpt_probe (instrumented)\n"
    "        /*0010*/                   CS2R R4, SR_CLOCKLO ;\n"
    "        /*0020*/                   LDG.E R120, desc[UR6][R8.64] ;\n"
    "        /*0030*/                   STS [UR4], R12 ;\n"
    "        /*0040*/                   CS2R R12, SR_CLOCKLO ;\n";

int main(void)
{
    sass_file s;
    char err[256], msg[512];
    FILE *f = fmemopen((void *)LISTING, strlen(LISTING), "r");
    CHECK(sass_parse(f, &s, err, sizeof err) == 0);
    fclose(f);
    CHECK_EQ_U(s.nfn, 4);
    const sass_func *g = sass_find(&s, "good_probe");
    CHECK(g != NULL);
    CHECK_EQ_U(g->n, 7);                      /* NOP and encoding lines dropped */
    CHECK(!strcmp(g->insn[5].pred, "@P0"));
    CHECK(!strcmp(g->insn[2].op, "LDG.E.128"));
    CHECK_EQ_U(g->insn[2].addr, 0x20);
    /* a 16-byte load writes R8..R11: the FADD of R11 is its use */
    CHECK(sass_check_region(g, 1, 2, msg, sizeof msg) == 0);
    CHECK_STR_HAS(msg, "used by FADD R0, RZ, R11");
    /* R18 is not R8, and R8 written (not read) by IADD3 is no use */
    CHECK(sass_check_region(sass_find(&s, "unused_probe"), 1, 2, msg, sizeof msg) == -1);
    CHECK_STR_HAS(msg, "is not used before the closing clock read");
    /* R12 is not R120 */
    CHECK(sass_check_region(sass_find(&s, "excerpt_probe"), 1, 2, msg, sizeof msg) == -1);
    CHECK(sass_check_region(g, 2, 3, msg, sizeof msg) == -1);
    CHECK_STR_HAS(msg, "region not found");
    /* an atomic that returns the old value ends a region like a load: its
     * destination comes after the predicate (ATOMG PT, R8, ...) */
    static const char *ATOM =
        "\t\tFunction : atom_probe\n"
        "        /*0260*/                   CS2R R4, SR_CLOCKLO ;\n"
        "        /*0280*/                   ATOMG.E.ADD.STRONG.GPU PT, R8, desc[UR8][R8.64], R11 ;\n"
        "        /*0290*/                   FADD R0, RZ, R8 ;\n"
        "        /*02a0*/                   CS2R R8, SR_CLOCKLO ;\n"
        "\t\tFunction : red_probe\n"
        "        /*0260*/                   CS2R R4, SR_CLOCKLO ;\n"
        "        /*0280*/                   REDG.E.ADD.STRONG.GPU desc[UR8][R8.64], R11 ;\n"
        "        /*02a0*/                   CS2R R8, SR_CLOCKLO ;\n";
    sass_file at;
    f = fmemopen((void *)ATOM, strlen(ATOM), "r");
    CHECK(sass_parse(f, &at, err, sizeof err) == 0);
    fclose(f);
    CHECK(sass_check_region(sass_find(&at, "atom_probe"), 1, 2, msg, sizeof msg) == 0);
    CHECK_STR_HAS(msg, "used by FADD R0, RZ, R8");
    CHECK(sass_check_region(sass_find(&at, "red_probe"), 1, 2, msg, sizeof msg) == -1);
    CHECK_STR_HAS(msg, "no LDG or ATOMG between the clock reads");
    sass_free(&at);
    const sass_func *l = sass_find(&s, "loop");
    char pat[16];
    sass_ldst_pattern(l, pat, sizeof pat);
    CHECK(!strcmp(pat, "LS"));                 /* LDGSTS is not an LDG */
    CHECK_EQ_U(sass_count(l, "LDG"), 1);
    CHECK_EQ_U(sass_count(l, "LDGSTS"), 1);
    CHECK_EQ_U(sass_backward_branches(l), 1);  /* BRA 0x0 yes, BRA to itself no */
    CHECK_EQ_U(sass_backward_branches(g), 0);
    CHECK(sass_find(&s, "nope") == NULL);
    sass_free(&s);
    f = fmemopen((void *)"hello\n", 6, "r");
    CHECK(sass_parse(f, &s, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "no function found");
    fclose(f);
    CHECK(sass_read("/nonexistent.sass", &s, err, sizeof err) == -1);
    /* one disassembly, many listings: the _probe functions less the checkers */
    {
        static const char *DUMP =
            "Fatbin elf code:\n\tcode for sm_90\n"
            "\t\tFunction : fam_a_probe\n        /*0000*/ LDG.E R1, desc[UR4][R2.64] ;\n"
            "\t\tFunction : fam_a_check\n        /*0000*/ NOP ;\n"
            "\t\tFunction : other\n        /*0000*/ NOP ;\n"
            "Fatbin ptx code:\n"
            "\t\tFunction : fam_b\n        /*0000*/ EXIT ;\n";
        char out[1024] = "";
        FILE *in = fmemopen((void *)DUMP, strlen(DUMP), "r");
        FILE *o = fmemopen(out, sizeof out - 1, "w");
        CHECK(sass_select(in, o, "fam_", "_check") == 2);
        fclose(o);
        fclose(in);
        CHECK(!strcmp(out, "\t\tFunction : fam_a_probe\n        /*0000*/ LDG.E R1, desc[UR4][R2.64] ;\n"
                           "\t\tFunction : fam_b\n        /*0000*/ EXIT ;\n"));
        in = fmemopen((void *)DUMP, strlen(DUMP), "r");
        o = fmemopen(out, sizeof out - 1, "w");
        CHECK(sass_select(in, o, "none_", NULL) == 0);
        fclose(o);
        fclose(in);
    }
    return check_report("test_sass");
}

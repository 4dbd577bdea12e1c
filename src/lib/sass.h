/*
 * sass.h - read what `cuobjdump -sass` prints, so that claims about the
 * machine code (the timed region holds the load and its first use; LDG and
 * STG interleave without __restrict__; one LDG.E.128 per thread) are checked
 * by tests, not only shown.
 *
 * Input: the text of `cuobjdump -sass BINARY` (one or more "Function : NAME"
 * sections of "/" "*ADDR*" "/   [@P] OPCODE OPERANDS ;" lines).  Also
 * accepted: sections that start with "== NAME" (the toolkit's own SASS
 * excerpts in data/reference/).  NOP lines are dropped.
 */
#ifndef WARPLAT_SASS_H
#define WARPLAT_SASS_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sass_insn {
    unsigned long addr;  /* the address of the line (its hex comment) */
    char pred[8];        /* "@P0", "@!P1" or "" */
    char op[48];         /* "LDG.E.128", "CS2R" */
    char operands[208];  /* the rest, without the trailing ';' */
} sass_insn;

typedef struct sass_func {
    char name[160];
    sass_insn *insn;
    size_t n;
} sass_func;

typedef struct sass_file {
    sass_func *fn;
    size_t nfn;
} sass_file;

/* Parse; 0, or -1 with a sentence in err.  Bounded: at most SASS_MAX_INSNS
 * instructions in all, and SASS_MAX_BYTES of text read (an endless input,
 * /dev/zero or a FIFO, is refused instead of read for ever). */
#define SASS_MAX_INSNS 4000000u
#define SASS_MAX_BYTES (1u << 30) /* 1 GiB of text: an endless input (/dev/zero) ends */
int sass_parse(FILE *f, sass_file *out, char *err, size_t errlen);
int sass_read(const char *path, sass_file *out, char *err, size_t errlen);
void sass_free(sass_file *s);

/* The function of that name, or NULL. */
const sass_func *sass_find(const sass_file *s, const char *name);

/* Does the opcode start with prefix as a whole component ("LDG" matches
 * "LDG.E.128", not "LDGSTS")? */
int sass_op_is(const sass_insn *i, const char *prefix);

/*
 * The timed region of f: from the open-th to the close-th read of SR_CLOCKLO
 * (1-based).  Checks that it holds at least one LDG (or ATOMG, an atomic
 * that returns the old value) and that the destination register(s) of the
 * last of them are read by a later instruction
 * of the region (a load does not block: only a use of its value does).
 * Returns 0 with a description in msg ("LDG.E R8 used by FADD R0, RZ, R8"),
 * or -1 with the reason in msg.
 */
int sass_check_region(const sass_func *f, int open, int close, char *msg, size_t msglen);

/* The sequence of global loads and stores of f as a string: 'L' per LDG,
 * 'S' per STG, in program order (at most len - 1 of them). */
void sass_ldst_pattern(const sass_func *f, char *out, size_t len);

/* Instructions of f whose opcode starts with prefix (sass_op_is). */
size_t sass_count(const sass_func *f, const char *prefix);

/* Backward branches (BRA to a lower address than its own): loops. */
size_t sass_backward_branches(const sass_func *f);

/*
 * Copy from in to out the text of every function whose name begins with
 * prefix and does not end with except (NULL: none excluded), as cuobjdump
 * -sass -fun would list them: each block from its "Function : NAME" line
 * up to the next function or fat binary.  So one disassembly of a program
 * serves every listing taken from it.  Returns the number of functions
 * copied, or -1 when out could not be written.
 */
long sass_select(FILE *in, FILE *out, const char *prefix, const char *except);

#ifdef __cplusplus
}
#endif
#endif

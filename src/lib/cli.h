/*
 * cli.h - the one parser of numbers and options for every program of the
 * toolkit: the experiments (through the engine) and the tools.
 *
 * Numbers.  Each parser returns 0 on success, or -1 with a sentence naming
 * the argument in err ("--reps must be between 1 and 10000 (got \"0\")").
 * Refused everywhere: the empty string, junk after the number, NaN and Inf,
 * values that overflow, and values outside the range asked for.
 *
 * Options.  A program describes its options as a table of cli_opt (one row:
 * spelling, kind, range, destination, help); cli_parse() walks argv against
 * one or more such tables, stores every value through the table, collects the
 * positional arguments, and prints usage errors itself.  --opt VALUE and
 * --opt=VALUE are both accepted; "--" ends the options; an argument that
 * starts with '-' and a digit is a (negative) positional or value, so that
 * "-5" is refused as negative by the number parser, not as an unknown option.
 *
 * Exit-status convention of the toolkit (jq, ag): usage errors 2, runtime
 * failures 1, -h/--help prints to stdout and exits 0.
 */
#ifndef CLI_H
#define CLI_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A positive count written as digits ("100000000") or in scientific notation
 * that denotes an integer ("1e8", "2.5e3"); optional binary suffix K, M, G,
 * T (x1024; also written KiB, KB, ...).  Rejects zero, negatives, fractions,
 * junk and values above max. */
int cli_parse_count(const char *name, const char *s, uint64_t max, uint64_t *out,
                    char *err, size_t errlen);

/* An unsigned integer in [lo, hi] (plain digits, or the same forms as above). */
int cli_parse_range(const char *name, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
                    char *err, size_t errlen);

/* A signed integer in [lo, hi] (decimal digits, optional sign). */
int cli_parse_int(const char *name, const char *s, int64_t lo, int64_t hi, int64_t *out,
                  char *err, size_t errlen);

/* A finite real number in [lo, hi] ("3352", "2.5e3", "-0.5"). */
int cli_parse_double(const char *name, const char *s, double lo, double hi, double *out,
                     char *err, size_t errlen);

/* A list of unsigned integers in [lo, hi]: "1,2,4,8", ranges "1-32", or a
 * mix "1-4,8,16".  At most max values (the list is refused beyond that),
 * each at most once ("1,2,1" and "1-4,3" are refused). */
int cli_parse_list(const char *name, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
                   size_t max, size_t *n, char *err, size_t errlen);

/* Can a block ask for smem_bytes of dynamic shared memory on a device whose
 * opt-in limit per block is optin_bytes?  0, or -1 with a sentence in err
 * naming the device and its limits (per SM, reserved per block). */
int cli_check_smem(uint32_t smem_bytes, uint32_t optin_bytes, uint32_t per_sm_bytes,
                   uint32_t reserved_bytes, const char *device, char *err, size_t errlen);

/* ------------------------------------------------------------ options */

typedef enum cli_kind {
    CLI_FLAG,    /* no value; dest: int*, set to 1 (or to .lo when .lo != 0) */
    CLI_U64,     /* dest: uint64_t*, a number in [lo, hi] */
    CLI_COUNT,   /* dest: uint64_t*, a count >= 1 up to hi, with K/M/G/T suffixes */
    CLI_DOUBLE,  /* dest: double*, a finite number in [dlo, dhi] */
    CLI_STRING,  /* dest: const char**, any non-empty string */
    CLI_LIST,    /* dest: cli_list*, values in [lo, hi] */
    CLI_CHOICE,  /* dest: int*, the index of the value in .choices (NULL-terminated) */
    CLI_STRINGS  /* dest: cli_strings*, every value of a repeated option, in order
                  * (at most hi of them when hi != 0, else CLI_LIST_MAX) */
} cli_kind;

#define CLI_LIST_MAX 64
typedef struct cli_list {
    uint64_t v[CLI_LIST_MAX];
    size_t n;
} cli_list;

typedef struct cli_strings {
    const char *v[CLI_LIST_MAX];
    size_t n;
} cli_strings;

typedef struct cli_opt {
    const char *name;       /* "--reps" */
    char short_name;        /* 'q', or 0 */
    cli_kind kind;
    uint64_t lo, hi;        /* CLI_U64, CLI_COUNT (hi), CLI_LIST, CLI_FLAG (value) */
    double dlo, dhi;        /* CLI_DOUBLE */
    void *dest;
    const char *metavar;    /* "R" in "--reps R" */
    const char *help;       /* one or more lines; "\n" starts an indented line */
    const char *const *choices; /* CLI_CHOICE: the names; CLI_U64, CLI_LIST: when not
                               NULL, the only values accepted, in decimal ("4", "8",
                               "16"): a kernel that exists only for some values says
                               so here, so that the others are refused while
                               parsing, never on the GPU */
    int *given;             /* set to 1 when the option appears (may be NULL) */
} cli_opt;

/* The rows most options are, with the fields their kind leaves 0 left out
 * (the same order as a full row, help last):
 *     CLI_FLAG_OPT("--list", &list, "print the variants and exit"),
 *     CLI_STRING_OPT("--out", &out, "DIR", "where logs go"),
 *     CLI_NUM_OPT("--reps", CLI_U64, 1, 10000, &reps, "R", "timed launches"),
 * CLI_NUM_OPT: CLI_U64, CLI_COUNT or CLI_LIST.  A row with a short name, a
 * CLI_DOUBLE range, choices or a given flag is written in full. */
#define CLI_FLAG_OPT(name, dest, help) {name, 0, CLI_FLAG, 0, 0, 0, 0, dest, 0, help, 0, 0}
#define CLI_STRING_OPT(name, dest, meta, help) {name, 0, CLI_STRING, 0, 0, 0, 0, dest, meta, help, 0, 0}
#define CLI_NUM_OPT(name, kind, lo, hi, dest, meta, help) {name, 0, kind, lo, hi, 0, 0, dest, meta, help, 0, 0}

/* A table ends with a row whose name is NULL. */
#define CLI_END {0, 0, CLI_FLAG, 0, 0, 0, 0, 0, 0, 0, 0, 0}

#define CLI_MAX_POS 1024    /* the most positional arguments (LOGs of a tool) */
typedef struct cli_parse_result {
    char *pos[CLI_MAX_POS]; /* positional arguments, in order */
    int npos;
    int help;               /* -h or --help was given: print usage, exit 0 */
} cli_parse_result;

/*
 * Parse argv[1..argc) against the tables (ntables of them; the first row
 * that matches a spelling wins).  At most maxpos positional arguments are
 * accepted (0: "unexpected argument 'x'"; more: "too many arguments").
 * Returns 0 when parsing succeeded (check r->help), or 2 after printing
 * "PROG: <sentence>\nTry 'PROG --help'." on stderr.
 */
int cli_parse(const char *prog, int argc, char **argv, const cli_opt *const *tables,
              size_t ntables, int maxpos, cli_parse_result *r);

/*
 * The parse that opens a tool's main: argv against the one table opts, at
 * most maxpos positional arguments.  Returns 2 after a usage error; after -h
 * or --help, prints usage_text (then the table's option lines when
 * with_options) on stdout and returns 0, or 1 when stdout could not be
 * written (outfile_check_stdout); otherwise -1: main goes on with *r.
 */
int cli_main_parse(const char *prog, int argc, char **argv, const cli_opt *opts, int maxpos,
                   const char *usage_text, int with_options, cli_parse_result *r);

/*
 * The same for a tool whose usage prints more than a fixed text (its own
 * lines around cli_print_options, or figures of its defaults): after -h or
 * --help, usage(stdout, opts).  Returns as cli_main_parse: 2 after a usage
 * error, 0 after help (1 when stdout could not be written), otherwise -1.
 */
int cli_tool_parse(const char *prog, int argc, char **argv, const cli_opt *opts, int maxpos,
                   void (*usage)(FILE *f, const cli_opt *opts), cli_parse_result *r);

/*
 * The start of a main whose first argument is a command: without one, usage
 * on stderr and 2; with -h or --help first, usage on stdout and 0 (1 when
 * stdout could not be written); otherwise -1: main goes on with argv[1].
 */
int cli_command_start(const char *prog, int argc, char **argv, void (*usage)(FILE *f));

/* Print "  --name META   help" lines for every row of a table. */
void cli_print_options(FILE *f, const cli_opt *table);

/* The word for a kind in cli_list_options ("count", "list", ...). */
const char *cli_kind_name(cli_kind k);

/* Print one TSV row per option of a table, for tools that draw command
 * lines (tests/gpu/fuzz_options.sh): option, kind, lo, hi (the accepted
 * range of numbers, of each value of a list; "-" for other kinds), choices
 * (comma-separated, "-" for none), scope (the word given: "common",
 * "family", "positional", "tool").  No header. */
void cli_list_options(FILE *f, const cli_opt *table, const char *scope);

/* Print "PROG: <fmt...>\nTry 'PROG --help'.\n" on stderr; returns 2. */
int cli_usage_error(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif
#endif

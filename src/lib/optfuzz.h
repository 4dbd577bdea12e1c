/*
 * optfuzz.h - random command lines for the GPU programs, drawn from what each
 * program says it accepts (PROG --list-options, PROG --list-kernels), for
 * tests/gpu/fuzz_options.sh.
 *
 * Every value of an option is drawn from its whole accepted range, its edges
 * and just past them (lo - 1, hi + 1), with small sizes: odd N, N below a
 * warp and below a block, every WPB from 1 to 32 (and 0, 33), the SMEM values
 * that change occupancy.  Where an accepted edge would take minutes under
 * compute-sanitizer without proving more than a small value does (a latency
 * chase of 2^24 loads, a sweep of 64 points), the draw's top is the cap in
 * OF_CAPS, written down in optfuzz.c with its reason; refusals past the edge
 * are still drawn.  The draw is a pure function of the seed and the tables:
 * the same seed gives the same lines.
 *
 * A line is the program's name, then its arguments, TAB-separated (no
 * argument holds a TAB or a newline).  Paths (--out, --table) and the run's
 * length (--reps, --warmup) are the runner's, never drawn.
 */
#ifndef WARPLAT_OPTFUZZ_H
#define WARPLAT_OPTFUZZ_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OF_MAX_OPTS 96
#define OF_MAX_KERNELS 64
#define OF_MAX_ARGS 64

typedef struct of_opt {
    char name[40];         /* "--batch", or a positional's name "N" */
    char kind[12];         /* cli_kind_name: flag u64 count double string list choice strings */
    uint64_t lo, hi;       /* u64, count, list */
    double dlo, dhi;       /* double */
    char choices[160];     /* comma-separated, or "" */
    char scope[16];        /* positional, common, family, tool */
} of_opt;

typedef struct of_prog {
    char name[32];
    of_opt opt[OF_MAX_OPTS];
    int nopt;
    char kernel[OF_MAX_KERNELS][32];
    int nkernel;
} of_prog;

/* The table PROG --list-options printed (read by column name), and the
 * variant names of PROG --list-kernels (the first field of each line; none
 * for a program without variants).  0, or -1 with a sentence in err. */
int of_read_program(of_prog *p, const char *name, const char *options_path, const char *kernels_path,
                    char *err, size_t errlen);

/* One command line for p from the generator state *rng, into buf (buflen
 * bytes): the program's name, then its arguments, TAB-separated.  Returns
 * the number of arguments after the name, or -1 when buf is too small. */
int of_draw_line(const of_prog *p, uint64_t *rng, char *buf, size_t buflen);

/* The next 64 random bits (splitmix64), and a value in [lo, hi]. */
uint64_t of_rand(uint64_t *s);
uint64_t of_rand_range(uint64_t *s, uint64_t lo, uint64_t hi);

#ifdef __cplusplus
}
#endif
#endif

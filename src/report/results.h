/*
 * results.h - what one GPU's results folder holds, by the naming contract
 * (docs/naming.md, names.h): every file is classified by its name once, and
 * the report asks for "the sweep of readonly float4 at WPB 4", never for a
 * file name pattern.
 *
 * A folder is scanned one level deep, plus the folders the contract names:
 * logs_<N>/ (logs and the summaries of that N), ncu/ (raw ncu CSVs) and
 * legacy/ (files of an older layout, listed but never read).  Files are kept
 * sorted by their path relative to the folder.
 */
#ifndef WARPLAT_RESULTS_H
#define WARPLAT_RESULTS_H
#include <stddef.h>

#include "names.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct res_file {
    char *path;            /* dir/rel */
    char *rel;             /* relative to the results folder: "logs_1e6/readonly_baseline_4.bin" */
    const char *base;      /* the file name, inside rel */
    names_kind kind;       /* NAMES_UNKNOWN for a name outside the contract */
    char exp[64], variant[64], label[64], n[64]; /* names_parse's parts, one size */
    unsigned wpb;
    char where[32];        /* "" top level, "logs_1e6", "ncu", "legacy" */
} res_file;

typedef struct res_gpu {
    char *dir;
    char *label;
    res_file *file;
    size_t nfile;
} res_gpu;

/* Scan dir.  0, or -1 with a sentence in err (not a folder, out of memory). */
int res_scan(const char *dir, const char *label, res_gpu *g, char *err, size_t errlen);
void res_free(res_gpu *g);

/* 1 when dir holds at least one result file of the contract at its top
 * level or a logs_<N> folder: a GPU's folder, not a folder of folders. */
int res_is_gpu_dir(const char *dir);

/* The first file (in path order) of kind k whose parts match the non-NULL,
 * non-zero filters; where: "" for the top level, a folder name, or NULL for
 * anywhere.  NULL when none. */
const res_file *res_find(const res_gpu *g, names_kind k, const char *exp, const char *variant,
                         const char *n, unsigned wpb, const char *where);
/* The next match after `after` (same filters); NULL at the end. */
const res_file *res_next(const res_gpu *g, const res_file *after, names_kind k, const char *exp,
                         const char *variant, const char *n, unsigned wpb, const char *where);

/* The families (experiments) with a summary at the top level, sorted; at
 * most max, returns how many. */
size_t res_families(const res_gpu *g, char (*out)[64], size_t max);

/* The largest N of exp's top-level summaries, or NULL. */
const char *res_main_n(const res_gpu *g, const char *exp);

/* The WPBs of exp's top-level summaries at N, ascending; returns how many. */
size_t res_wpbs(const res_gpu *g, const char *exp, const char *n, unsigned *out, size_t max);

/* The logs folder of the smallest N that holds logs ("logs_1e6"), or NULL. */
const char *res_timeline_dir(const res_gpu *g);

/* "1e8" -> 1e8, "100000000" -> 1e8, "1024x97656" -> 99999744 (a 2-D size:
 * its elements); 0 when not a count. */
double res_n_value(const char *n);

#ifdef __cplusplus
}
#endif
#endif

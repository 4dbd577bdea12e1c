/*
 * sector_recipe.h - a family's ncu recipe (fam_model.ncu, sector_family.h)
 * made concrete for one call of scripts/ncu_profile.sh: the runs, their
 * program arguments and kernel regexes with N, WPB and the variants filled
 * in, as a TSV the script reads by column name
 * (bin/sector_model --ncu-recipe FAMILY).
 */
#ifndef WARPLAT_SECTOR_RECIPE_H
#define WARPLAT_SECTOR_RECIPE_H

#include "sector_family.h"

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "sectors", "l2_fetch", "pool" (the recipe's output column). */
const char *sf_ncu_output_name(sf_ncu_output o);

/*
 * Fill a template: "{N}" -> n, "{WPB}" -> wpb, "{V}" -> variants (comma-
 * separated), "{V|}" -> the same with '|' for ','; "{V-SUF}" and "{V|-SUF}"
 * the same less the variants whose name ends in SUF (a quick run's list).  Any other text is
 * copied.  Returns 0, or -1 with err when out is too small or a '{' opens no
 * known field.
 */
int sf_recipe_expand(const char *tmpl, const char *n, unsigned wpb, const char *variants,
                     char *out, size_t len, char *err, size_t errlen);

/*
 * The variants to profile: the model's, in its order, that `have` lists
 * (the program's --list-kernels: one variant a line, its name first, then a
 * tab or the end), comma-separated in out; `missing` gets the model's that
 * the program lacks, `unmodelled` the program's that the model lacks (both
 * comma-separated, "" when none).  have NULL: every modelled variant.
 * Returns how many variants out holds, or -1 with err when a buffer is too
 * small.
 */
int sf_recipe_variants(const struct fam_model *m, const char *have, char *out, size_t len,
                       char *missing, size_t mlen, char *unmodelled, size_t ulen, char *err,
                       size_t errlen);

/*
 * Write the recipe as TSV: a metadata line "# kernel_regex<TAB>(RE1)|(RE2)..."
 * (every run's kernel regex once: the one ncu process profiles them all),
 * a header "run args kernel l2_fetch compare output line", then one row per
 * run (those with quick set when quick), args and kernel filled in
 * (sf_recipe_expand); l2_fetch "-" where the script's own limit applies,
 * else 0 (the driver's), 32, 64 or 128; line the run's line in the batch
 * file (1, 2, ...: the engine's batch_line of its rows).  With batch, also
 * the engine's --batch-file there: one line per run, its args and, for a
 * limit of 32, 64 or 128 (or "-" and l2_fetch, the script's --l2-fetch, not
 * NULL or ""), "--l2-fetch B".  Returns 0, or -1 with err (a template, a
 * failed write).
 */
int sf_recipe_write(FILE *f, FILE *batch, const struct fam_model *m, int quick, const char *n,
                    unsigned wpb, const char *variants, const char *l2_fetch, char *err,
                    size_t errlen);

/*
 * The text `ncu --query-metrics` printed into path, whole and terminated
 * (*len its bytes; the caller frees it), or NULL with err: unreadable, or
 * larger than 64 MiB (/dev/zero, or not ncu's output).
 */
char *sf_query_read(const char *path, size_t *len, char *err, size_t errlen);
/* The same from an open stream, named name in messages (not closed). */
char *sf_query_read_stream(FILE *fp, const char *name, size_t *len, char *err, size_t errlen);

/* 1 when some line of q starts (after blanks) with the blen bytes of base,
 * followed by a blank or the end of the line. */
int sf_query_has(const char *q, const char *base, size_t blen);

#ifdef __cplusplus
}
#endif
#endif

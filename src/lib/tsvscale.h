/*
 * tsvscale.h - a copy of a table with named columns multiplied by a factor
 * (bin/tsv_scale: the "sick GPU" folders of the fleet tests, made from real
 * data).  Every line is copied as it is except the named columns of the
 * data rows (of the rows whose from_col is at least from_v, when from_col
 * is given), multiplied and written with the decimals they had.  A line
 * "# scaled<TAB>..." is added just above the header (the first line not
 * starting with '#'), so that the copy never passes for a measurement.
 */
#ifndef WARPLAT_TSVSCALE_H
#define WARPLAT_TSVSCALE_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TSVSCALE_MAX_FIELDS 256
#define TSVSCALE_MAX_INPUT_BYTES (1ull << 30) /* a table: 1 GiB is far beyond one */

typedef struct tsvscale_spec {
    const char *columns;  /* "C,C,..." */
    double factor;
    const char *from_col; /* NULL or "": every data row */
    double from_v;
} tsvscale_spec;

/* Copy in (named name in sentences) to out.  0 with *scaled_rows set, or -1
 * with a sentence in err ("t.tsv:4: 'x' is not a number"); out then holds a
 * part (the caller aborts it).  Lines of at most LINES_MAX_BYTES, at most
 * TSVSCALE_MAX_INPUT_BYTES in all. */
int tsvscale_copy(FILE *in, const char *name, FILE *out, const tsvscale_spec *s,
                  long *scaled_rows, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif

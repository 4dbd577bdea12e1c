/*
 * tsv.h - the toolkit's one reader of its tables, by column name.
 *
 * Every table the toolkit writes is TSV with '#' comment lines first:
 *
 *   # key<TAB>value          metadata (the last value of a key wins)
 *   # any other comment      kept, in order, as a comment
 *   col<TAB>col<TAB>...      the header row: the first line not starting with '#'
 *   v<TAB>v<TAB>...          rows; a later '#' line is a comment
 *
 * Columns are found by name, never by position.  A row with a different
 * number of fields than the header is an error naming the file and line.
 * Blank lines and a trailing '\r' are tolerated.  Memory: the file's size
 * plus a pointer per field; a table larger than TSV_MAX_BYTES, or with more
 * than TSV_MAX_FIELDS fields in its rows (or '#' lines), is refused.
 */
#ifndef WARPLAT_TSV_H
#define WARPLAT_TSV_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TSV_MAX_BYTES (64u << 20)
#define TSV_MAX_FIELDS (1u << 22) /* 32 MiB of pointers */

typedef struct tsv_table {
    char *name;            /* the file name, for messages */
    char **meta_key, **meta_val;
    size_t nmeta;
    char **comment;        /* '#' lines that are not key<TAB>value, without "# " */
    size_t ncomment;
    char **col;            /* header names */
    size_t ncol;
    char **cell;           /* nrow * ncol fields, row-major */
    size_t nrow;
    char *buf;             /* storage of every string */
} tsv_table;

/* Read a table.  0, or -1 with a sentence in err (t is then empty). */
int tsv_read(const char *path, tsv_table *t, char *err, size_t errlen);
int tsv_parse(FILE *f, const char *name, tsv_table *t, char *err, size_t errlen);
void tsv_free(tsv_table *t);

/* Index of the column, or -1. */
int tsv_col(const tsv_table *t, const char *name);
/* The field of row r in the named column; NULL when the column is absent or
 * r is out of range. */
const char *tsv_get(const tsv_table *t, size_t r, const char *col);
/* That field as a number: NAN when absent, empty, "nan", "-" or not entirely
 * a number. */
double tsv_num(const tsv_table *t, size_t r, const char *col);
/* The first row at or after `from` whose column col equals value; -1 if none. */
long tsv_find(const tsv_table *t, const char *col, const char *value, size_t from);
/* Metadata: the last value of key, or NULL; as a number (NAN when absent or
 * not a number, also when followed by words: "3352.3 (memory clock ...)"
 * reads as 3352.3 only through tsv_meta_lead_num). */
const char *tsv_meta(const tsv_table *t, const char *key);
double tsv_meta_num(const tsv_table *t, const char *key);
double tsv_meta_lead_num(const tsv_table *t, const char *key);

/* Write t as a table of its own holding only the rows whose column col is
 * value: every '#' key/value line (in order), the other '#' lines, the
 * header, then those rows, in order.  What splits one --batch-file run's
 * table per line (bin/tsv split, column batch_line).  Returns the rows
 * written, or -1 when t has no column col. */
long tsv_write_where(FILE *f, const tsv_table *t, const char *col, const char *value);

/* A field as a number, with the rules of tsv_num. */
double tsv_parse_num(const char *s);

#ifdef __cplusplus
}
#endif
#endif

/*
 * ncu_csv.h - read the CSV that Nsight Compute writes with
 * `ncu --csv --log-file FILE ...` into a table of metric values.
 *
 * Two layouts are understood, told apart by the header row:
 *
 *   long ("details" page, the default): one row per kernel launch per metric,
 *     "ID","Process ID","Process Name","Host Name","Kernel Name",...,
 *     "Section Name","Metric Name","Metric Unit","Metric Value"
 *     (the columns between Kernel Name and Section Name vary with the ncu
 *     version: "Kernel Time","Context","Stream" in 2021-2023 releases,
 *     "Context","Stream","Block Size","Grid Size","Device","CC" later);
 *
 *   wide (`--page raw`): one row per launch, one column per metric, and a
 *     second row that holds the units (its "ID" field is empty).
 *
 * Columns are found by name, never by position.  Lines that start with "=="
 * (==PROF==, ==WARNING==, ==ERROR==) and blank lines are skipped; fields may
 * be quoted, with embedded commas and doubled quotes; numbers may carry
 * thousands separators ("1,250,000").  A value that is not a number
 * ("n/a", a string) is kept as text with has_value = 0.  A launch ID must be
 * a whole number from 0 to NCU_MAX_ID.
 *
 * Bounds: a file larger than NCU_MAX_BYTES, or with more than
 * NCU_MAX_VALUES metric values, is refused; the table holds the file's text
 * once plus 48 bytes a value and 24 a launch, and every lookup costs time in
 * proportion to the values of one launch, not of the file.
 */
#ifndef NCU_CSV_H
#define NCU_CSV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NCU_MAX_BYTES  (64u << 20)   /* the largest CSV read */
#define NCU_MAX_VALUES (1u << 20)    /* metric values in one table */
#define NCU_MAX_ID     9007199254740992.0 /* 2^53: IDs above are not exact in a double */

/* Return codes of ncu_table_read / ncu_table_parse. */
#define NCU_OK         0
#define NCU_ERR_IO    -1   /* the file cannot be opened or read */
#define NCU_ERR_FORMAT -2  /* no header row, or a row that cannot be parsed */
#define NCU_ERR_PERM  -3   /* ncu could not read the counters (ERR_NVGPUCTRPERM) */
#define NCU_ERR_NOMEM -4

/* The sentence tools print for NCU_ERR_PERM. */
#define NCU_PERM_MESSAGE \
    "ncu has no permission to read the GPU counters (ERR_NVGPUCTRPERM): run as root " \
    "or enable access for all users, see https://developer.nvidia.com/ERR_NVGPUCTRPERM"

/* One profiled kernel launch. */
typedef struct ncu_launch {
    long  id;       /* the "ID" column: ncu's launch number in the process */
    char *kernel;   /* "Kernel Name", as ncu printed it (may carry a signature) */
} ncu_launch;

/* One metric of one launch. */
typedef struct ncu_value {
    size_t launch;  /* index into ncu_table.launches */
    char  *metric;  /* "dram__sectors_read.sum" */
    char  *unit;    /* "sector", "nsecond", "" when none */
    char  *text;    /* the field as written */
    double value;   /* the number, when has_value */
    int    has_value;
} ncu_value;

typedef struct ncu_table {
    ncu_launch *launches;   /* in order of first appearance */
    size_t      nlaunches;
    ncu_value  *values;     /* in file order */
    size_t      nvalues;
    int         wide;       /* 1 when the file had the --page raw layout */
    /* private: the strings point into text; each launch's values are a
     * list in file order (first[launch], next[value]; SIZE_MAX ends it) */
    char       *text, *hdr_text;
    size_t     *first, *last, *next;
} ncu_table;

/*
 * Read PATH (or parse text[0..len)).  On success returns NCU_OK and fills
 * *t (free it with ncu_table_free).  On failure returns an NCU_ERR_* code,
 * leaves *t empty and writes a sentence to err.  A file in which ncu
 * reported ERR_NVGPUCTRPERM gives NCU_ERR_PERM even if it also has rows.
 * A file with a header and no rows is NCU_OK with nlaunches == 0.
 */
/* path may be gzip-compressed (DIR/ncu/<family>.csv.gz): zlib reads either. */
int ncu_table_read(const char *path, ncu_table *t, char *err, size_t errlen);
int ncu_table_parse(const char *text, size_t len, ncu_table *t, char *err, size_t errlen);
void ncu_table_free(ncu_table *t);

/* The value of METRIC for launch index L, or NULL when the file has none. */
const ncu_value *ncu_table_find(const ncu_table *t, size_t launch, const char *metric);

/* 1 when any launch has METRIC. */
int ncu_table_has_metric(const ncu_table *t, const char *metric);

/*
 * Parse an ncu number: optional sign, digits with optional "," thousands
 * separators, optional fraction and exponent, surrounding blanks allowed.
 * Returns 0 and sets *out, or -1 when S is not such a number.
 */
int ncu_parse_number(const char *s, double *out);

/*
 * The factor that turns a value in UNIT into ncu's base unit: time into
 * nanoseconds ("usecond" -> 1e3, "msecond" -> 1e6, "second" -> 1e9) and
 * counts with a decimal prefix into plain counts ("Kbyte" -> 1e3, "Msector"
 * -> 1e6, "Gbyte" -> 1e9).  Returns 1.0 for base units, "", "%" and anything
 * unknown.  (ncu scales units for reading unless --print-units base.)
 */
double ncu_unit_factor(const char *unit);

/*
 * Split one CSV line into fields (quotes removed, "" -> ").  Writes at most
 * max pointers into fields, pointing into BUF (modified in place).  Returns
 * the number of fields, or -1 on an unterminated quote.
 */
int ncu_csv_split(char *buf, char **fields, int max);

#ifdef __cplusplus
}
#endif
#endif /* NCU_CSV_H */

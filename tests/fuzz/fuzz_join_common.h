/* fuzz_join_common.h - the two tables of a join from one input: the runs
 * table, a line "=====", then the ncu table (no such line: an empty ncu
 * table).  Both through tsv_parse, as sector_compare reads its files. */
#ifndef FUZZ_JOIN_COMMON_H
#define FUZZ_JOIN_COMMON_H
#include "fuzz_common.h"
#include "tsv.h"

/* 0 with both tables read (free them), or -1 when one is refused. */
static inline int fuzz_two_tables(const uint8_t *data, size_t size, tsv_table *runs,
                                  tsv_table *ncu)
{
    char *s = fuzz_string(data, size), err[512];
    char *sep = strstr(s, "\n=====\n");
    const char *second = "";
    if (sep) {
        sep[1] = 0;
        second = sep + 7;
    }
    int rc = -1;
    FILE *a = fuzz_stream((const uint8_t *)s, strlen(s));
    FILE *b = fuzz_stream((const uint8_t *)second, strlen(second));
    if (!a || !b) abort();
    if (tsv_parse(a, "runs.tsv", runs, err, sizeof err) == 0) {
        if (tsv_parse(b, "ncu.tsv", ncu, err, sizeof err) == 0)
            rc = 0;
        else
            tsv_free(runs);
    }
    fclose(a);
    fclose(b);
    free(s);
    return rc;
}
#endif

/*
 * testtable.h - a table (tsv.h) from a string literal, for the unit tests
 * whose inputs are small tables written in the test.  A table that does not
 * parse ends the test with its reason.  Include after check.h.
 */
#ifndef TESTTABLE_H
#define TESTTABLE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tsv.h"

static inline tsv_table test_table(const char *text)
{
    tsv_table t;
    char err[256] = "";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f || tsv_parse(f, "test", &t, err, sizeof err) != 0) {
        fprintf(stderr, "parse failed: %s\n", err);
        exit(1);
    }
    fclose(f);
    return t;
}
#endif

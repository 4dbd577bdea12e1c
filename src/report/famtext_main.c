/*
 * famtext.c - build/gen/famtext, the build's generator of a family's words
 * (src/report/famtext.h): make runs
 *
 *     build/gen/famtext NAME src/families/NAME/report.txt build/gen/famtext_NAME.c
 *
 * for every family folder that holds a report.txt, and the registry
 * (build/gen/families.c) points at the result.  It links famtext.c, outfile.c
 * and err.c only, because it runs before the library is built.
 * Exit 0; 1 with "famtext: FILE:LINE: ..." (OUT untouched); 2 for a usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "famtext.h"
#include "outfile.h"

/* report.txt is a few paragraphs: anything larger is not one. */
#define FAMTEXT_MAX_BYTES (1u << 20)

static const char USAGE[] =
    "usage: famtext NAME IN OUT\n"
    "  Write OUT, the C definition of fam_text_NAME (src/lib/family.h), from the\n"
    "  family's words IN (src/families/NAME/report.txt; its format: src/report/famtext.h).\n"
    "  make runs it; OUT is written whole or not at all.\n";

/* The whole file at path, malloc'd, its size in *len; NULL with err. */
static char *read_whole(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open it");
        return NULL;
    }
    char *buf = malloc(FAMTEXT_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, FAMTEXT_MAX_BYTES + 1, f) : 0;
    const int bad = !buf || ferror(f);
    fclose(f);
    if (bad || n > FAMTEXT_MAX_BYTES) {
        snprintf(err, errlen, "%s", !buf ? "out of memory" : bad ? "a read error" : "larger than 1 MiB");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(USAGE, stdout);
        return outfile_check_stdout("famtext");
    }
    if (argc != 4) {
        fputs(USAGE, stderr);
        return 2;
    }
    char err[512];
    size_t len = 0;
    char *text = read_whole(argv[2], &len, err, sizeof err);
    famtext t;
    if (!text || famtext_parse(text, len, &t, err, sizeof err) != 0) {
        fprintf(stderr, "famtext: %s:%s%s\n", argv[2], text && err[0] >= '0' && err[0] <= '9' ? "" : " ", err);
        free(text);
        return 1;
    }
    free(text);
    outfile o;
    FILE *f = outfile_open(&o, argv[3], "w", err, sizeof err);
    int rc = !f;
    if (f && famtext_write_c(f, argv[1], argv[2], &t, err, sizeof err) != 0) {
        outfile_abort(&o);
        rc = 1;
    } else if (f) {
        rc = outfile_commit(&o, err, sizeof err) != 0;
    }
    famtext_free(&t);
    if (rc) fprintf(stderr, "famtext: %s: %s\n", argv[3], err);
    return rc;
}

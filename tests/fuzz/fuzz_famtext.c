/* fuzz_famtext - a family's report.txt as the build's generator reads it
 * (famtext.h): parsed, and on success written as C, whose string literals
 * must hold no unescaped quote, backslash or trigraph. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_common.h"

#include "famtext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    famtext t;
    char err[256];
    if (famtext_parse((const char *)data, size, &t, err, sizeof err) != 0) {
        if (!err[0]) abort();
        return 0;
    }
    for (int i = 0; i < FAMTEXT_NFIELDS; i++)
        if (t.field[i] && (!t.field[i][0] || strchr(t.field[i], '\n'))) abort();
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f || famtext_write_c(f, "fuzz", "input", &t, err, sizeof err) != 0) abort();
    fclose(f);
    /* each field's line: two unescaped quotes (or none: 0), no trigraph */
    for (char *line = buf, *end; (end = strchr(line, '\n')); line = end + 1) {
        if (strncmp(line, "    .", 5)) continue;
        int quotes = 0;
        for (char *p = line; p < end; p++) {
            if (*p == '\\') {
                p++;
                continue;
            }
            if (*p == '"') quotes++;
            if (*p == '?' && p[1] == '?') abort();
        }
        if (quotes != 0 && quotes != 2) abort();
    }
    free(buf);
    famtext_free(&t);
    return 0;
}

/* fuzz_figscan - a line of the docs as docfigs reads it (figscan.h): cut
 * into figures and comments, every annotation's expression evaluated with
 * its terms split (as docfigs does before it opens any file). */
#include "fuzz_common.h"

#include "figscan.h"

static int lookup(const char *tok, double *v, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    static figscan_term t;
    if (figscan_parse_term(tok, &t, err, errlen) != 0) return -1;
    *v = (double)strlen(t.file) + (double)strlen(t.col) + t.kind;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static figscan_item it[FIGSCAN_MAX_ITEMS];
    char *line = fuzz_string(data, size);
    const int n = figscan_line(line, it, FIGSCAN_MAX_ITEMS);
    if (n > FIGSCAN_MAX_ITEMS) abort();
    for (int k = 0; k < n; k++) {
        if (it[k].end > size || it[k].pos > it[k].end) abort();
        if (!it[k].is_comment) continue;
        double v = 0, tol = 0;
        char err[600], shown[64];
        if (figscan_eval(it[k].text, lookup, NULL, &v, &tol, err, sizeof err) == 0 && k > 0 &&
            !it[k - 1].is_comment)
            fprintf(fuzz_sink(), "%d\n", figscan_agrees(it[k - 1].text, v, tol, shown, sizeof shown));
    }
    free(line);
    return 0;
}

/* gpusel.c - the GPUs of a host and the ones a run measures (gpusel.h). */
#include "gpusel.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

/* A decimal ordinal at *p (0..1023), *p moved past it; -1 when none. */
static int ordinal(const char **p)
{
    const char *s = *p;
    if (!isdigit((unsigned char)*s)) return -1;
    long v = 0;
    while (isdigit((unsigned char)*s) && v <= 1023) v = 10 * v + (*s++ - '0');
    if (v > 1023 || isdigit((unsigned char)*s)) return -1;
    *p = s;
    return (int)v;
}

static int has(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return 1;
    return 0;
}

int gpusel_parse_smi_list(const char *text, int *ord, int max, char *err, size_t errlen)
{
    int n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        const char *p = line;
        if (!strncmp(p, "GPU ", 4)) {
            p += 4;
            const int k = ordinal(&p);
            if (k >= 0 && *p == ':') {
                if (has(ord, n, k)) {
                    set_err(err, errlen, "nvidia-smi lists GPU %d twice", k);
                    return -1;
                }
                if (n == max) {
                    set_err(err, errlen, "nvidia-smi lists more than %d GPUs", max);
                    return -1;
                }
                ord[n++] = k;
            }
        }
        line = end ? end + 1 : NULL;
    }
    return n;
}

int gpusel_select(const char *spec, const int *avail, int n, int *out, int max, char *err, size_t errlen)
{
    if (!spec || !*spec) {
        set_err(err, errlen, "no GPU named (all, an ordinal, or a list such as 0,2)");
        return -1;
    }
    int k = 0;
    if (!strcmp(spec, "all")) {
        for (int i = 0; i < n && k < max; i++) out[k++] = avail[i];
    } else {
        for (const char *p = spec;;) {
            const int v = ordinal(&p);
            if (v < 0 || (*p && *p != ',') || (*p == ',' && !p[1])) {
                set_err(err, errlen, "'%s' is not all, an ordinal or a list of ordinals such as 0,2", spec);
                return -1;
            }
            if (has(out, k, v)) {
                set_err(err, errlen, "'%s' names GPU %d twice", spec, v);
                return -1;
            }
            if (k == max) {
                set_err(err, errlen, "'%s' names more than %d GPUs", spec, max);
                return -1;
            }
            out[k++] = v;
            if (!*p) break;
            p++;
        }
    }
    if (n == 0) {
        set_err(err, errlen, "nvidia-smi lists no GPU");
        return -2;
    }
    for (int i = 0; i < k; i++)
        if (!has(avail, n, out[i])) {
            char list[256] = "";
            for (int j = 0; j < n; j++) {
                const size_t u = strlen(list);
                snprintf(list + u, sizeof list - u, "%s%d", j ? ", " : "", avail[j]);
            }
            set_err(err, errlen, "this host has no GPU %d (nvidia-smi lists %s)", out[i], list);
            return -2;
        }
    return k;
}

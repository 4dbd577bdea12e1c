/*
 * sweepncu.c - ncu values of an occupancy sweep's points (see sweepncu.h).
 */
#include "sweepncu.h"

#include <math.h>
#include <string.h>

int sweepncu_point(const ncu_table *t, const char *kernel, double *ach, double *dram_GBps,
                   char *why, size_t whylen)
{
    *ach = *dram_GBps = NAN;
    const size_t kl = strlen(kernel);
    long last = -1;
    for (size_t i = 0; i < t->nlaunches; i++) {
        const char *k = t->launches[i].kernel;
        if (k && !strncmp(k, kernel, kl) && (k[kl] == 0 || k[kl] == '(' || k[kl] == '<')) last = (long)i;
    }
    if (last < 0) {
        snprintf(why, whylen, "no launch of %s in it (no counter permission? ERR_NVGPUCTRPERM)", kernel);
        return -1;
    }
    const ncu_value *a = ncu_table_find(t, (size_t)last, SWEEPNCU_M_ACH);
    const ncu_value *d = ncu_table_find(t, (size_t)last, SWEEPNCU_M_DRAM);
    if (a && a->has_value) *ach = a->value;
    if (d && d->has_value) {
        const double f = ncu_unit_factor(d->unit);
        *dram_GBps = d->value * (isfinite(f) && f > 0 ? f : 1) / 1e9;
    }
    if (!isfinite(*ach) && !isfinite(*dram_GBps)) {
        snprintf(why, whylen, "neither %s nor %s in it", SWEEPNCU_M_ACH, SWEEPNCU_M_DRAM);
        return -1;
    }
    return 0;
}

int sweepncu_preamble(FILE *in, FILE *out)
{
    char line[16384];
    while (fgets(line, sizeof line, in)) {
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != '#' && *p != '\n' && *p != '\r' && *p) break;
        if (strncmp(line, "# ncu\t", 6)) fputs(line, out);
    }
    return ferror(in) ? -1 : 0;
}

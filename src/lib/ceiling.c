/* ceiling.c - see ceiling.h. */
#include "ceiling.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

int ceiling_pick(const tsv_table *tables, size_t ntables, ceiling_best *out, size_t max,
                 char *err, size_t errlen)
{
    size_t n = 0;
    static const char *need[] = {"kernel", "config", "bw_GBps", "kernel_ms", "warps_per_block", "valid"};
    for (size_t t = 0; t < ntables; t++) {
        const tsv_table *tb = &tables[t];
        for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
            if (tsv_col(tb, need[k]) < 0) {
                set_err(err, errlen, "%s has no column '%s'", tb->name, need[k]);
                return -1;
            }
        for (size_t r = 0; r < tb->nrow; r++) {
            if (strcmp(tsv_get(tb, r, "valid"), "ok") != 0) continue;
            const double bw = tsv_num(tb, r, "bw_GBps");
            if (!(bw > 0)) continue;
            const char *op = tsv_get(tb, r, "kernel");
            size_t i = 0;
            while (i < n && strcmp(out[i].op, op) != 0) i++;
            if (i == n) {
                if (n == max) {
                    set_err(err, errlen, "more than %zu operations", max);
                    return -1;
                }
                memset(&out[n], 0, sizeof out[n]);
                snprintf(out[n].op, sizeof out[n].op, "%s", op);
                n++;
            }
            if (bw > out[i].bw_GBps) {
                out[i].bw_GBps = bw;
                out[i].kernel_ms = tsv_num(tb, r, "kernel_ms");
                out[i].wpb = tsv_num(tb, r, "warps_per_block");
                snprintf(out[i].config, sizeof out[i].config, "%s", tsv_get(tb, r, "config"));
                snprintf(out[i].table, sizeof out[i].table, "%s", tb->name);
            }
        }
    }
    return (int)n;
}

const char *ceiling_config_get(const char *config, const char *key, char *buf, size_t len)
{
    const size_t kl = strlen(key);
    for (const char *p = config; p && *p;) {
        const char *end = strchr(p, ',');
        const size_t item = end ? (size_t)(end - p) : strlen(p);
        if (item > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
            const size_t vl = item - kl - 1;
            if (vl + 1 > len) return NULL;
            memcpy(buf, p + kl + 1, vl);
            buf[vl] = 0;
            return buf;
        }
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

double ceiling_bytes_in_flight_per_sm(double bw_GBps, double latency_ns, double sm_count)
{
    if (!(bw_GBps > 0) || !(latency_ns > 0) || !(sm_count > 0) || !isfinite(bw_GBps) ||
        !isfinite(latency_ns) || !isfinite(sm_count))
        return NAN;
    /* GB/s x ns = bytes */
    return bw_GBps * latency_ns / sm_count;
}

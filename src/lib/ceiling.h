/*
 * ceiling.h - the achievable-ceiling search's arithmetic: the best
 * configuration of each operation over one or more summary tables of
 * ./ceiling, and Little's law read backwards (the bytes that must be in
 * flight per SM to reach that bandwidth at the DRAM latency).
 */
#ifndef WARPLAT_CEILING_H
#define WARPLAT_CEILING_H
#include <stddef.h>
#include "tsv.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CEILING_MAX_OPS 16

typedef struct ceiling_best {
    char op[32];          /* the kernel column: read, write, copy, triad, dot, memcpy */
    char config[64];      /* its config column, e.g. "w=16,u=8,h=1,g=0,wpb=8" */
    double bw_GBps;       /* the largest over every table */
    double kernel_ms;
    double wpb;
    char table[256];      /* which table it came from */
} ceiling_best;

/* Scan tables (read by column name: kernel, config, bw_GBps, kernel_ms,
 * warps_per_block, valid) and keep, per kernel, the row of largest bw_GBps
 * among the valid ones, in order of first appearance.  Returns the number
 * of operations, or -1 with err when a table lacks a column. */
int ceiling_pick(const tsv_table *tables, size_t ntables, ceiling_best *out, size_t max,
                 char *err, size_t errlen);

/* The value of key in "k=v,k=v" (NULL-terminated copy into buf), or NULL. */
const char *ceiling_config_get(const char *config, const char *key, char *buf, size_t len);

/* Bytes in flight per SM that Little's law needs for bw_GBps at a latency of
 * latency_ns: bw * latency / sm_count.  NAN when an input is not positive. */
double ceiling_bytes_in_flight_per_sm(double bw_GBps, double latency_ns, double sm_count);

#ifdef __cplusplus
}
#endif
#endif

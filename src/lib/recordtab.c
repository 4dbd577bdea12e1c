/*
 * recordtab.c - warp records written as text (see recordtab.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "recordtab.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lines.h"

/* One field: an unsigned integer up to max. */
static int field(const char *tok, const char *name, uint64_t max, uint64_t *v, char *err,
                 size_t errlen)
{
    if (!tok) {
        snprintf(err, errlen, "expected six unsigned integers start_clk end_clk gtimer_ns block "
                 "warp smid; %s is missing", name);
        return -1;
    }
    return cli_parse_range(name, tok, 0, max, v, err, errlen);
}

int recordtab_parse_line(char *line, warp_record *r, char *err, size_t errlen)
{
    char *p = line + strspn(line, " \t");
    if (*p == '#' || *p == '\n' || *p == '\r' || *p == 0) return 0;
    char *save = NULL;
    uint64_t s, e, g, b, w, sm, rg = 0;
    const char *ws = " \t\r\n";
    if (field(strtok_r(p, ws, &save), "start_clk", UINT64_MAX, &s, err, errlen) ||
        field(strtok_r(NULL, ws, &save), "end_clk", UINT64_MAX, &e, err, errlen) ||
        field(strtok_r(NULL, ws, &save), "gtimer_ns", UINT64_MAX, &g, err, errlen) ||
        field(strtok_r(NULL, ws, &save), "block", UINT32_MAX, &b, err, errlen) ||
        field(strtok_r(NULL, ws, &save), "warp", UINT16_MAX, &w, err, errlen) ||
        field(strtok_r(NULL, ws, &save), "smid", UINT16_MAX, &sm, err, errlen))
        return -1;
    const char *rtok = strtok_r(NULL, ws, &save);
    if (rtok && field(rtok, "region", WARPLOG_MAX_REGIONS - 1, &rg, err, errlen)) return -1;
    const char *extra = rtok ? strtok_r(NULL, ws, &save) : NULL;
    if (extra) {
        snprintf(err, errlen, "more than seven fields (from '%.40s')", extra);
        return -1;
    }
    *r = (warp_record){s, e, g, (uint32_t)b, (uint8_t)w, (uint8_t)((w >> 8) | rg), (uint16_t)sm};
    return 1;
}

int recordtab_read(FILE *in, const char *name, size_t max_records, warp_record **recs_out,
                   size_t *n_out, uint32_t *max_block, char *err, size_t errlen)
{
    size_t cap = 1024, n = 0;
    warp_record *recs = malloc(cap * sizeof *recs);
    char *line = NULL, lerr[300];
    size_t lcap = 0;
    long lineno = 0, len = 0;
    *max_block = 0;
    while (recs && (len = lines_read(in, &line, &lcap, RECORDTAB_MAX_LINE)) != -1) {
        lineno++;
        warp_record r;
        const int got = len < -1 ? -1 : recordtab_parse_line(line, &r, lerr, sizeof lerr);
        if (len == -2) snprintf(lerr, sizeof lerr, "longer than %d bytes: not a record", RECORDTAB_MAX_LINE);
        if (len == -3) break; /* out of memory */
        if (got < 0) {
            snprintf(err, errlen, "%s line %ld: %s", name, lineno, lerr);
            goto fail;
        }
        if (got == 0) continue;
        if (n == max_records) {
            snprintf(err, errlen, "%s has more than %zu records", name, max_records);
            goto fail;
        }
        if (n == cap) {
            warp_record *q = realloc(recs, 2 * cap * sizeof *recs);
            if (!q) break;
            recs = q;
            cap *= 2;
        }
        recs[n++] = r;
        if (r.block > *max_block) *max_block = r.block;
    }
    if (!recs || len != -1) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (ferror(in)) {
        snprintf(err, errlen, "cannot read %s", name);
        goto fail;
    }
    free(line);
    *recs_out = recs;
    *n_out = n;
    return 0;
fail:
    free(recs);
    free(line);
    return -1;
}

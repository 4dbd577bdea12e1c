/* report_math.c - the copy family's arithmetic in the report
 * (report_math.h): the strided accesses in a sentence, and a bandwidth against a reference.
 * Moved whole from src/report/report_families.c: nothing else uses it. */
#define _POSIX_C_SOURCE 200809L
#include "report_math.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "report_facts.h"
#include "sbuf.h"

static int pos(double v) { return isfinite(v) && v > 0; }

int rfm_stride_note(const char *what, const rfm_series *spr, const rfm_series *bw, char *buf, size_t len)
{
    if (!spr->n && !bw->n) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s:", what);
    if (spr->n >= 2) {
        double top = spr->y[0];
        for (size_t i = 1; i < spr->n; i++) top = fmax(top, spr->y[i]);
        size_t from = 0;
        while (from < spr->n && spr->y[from] < 0.99 * top) from++;
        sb_add(&s, " %.1f sectors per request at stride %.0f, %.1f (x%.1f) from stride %.0f on", spr->y[0],
               spr->x[0], spr->y[from], spr->y[from] / spr->y[0], spr->x[from]);
        sb_add(&s, bw->n >= 2 ? ";" : ".");
    }
    if (bw->n >= 2) {
        const size_t l = bw->n - 1;
        sb_add(&s, " %.1f GB/s at stride %.0f, %.1f GB/s at stride %.0f (x%.2f).", bw->y[0], bw->x[0],
               bw->y[l], bw->x[l], bw->y[l] / bw->y[0]);
    }
    return sb_done(&s);
}

int rfm_vs_reference(const char *name, double bw, double ref_bw, char *buf, size_t len)
{
    if (!isfinite(bw)) return sb_nothing(buf, len);
    sb s;
    sb_init(&s, buf, len);
    sb_add(&s, "%s %.1f GB/s", name, bw);
    if (pos(ref_bw)) sb_add(&s, " (%.1f%%)", 100 * bw / ref_bw);
    return sb_done(&s);
}

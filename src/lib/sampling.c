/* sampling.c - which K gives the unperturbed latency, and has it converged (sampling.h). */
#include "sampling.h"

#include <math.h>
#include <string.h>

#include "sbuf.h"
#include "warplog.h"

uint32_t sampling_next_k(uint32_t K, double overhead_pct, double max_pct, uint32_t kmax)
{
    uint64_t next = 2 * (uint64_t)(K ? K : 1);
    if (max_pct > 0 && overhead_pct > max_pct) {
        const double want = (double)K * overhead_pct / (0.75 * max_pct);
        while (next < kmax && (double)next < want) next *= 2;
    }
    return next > kmax ? kmax : (uint32_t)next;
}

uint32_t sampling_runs(uint32_t K, uint32_t base)
{
    if (base == 0) base = 1;
    return K / base > 1 ? K / base : 1;
}

/* Row r counts: not the run's default choice, a K, both percentiles. */
static int usable(const tsv_table *t, size_t r)
{
    const char *label = tsv_get(t, r, "label");
    if (label && !strcmp(label, "default")) return 0;
    return tsv_get(t, r, "variant") && tsv_num(t, r, "sample") >= 1 &&
           isfinite(tsv_num(t, r, "lat_p50_cycles")) && isfinite(tsv_num(t, r, "lat_p95_cycles"));
}

/* The first usable row of variant v at K, or t->nrow. */
static size_t row_at(const tsv_table *t, const char *v, double K)
{
    for (size_t r = 0; r < t->nrow; r++)
        if (usable(t, r) && !strcmp(tsv_get(t, r, "variant"), v) && tsv_num(t, r, "sample") == K) return r;
    return t->nrow;
}

/* The verdict of variant v: 0, or -1 when it has fewer than two K above 1. */
static int judge(const tsv_table *t, const char *v, double tol, sampling_conv *c)
{
    double hi = 0, lo = 0;
    for (size_t r = 0; r < t->nrow; r++) {
        if (!usable(t, r) || strcmp(tsv_get(t, r, "variant"), v)) continue;
        const double K = tsv_num(t, r, "sample");
        if (K > hi) lo = hi, hi = K;
        else if (K > lo && K < hi) lo = K;
    }
    if (!(lo > 1)) return -1;
    const size_t a = row_at(t, v, hi), b = row_at(t, v, lo), one = row_at(t, v, 1);
    memset(c, 0, sizeof *c);
    c->variant = v;
    c->k_hi = hi, c->k_lo = lo;
    c->p50_hi = tsv_num(t, a, "lat_p50_cycles"), c->p95_hi = tsv_num(t, a, "lat_p95_cycles");
    c->p50_lo = tsv_num(t, b, "lat_p50_cycles"), c->p95_lo = tsv_num(t, b, "lat_p95_cycles");
    c->records_hi = tsv_num(t, a, "records");
    c->runs_hi = tsv_col(t, "runs") >= 0 ? tsv_num(t, a, "runs") : 1;
    c->p50_diff_pct = 100 * (c->p50_lo / c->p50_hi - 1);
    c->p95_diff_pct = 100 * (c->p95_lo / c->p95_hi - 1);
    c->p50_k1 = one < t->nrow ? tsv_num(t, one, "lat_p50_cycles") : NAN;
    c->p95_k1 = one < t->nrow ? tsv_num(t, one, "lat_p95_cycles") : NAN;
    c->converged = fabs(c->p50_diff_pct) <= tol && fabs(c->p95_diff_pct) <= tol;
    return 0;
}

size_t sampling_verdicts(const tsv_table *t, double tol_pct, sampling_conv *out, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrow && n < max; r++) {
        if (!usable(t, r)) continue;
        const char *v = tsv_get(t, r, "variant");
        int seen = 0;
        for (size_t i = 0; i < n; i++) seen |= !strcmp(out[i].variant, v);
        if (!seen && judge(t, v, tol_pct, &out[n]) == 0) n++;
    }
    return n;
}

int sampling_note(const sampling_conv *c, size_t n, double tol, char *buf, size_t len)
{
    if (!n) return sb_nothing(buf, len);
    size_t ok = 0;
    for (size_t i = 0; i < n; i++) ok += c[i].converged;
    const sampling_conv *f = &c[0];
    sb s;
    sb_init(&s, buf, len);
    if (isfinite(f->p50_k1))
        sb_add(&s, "Latencies fall as fewer blocks record: %s's median is %.0f cycles with every block "
                   "recorded and %.0f at K = %.0f. ", f->variant, f->p50_k1, f->p50_hi, f->k_hi);
    sb_add(&s, "The sparsest K, %.0f, gives the unperturbed figure", f->k_hi);
    if (f->runs_hi > 1) sb_add(&s, " (pooled over %.0f launches that recorded other blocks)", f->runs_hi);
    sb_add(&s, ": against K = %.0f its p50 and p95 agree within %.0f%% for %zu of %zu variants", f->k_lo, tol,
           ok, n);
    const char *sep = " (not ";
    for (size_t i = 0; i < n; i++) {
        if (c[i].converged) continue;
        const int p95 = fabs(c[i].p95_diff_pct) > fabs(c[i].p50_diff_pct);
        sb_add(&s, "%s%s: %s %.1f%% apart", sep, c[i].variant, p95 ? "p95" : "p50",
               fabs(p95 ? c[i].p95_diff_pct : c[i].p50_diff_pct));
        sep = "; ";
    }
    sb_add(&s, "%s.", ok < n ? ")" : "");
    if (ok < n) sb_add(&s, " Where they are not, the figure has not converged: pool more launches.");
    if (isfinite(f->p50_k1))
        sb_add(&s, " K = 1 reads higher because every warp then also stores its %zu-byte record: stores "
                   "that add to the traffic the loads queue behind, and that each warp must drain before "
                   "its slot frees.", sizeof(warp_probe));
    return sb_done(&s);
}

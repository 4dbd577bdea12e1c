/*
 * atomics_check.c - the atomics family's draws and comparison table for the
 * random model check (contract: atomics_check.h).
 *
 * Why here and not a fam_model: the atomics model predicts whole-launch
 * counts from the addresses alone (atomics_model.h), with no address walk;
 * wrapping it as a sector_family.h model would mean a generator it does not
 * need.  The table it writes has bin/sector_compare's column names, so
 * bin/model_check judge and tolerate read it as they read the others'.
 */
#define _POSIX_C_SOURCE 200809L
#include "atomics_check.h"

#include <math.h>
#include <string.h>

#include "atomics_model.h"
#include "err.h"
#include "model_check.h"
#include "sector_family.h"

int ma_metrics(char *buf, size_t len) { return atm_metric_list(buf, len); }

static void head(FILE *f, uint64_t seed, unsigned k, const char *meta)
{
    if (meta && *meta) fputs(meta, f);
    fprintf(f, "# model_check draw: random configurations of the atomics model (docs/model_check.md)\n"
               "# family\tatomics\n# seed\t%llu\n# configurations\t%u\n# variants\tall, in turn\n"
               "# ranges\tN %llu..%llu (log-uniform, not rounded); WPB 1..%u\n"
               "# rerun\tone line alone: ./atomics_profile LINE (bin/model_check draw atomics --seed %llu "
               "--random %u gives the same lines)\n",
            (unsigned long long)seed, k, SF_DRAW_N_MIN, MA_DRAW_N_MAX, SF_DRAW_WPB_MAX,
            (unsigned long long)seed, k);
}

int ma_draw(uint64_t seed, unsigned k, const char *meta, FILE *batch, FILE *draws, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    head(batch, seed, k, meta);
    head(draws, seed, k, meta);
    fprintf(draws, "id\tfamily\tvariant\tn\twarps_per_block\targs\n");
    for (unsigned i = 0; i < k; i++) {
        const int v = (int)(i % AT_NVARIANTS);
        uint64_t rng = mc_rng_of(seed, "atomics", i);
        /* log-uniform over two decades, in integers (a seed draws the same
         * N on every machine) */
        const uint64_t part = sf_rand_range(&rng, 0, 1999);
        const uint64_t n = part < 1000 ? sf_rand_range(&rng, SF_DRAW_N_MIN, 999999)
                                       : sf_rand_range(&rng, 1000000, MA_DRAW_N_MAX);
        const unsigned wpb = sf_draw_wpb(&rng);
        const char *name = atomics_variant_name(v);
        fprintf(batch, "%llu 0 %u --kernel %s  # id=%u variant=%s\n", (unsigned long long)n, wpb, name, i, name);
        fprintf(draws, "%u\tatomics\t%s\t%llu\t%u\t%llu 0 %u --kernel %s\n", i, name, (unsigned long long)n, wpb,
                (unsigned long long)n, wpb, name);
    }
    return 0;
}

/* The variant of an ncu kernel name "atomics_NAME" or "atomics_NAME(...)";
 * -1 for the others (check kernels, the initialisation). */
static int kernel_variant(const char *k)
{
    for (int i = 0; i < AT_NVARIANTS; i++) {
        char want[64];
        snprintf(want, sizeof want, "atomics_%s", atomics_variant_name(i));
        const size_t wl = strlen(want);
        if (!strncmp(k, want, wl) && (k[wl] == 0 || k[wl] == '(')) return i;
    }
    return -1;
}

static const char *const QN[] = {"l1_requests", "l1_sectors", "l2_requests", "l2_sectors"};

static void row(FILE *out, int v, double n, double wpb, const atm_pred *p, const double *meas)
{
    double pred[5] = {(double)p->l1_requests, (double)p->l1_sectors, (double)p->l2_requests,
                      (double)p->l2_sectors, (double)p->dram_read_bytes / 32};
    char mism[128] = "", judged[128] = "l1_requests,l1_sectors,l2_requests,l2_sectors";
    int measured = 1;
    for (int m = 0; m < 4; m++) {
        if (meas[m] < 0) measured = 0;
        else if (meas[m] != pred[m])
            snprintf(mism + strlen(mism), sizeof mism - strlen(mism), "%s%s", mism[0] ? "," : "", QN[m]);
    }
    const double dram = meas[4] >= 0 ? meas[4] / 32 : NAN;
    if (p->dram_judged && !isnan(dram) && dram >= SF_DRAM_MIN_SECTORS) {
        strcat(judged, ",dram_sectors");
        if (fabs(dram - pred[4]) > SF_DRAM_TOL * dram)
            snprintf(mism + strlen(mism), sizeof mism - strlen(mism), "%sdram_sectors", mism[0] ? "," : "");
    }
    fprintf(out, "atomics\t%s\t-\t%s\t%.0f\t%.0f\t%s\t%s\t%s\t-\t", atomics_variant_name(v), p->ret ? "atom" : "red",
            n, wpb, measured && !mism[0] ? "yes" : "no", measured ? (mism[0] ? mism : "-") : "not measured",
            judged);
    fprintf(out, "replay rule; DRAM judged %s", p->dram_judged ? "from 8192 sectors" : "never (atm_pred.dram_judged)");
    for (int m = 0; m < 4; m++) {
        fprintf(out, "\t%.0f", pred[m]);
        if (meas[m] < 0) fputs("\t-", out);
        else fprintf(out, "\t%.0f", meas[m]);
    }
    fprintf(out, "\t%.0f", pred[4]);
    if (isnan(dram)) fputs("\t-\n", out);
    else fprintf(out, "\t%.1f\n", dram);
}

int ma_compare(const tsv_table *runs, const tsv_table *ext, unsigned fetch_bytes, FILE *out, char *err,
               size_t errlen)
{
    static const char *const RNEED[] = {"kernel", "n", "warps_per_block", "valid"};
    for (size_t i = 0; i < sizeof RNEED / sizeof RNEED[0]; i++)
        if (tsv_col(runs, RNEED[i]) < 0) {
            set_err(err, errlen, "%s has no column %s (is it the engine's --table?)", runs->name, RNEED[i]);
            return -1;
        }
    if (tsv_col(ext, "kernel") < 0) {
        set_err(err, errlen, "%s has no column kernel (is it bin/ncu_extract's table?)", ext->name);
        return -1;
    }
    fprintf(out, "# family\tatomics\n# l2_rule\t%s\n# dram_granularity_bytes\t%u\n", atm_rule_name(ATM_L2_REPLAY),
            fetch_bytes);
    if (tsv_meta(runs, "device")) fprintf(out, "# device\t%s\n", tsv_meta(runs, "device"));
    fputs("family\tvariant\tconfig\top\tn\twarps_per_block\tagree\tmismatch\tjudged\twide\tnote", out);
    for (int m = 0; m < 4; m++) fprintf(out, "\t%s_pred\t%s_meas", QN[m], QN[m]);
    fputs("\tdram_sectors_pred\tdram_sectors_meas\n", out);
    size_t e = 0;
    for (size_t r = 0; r < runs->nrow; r++) {
        if (strcmp(tsv_get(runs, r, "valid"), "ok")) continue;
        const char *name = tsv_get(runs, r, "kernel");
        int v = -1;
        for (int i = 0; i < AT_NVARIANTS; i++)
            if (!strcmp(name, atomics_variant_name(i))) v = i;
        if (v < 0) continue;
        while (e < ext->nrow && kernel_variant(tsv_get(ext, e, "kernel")) < 0) e++;
        if (e >= ext->nrow) break;   /* fewer launches profiled than run: the rest not measured */
        if (kernel_variant(tsv_get(ext, e, "kernel")) != v) {
            set_err(err, errlen, "%s: launch %zu is %s, the run's row %zu is %s: not the same batch", ext->name,
                    e + 1, tsv_get(ext, e, "kernel"), r + 1, name);
            return -1;
        }
        const double n = tsv_num(runs, r, "n"), wpb = tsv_num(runs, r, "warps_per_block");
        atm_pred p;
        if (atm_predict(v, (uint64_t)n, (uint32_t)wpb, ATM_L2_REPLAY, fetch_bytes, &p, err, errlen) != 0) return -1;
        double meas[5];
        for (int m = 0; m < ATM_NMETRICS; m++) {
            const char *col = atm_metric(p.ret, m);
            const double x = tsv_col(ext, col) >= 0 ? tsv_num(ext, e, col) : NAN;
            meas[m] = isnan(x) ? -1 : x;
        }
        row(out, v, n, wpb, &p, meas);
        e++;
    }
    return 0;
}

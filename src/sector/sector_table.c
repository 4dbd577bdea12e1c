/*
 * sector_table.c - sector_table.h: the families' comparison table, and the
 * readers of a configuration and of ncu's kernel names.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_table.h"
#include "sector_families.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* name, whether it has a _pred and a _meas column, printf format */
static const struct gcol { int q; const char *pred, *meas, *fmt; } GCOLS[] = {
    { SCT_REQ, "l1_requests_pred", "l1_requests_meas", "%.0f" },
    { SCT_INSTR, NULL, "instructions_meas", "%.0f" },
    { SCT_SEC, "l1_sectors_pred", "l1_sectors_meas", "%.0f" },
    { SCT_SPR, "sectors_per_request_pred", "sectors_per_request_meas", "%.4f" },
    { SCT_WF, "wavefronts_pred", "wavefronts_meas", "%.0f" },
    { SCT_DWF, NULL, "data_wavefronts_meas", "%.0f" },
    { SCT_HITS, "l1_hits_pred", NULL, "%.0f" },
    { SCT_HITS_MAX, "l1_hits_max_pred", NULL, "%.0f" },
    { SCT_HITS, NULL, "l1_hits_meas", "%.0f" },
    { SCT_HITPCT, "l1_hit_pct_pred", "l1_hit_pct_meas", "%.2f" },
    { SCT_L2REQ, "l2_requests_pred", NULL, "%.0f" },
    { SCT_L2REQ_MIN, "l2_requests_min_pred", NULL, "%.0f" },
    { SCT_L2REQ, NULL, "l2_requests_meas", "%.0f" },
    { SCT_L2SEC, "l2_sectors_pred", NULL, "%.0f" },
    { SCT_L2SEC_MIN, "l2_sectors_min_pred", NULL, "%.0f" },
    { SCT_L2SEC, NULL, "l2_sectors_meas", "%.0f" },
    { SCT_DRAM, "dram_sectors_pred", "dram_sectors_meas", "%.0f" },
    { SCT_DRAMERR, NULL, "dram_err_pct", "%+.2f" },
    { SCT_L1U, "l1_util_pct_pred", "l1_util_pct_meas", "%.2f" },
    { SCT_L2U, "l2_util_pct_pred", "l2_util_pct_meas", "%.2f" },
    { SCT_DRAMU, "dram_util_pct_pred", "dram_util_pct_meas", "%.2f" },
    { SCT_BLOCKS, "blocks_pred", "blocks_meas", "%.0f" },
    { SCT_TIME, NULL, "time_ns", "%.0f" },
};
#define NGCOLS (sizeof GCOLS / sizeof GCOLS[0])

void sct_init(sct_row *g)
{
    memset(g, 0, sizeof *g);
    for (int i = 0; i < SCT_N; i++)
        g->p[i] = g->m[i] = NAN;
    g->agree = "no";
    g->mismatch = g->lab = g->lab_source = g->lab_vs_model = g->note = "-";
    g->n = g->wpb = NAN;
    g->judged = g->wide = "-";
}

static double ratio_pct(double num_, double den)
{
    return isnan(num_) || isnan(den) || den <= 0 ? NAN : 100 * num_ / den;
}

/* Derived columns: sectors per request, hit rate, utilizations, DRAM error. */
void sct_derive(sct_row *g, double bytes)
{
    for (int s = 0; s < 2; s++) {
        double *v = s ? g->m : g->p;
        v[SCT_SPR] = isnan(v[SCT_SEC]) || isnan(v[SCT_REQ]) || v[SCT_REQ] <= 0 ? NAN
                                                                           : v[SCT_SEC] / v[SCT_REQ];
        v[SCT_HITPCT] = ratio_pct(v[SCT_HITS], v[SCT_SEC]);
        /* bytes asked are the program's, known exactly from the addresses */
        v[SCT_L1U] = ratio_pct(bytes, 32 * v[SCT_SEC]);
        v[SCT_L2U] = ratio_pct(bytes, 32 * v[SCT_L2SEC]);
        v[SCT_DRAMU] = ratio_pct(bytes, 32 * v[SCT_DRAM]);
    }
    g->m[SCT_DRAMERR] = isnan(g->m[SCT_DRAM]) || isnan(g->p[SCT_DRAM]) || g->p[SCT_DRAM] == 0
                           ? NAN : 100 * (g->m[SCT_DRAM] - g->p[SCT_DRAM]) / g->p[SCT_DRAM];
}

void sct_header(FILE *out)
{
    fputs("family\tvariant\tconfig\top", out);
    for (size_t i = 0; i < NGCOLS; i++) {
        if (GCOLS[i].pred)
            fprintf(out, "\t%s", GCOLS[i].pred);
        if (GCOLS[i].meas)
            fprintf(out, "\t%s", GCOLS[i].meas);
    }
    fputs("\tagree\tmismatch\tlab\tlab_source\tlab_vs_model\tnote\tn\twarps_per_block\tjudged\twide\n", out);
}

static void put_v(FILE *out, double v, const char *fmt)
{
    if (isnan(v))
        fputs("NA", out);
    else
        fprintf(out, fmt, v);
}

/* A text field with tabs and newlines made blanks (one row per line). */
static void put_text(FILE *out, const char *s)
{
    if (!s || !*s) {
        fputs("-", out);
        return;
    }
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, out);
}

static void gen_tsv(FILE *out, const sct_row *g)
{
    fprintf(out, "%s\t%s\t%s\t%s", g->family, g->variant, g->config, g->op);
    for (size_t i = 0; i < NGCOLS; i++) {
        if (GCOLS[i].pred) {
            fputc('\t', out);
            put_v(out, g->p[GCOLS[i].q], GCOLS[i].fmt);
        }
        if (GCOLS[i].meas) {
            fputc('\t', out);
            put_v(out, g->m[GCOLS[i].q], GCOLS[i].fmt);
        }
    }
    const char *t[6] = { g->agree, g->mismatch, g->lab, g->lab_source, g->lab_vs_model, g->note };
    for (int i = 0; i < 6; i++) {
        fputc('\t', out);
        put_text(out, t[i]);
    }
    fputc('\t', out);
    put_v(out, g->n, "%.0f");
    fputc('\t', out);
    put_v(out, g->wpb, "%.0f");
    fputc('\t', out);
    put_text(out, g->judged);
    fputc('\t', out);
    put_text(out, g->wide);
    fputc('\n', out);
}

void sct_md_header(FILE *out)
{
    fputs("| Variant | Config | Op | Requests | Sectors | Wavefronts | L1 hits | L2 requests "
          "| L2 sectors | DRAM sectors | L1 util | Lab | Agree |\n"
          "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n", out);
}

/* "pred / meas" with an optional lower or upper bound of the prediction. */
static void md_pair(FILE *out, double pred, double lo, double hi, double meas, const char *fmt)
{
    fputs(" | ", out);
    if (isnan(lo)) {
        put_v(out, pred, fmt);
    } else {
        put_v(out, lo, fmt);
        if (!isnan(hi) && hi != lo) {
            fputs("..", out);
            put_v(out, hi, fmt);
        }
    }
    fputs(" / ", out);
    put_v(out, meas, fmt);
}

static void gen_md(FILE *out, const sct_row *g)
{
    fprintf(out, "| %s | %s | %s", g->variant, g->config, g->op);
    md_pair(out, g->p[SCT_REQ], NAN, NAN, g->m[SCT_REQ], "%.0f");
    md_pair(out, g->p[SCT_SEC], NAN, NAN, g->m[SCT_SEC], "%.0f");
    md_pair(out, g->p[SCT_WF], NAN, NAN, g->m[SCT_WF], "%.0f");
    md_pair(out, g->p[SCT_HITS], g->p[SCT_HITS], g->p[SCT_HITS_MAX], g->m[SCT_HITS], "%.0f");
    md_pair(out, g->p[SCT_L2REQ], g->p[SCT_L2REQ_MIN], g->p[SCT_L2REQ], g->m[SCT_L2REQ], "%.0f");
    md_pair(out, g->p[SCT_L2SEC], g->p[SCT_L2SEC_MIN], g->p[SCT_L2SEC], g->m[SCT_L2SEC], "%.0f");
    md_pair(out, g->p[SCT_DRAM], NAN, NAN, g->m[SCT_DRAM], "%.0f");
    md_pair(out, g->p[SCT_L1U], NAN, NAN, g->m[SCT_L1U], "%.1f");
    fputs(" | ", out);
    if (strcmp(g->lab, "-"))
        fprintf(out, "%s: %s", g->lab, g->lab_vs_model);
    else
        fputs("-", out);
    if (!strcmp(g->agree, "yes") || !strcmp(g->agree, "-"))   /* "-": nothing judged */
        fprintf(out, " | %s |\n", g->agree);
    else
        fprintf(out, " | **no** (%s) |\n", g->mismatch);
}

void sct_put(FILE *out, const sct_row *g, int markdown)
{
    if (markdown)
        gen_md(out, g);
    else
        gen_tsv(out, g);
}

/* The predicted and measured quantities of one op, side by side. */
void sct_fill(sct_row *g, const sf_prediction *pr, const sf_measured *meas, int op)
{
    const sf_counts *c = &pr->op[op];
    g->p[SCT_REQ] = c->requests;
    g->p[SCT_SEC] = c->sectors;
    g->p[SCT_WF] = c->wavefronts;
    g->p[SCT_HITS] = c->hits;
    g->p[SCT_HITS_MAX] = c->hits_max;
    g->p[SCT_L2REQ] = c->l2_requests;
    g->p[SCT_L2REQ_MIN] = c->l2_requests_min;
    g->p[SCT_L2SEC] = c->l2_sectors;
    g->p[SCT_L2SEC_MIN] = c->l2_sectors_min;
    g->p[SCT_DRAM] = op == SF_LD ? pr->dram_read_sectors : pr->dram_write_sectors;
    g->p[SCT_BLOCKS] = (double)pr->blocks;
    g->m[SCT_REQ] = meas->v[SFM_REQUESTS][op];
    g->m[SCT_INSTR] = meas->v[SFM_INSTRUCTIONS][op];
    g->m[SCT_SEC] = meas->v[SFM_SECTORS][op];
    g->m[SCT_WF] = meas->v[SFM_WAVEFRONTS][op];
    g->m[SCT_DWF] = meas->v[SFM_DATA_WAVEFRONTS][op];
    g->m[SCT_HITS] = meas->v[SFM_HITS][op];
    g->m[SCT_L2REQ] = meas->v[SFM_L2_REQUESTS][op];
    g->m[SCT_L2SEC] = meas->v[SFM_L2_SECTORS][op];
    g->m[SCT_DRAM] = meas->v[SFM_DRAM][op];
    g->m[SCT_BLOCKS] = meas->v[SFM_GRID][0];
    g->m[SCT_TIME] = meas->v[SFM_TIME][0];
    sct_derive(g, c->bytes);
}

int sct_config_value(const char *config, const char *key, uint64_t *out)
{
    const size_t kl = strlen(key);
    for (const char *p = config; p && *p; p++) {
        if ((p == config || strchr(" ,;\t", p[-1])) && !strncmp(p, key, kl) && p[kl] == '=') {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(p + kl + 1, &end, 10);
            if (errno || end == p + kl + 1 || (*end && !strchr(" ,;\t", *end)))
                return -1;
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* A kernel name as ncu printed it, without a signature: "copy_stride(int*, ...)". */
void sct_base_name(const char *k, char *out, size_t len)
{
    size_t n = strcspn(k, "(");
    while (n > 0 && k[n - 1] == ' ')
        n--;
    snprintf(out, len, "%.*s", (int)n, k);
}

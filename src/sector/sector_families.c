/*
 * sector_families.c - the family-independent half of sector_families.h
 * besides the simulator (sector_sim.c): the default parameters, finding a
 * family's model through the registry (family.h), the lab figures'
 * machinery, the list of ncu metrics, and the judging of a launch.  One row
 * of the model beside the lab's figures (sf_lab_row) runs the simulator:
 * it is sector_lab.c, above sector_sim.c, which reads this file.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_families.h"
#include "family.h"
#include "sbuf.h"
#include "sector_family.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t sf_model_l2_bytes(double device_l2, uint64_t fallback)
{
    if (!(device_l2 >= 256 && device_l2 <= 1099511627776.0 && device_l2 == floor(device_l2)))
        return fallback;
    return (uint64_t)device_l2 / 2;
}

void sf_params_default(sf_params *p)
{
    memset(p, 0, sizeof *p);
    p->n = SF_N_DEFAULT;
    p->wpb = 4;
    p->cfg = 1;
    p->seed = SF_SEED_DEFAULT;
    p->sms = 132;
    p->blocks_per_sm = 16;
    p->n0 = 32;
    p->n1 = 1;
    p->radius = 1;
    p->granule_bytes = 64;
    p->l2_bytes = 25ull * 1024 * 1024;
}

const struct fam_model *sf_model(const char *family)
{
    const fam_entry *e = family ? fam_lookup(family) : NULL;
    return e ? e->model : NULL;
}

const char *sf_family_list(char *buf, size_t len, int all)
{
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (const fam_entry *e = fam_registry; e->name && len; e++)
        if (e->model && (all || e->model->nvariants)) {
            int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", e->name);
            if (w < 0 || (size_t)w >= len - used) {
                buf[used] = 0;   /* whole names only */
                break;
            }
            used += (size_t)w;
        }
    return buf;
}

const char *sf_family_name(const sf_variant *v)
{
    return v && v->model ? v->model->name : "?";
}

const char *sf_cfg_name(sf_cfg c)
{
    switch (c) {
    case SF_CFG_STRIDE: return "stride";
    case SF_CFG_BATCH: return "batch";
    case SF_CFG_OFFSET: return "offset";
    default: return "";
    }
}

const sf_variant *sf_find(const char *family, const char *variant)
{
    const struct fam_model *m = sf_model(family);
    for (size_t i = 0; m && variant && i < m->nvariants; i++)
        if (!strcmp(m->variants[i].name, variant))
            return &m->variants[i];
    return NULL;
}

/* ------------------------------------------------------------ lab figures */

static const char *const qnames[SFQ_NQUANTITIES] = {
    "sectors/request", "wavefronts/request", "L2 requests/request", "DRAM sectors/request",
    "sectors", "L1 hits", "L1 hit rate %", "L2 requests", "L1 bus utilization %",
    "DRAM bus utilization %", "elements/request",
};

const char *sf_quantity_name(sf_quantity q)
{
    return (unsigned)q < SFQ_NQUANTITIES ? qnames[q] : "?";
}

double sf_quantity_value(const sf_prediction *pr, sf_op op, sf_quantity q)
{
    const sf_counts *k = &pr->op[op];
    const double dram = op == SF_LD ? pr->dram_read_sectors : pr->dram_write_sectors;
    const double r = k->requests;
    switch (q) {
    case SFQ_SECTORS_PER_REQ: return r > 0 ? k->sectors / r : NAN;
    case SFQ_WAVEFRONTS_PER_REQ: return r > 0 ? k->wavefronts / r : NAN;
    case SFQ_L2_REQ_PER_REQ: return r > 0 ? k->l2_requests / r : NAN;
    case SFQ_DRAM_PER_REQ: return r > 0 ? dram / r : NAN;
    case SFQ_SECTORS: return k->sectors;
    case SFQ_HITS: return k->hits;
    case SFQ_HIT_PCT: return k->sectors > 0 ? 100 * k->hits / k->sectors : NAN;
    case SFQ_L2_REQ: return k->l2_requests;
    case SFQ_L1_UTIL_PCT: return k->sectors > 0 ? 100 * k->bytes / (32 * k->sectors) : NAN;
    case SFQ_DRAM_UTIL_PCT: return dram > 0 ? 100 * k->bytes / (32 * dram) : NAN;
    case SFQ_ELEMS_PER_REQ: return r > 0 ? k->bytes / 4 / r : NAN;
    default: return NAN;
    }
}

int sf_lab_matches(const sf_lab *e, const sf_variant *v, const sf_params *p, sf_op op)
{
    const struct fam_model *m = v->model;
    int own = 0;   /* one of the family's figures */
    for (size_t i = 0; m && i < m->nlabs && !own; i++)
        own = &m->labs[i] == e;
    if (!own || e->op != op)
        return 0;
    const size_t L = strlen(e->variant);
    if (L && e->variant[L - 1] == '*') {
        if (strncmp(e->variant, v->name, L - 1))
            return 0;
    } else if (strcmp(e->variant, v->name)) {
        return 0;
    }
    if (e->cfg == SF_LAB_MISALIGNED) {
        if (v->cfg == SF_CFG_NONE || p->cfg % 32 == 0)
            return 0;
    } else if (e->cfg >= 0) {
        if (v->cfg == SF_CFG_NONE || p->cfg != (uint64_t)e->cfg)
            return 0;
    }
    if (e->n0) {   /* a figure of one 2-D geometry, at radius 1 */
        if (p->n0 != e->n0 || p->n1 != e->n1 || p->radius != 1)
            return 0;
        if (e->lead_pad >= 0 && (!!p->lead_pad) != e->lead_pad)
            return 0;
        if (e->pad_ld >= 0 && (!!p->pad_ld) != e->pad_ld)
            return 0;
    }
    /* DRAM figures are for the H100's default 64 B granule (lab 000) */
    if ((e->q == SFQ_DRAM_PER_REQ || e->q == SFQ_DRAM_UTIL_PCT) && p->granule_bytes != 64)
        return 0;
    return 1;
}

int sf_lab_agrees(const sf_lab *e, double model)
{
    if (isnan(model))
        return 0;
    /* percentages are quoted to 0.1 (44.4 for 4/9) */
    const double tol = e->q == SFQ_HIT_PCT || e->q == SFQ_L1_UTIL_PCT ||
                       e->q == SFQ_DRAM_UTIL_PCT ? 0.05 : 1e-9;
    return fabs(model - e->value) <= tol;
}

void sf_lab_params(const sf_lab *e, const sf_variant *v, const sf_params *base, sf_params *out)
{
    if (base)
        *out = *base;
    else
        sf_params_default(out);
    if (v->cfg != SF_CFG_NONE && !base)
        out->cfg = e->cfg >= 0 ? (uint64_t)e->cfg : 1;
    if (v->model->lab_params)
        v->model->lab_params(e, v, out);
}

/* ------------------------------------------------------------ ncu metrics */

#define FAM3 SF_MSET_FULL
#define ALL4 (SF_MSET_FULL | SF_MSET_LOADS)

/* What ncu is asked for (issue 37: fewer metrics, fewer replay passes): the
 * counters sf_judge judges (grid, L1 requests, sectors and load hits, L2
 * requests and sectors, DRAM reads), those the notes and the report read
 * (load wavefronts: report_labs' wavefronts/request and the "not judged"
 * note; store hits and DRAM writes: their notes and the st rows' columns;
 * the time: time_ns and the utilisations).  shown_only (never asked, read
 * when a log has them): the block size (no column), the instructions, the
 * data-stage wavefronts (instructions_meas, data_wavefronts_meas) and the
 * stores' wavefronts: shown, neither judged nor read by the report, the
 * model check or a doc's figure.  The stores' wavefronts alone cost a replay
 * pass: with them the 16 metrics took 5 passes a launch on an H200, without
 * them 4 (tests/device/ncu_passes.sh; loads' or stores' metrics alone: 3). */
const sf_metric sf_metrics[] = {
    { "gpu__time_duration.sum", SFM_TIME, -1, ALL4, 1, 1, 0 },
    { "launch__grid_size", SFM_GRID, -1, FAM3, 1, 1, 0 },
    { "launch__block_size", SFM_BLOCK, -1, FAM3, 1, 1, 1 },
    { "smsp__inst_executed_op_global_ld.sum", SFM_INSTRUCTIONS, SF_LD, FAM3, 0, 0, 1 },
    { "smsp__inst_executed_op_global_st.sum", SFM_INSTRUCTIONS, SF_ST, FAM3, 0, 0, 1 },
    { "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", SFM_REQUESTS, SF_LD, ALL4, 0, 1, 0 },
    { "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", SFM_REQUESTS, SF_ST, FAM3, 0, 0, 0 },
    { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", SFM_SECTORS, SF_LD, ALL4, 0, 1, 0 },
    { "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", SFM_SECTORS, SF_ST, FAM3, 0, 0, 0 },
    { "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum", SFM_WAVEFRONTS, SF_LD, FAM3, 0, 0, 0 },
    { "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_st.sum", SFM_WAVEFRONTS, SF_ST, FAM3, 0, 0, 1 },
    { "l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum", SFM_DATA_WAVEFRONTS, SF_LD, FAM3, 0, 0, 1 },
    { "l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_write.sum", SFM_DATA_WAVEFRONTS, SF_ST, FAM3, 0, 0, 1 },
    { "l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum", SFM_DATA_WAVEFRONTS, SF_LD, FAM3, 0, 0, 1 },
    { "l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_write.sum", SFM_DATA_WAVEFRONTS, SF_ST, FAM3, 0, 0, 1 },
    { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", SFM_HITS, SF_LD, FAM3, 0, 0, 0 },
    { "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum", SFM_HITS, SF_ST, FAM3, 0, 0, 0 },
    { "lts__t_requests_srcunit_tex_op_read.sum", SFM_L2_REQUESTS, SF_LD, FAM3, 0, 0, 0 },
    { "lts__t_requests_srcunit_tex_op_write.sum", SFM_L2_REQUESTS, SF_ST, FAM3, 0, 0, 0 },
    { "lts__t_sectors_srcunit_tex_op_read.sum", SFM_L2_SECTORS, SF_LD, ALL4, 0, 1, 0 },
    { "lts__t_sectors_srcunit_tex_op_write.sum", SFM_L2_SECTORS, SF_ST, FAM3, 0, 0, 0 },
    { "dram__sectors_read.sum", SFM_DRAM, SF_LD, ALL4, 0, 1, 0 },
    { "dram__sectors_write.sum", SFM_DRAM, SF_ST, FAM3, 0, 0, 0 },
};
const size_t sf_nmetrics = sizeof sf_metrics / sizeof sf_metrics[0];

/* ------------------------------------------------------------ judging */

void sf_measured_clear(sf_measured *m)
{
    for (int i = 0; i < SFM_NMEASURES; i++)
        m->v[i][0] = m->v[i][1] = NAN;
}

static const char *const measure_cols[SFM_NMEASURES] = {
    "time_ns", "blocks", "block_threads", "instructions", "l1_requests", "l1_sectors",
    "wavefronts", "data_wavefronts", "l1_hits", "l2_requests", "l2_sectors", "dram_sectors",
};

const char *sf_measure_column(sf_measure m)
{
    return (unsigned)m < SFM_NMEASURES ? measure_cols[m] : "?";
}

static void judge_range(sf_verdict *o, sf_measure q, double meas, double lo, double hi)
{
    if (isnan(meas))
        return;
    o->judged[q] = 1;
    o->ok[q] = meas >= lo - 1e-9 && meas <= hi + 1e-9;
}

/* A judged bracket of the model's [lo, hi] around its point prediction:
 * wide when hi - lo, less the measurement tolerance (2 base), passes
 * SF_BOUND_MAX_FRAC of the point (any width when the point is 0). */
static void judge_width(sf_verdict *o, sf_measure q, double point, double lo, double hi, double base)
{
    if (!o->judged[q])
        return;
    const double width = hi - lo - 2 * base;
    o->wide[q] = width > 0.5 && width > SF_BOUND_MAX_FRAC * fabs(point);
}

/* The comma-separated names of the measures whose flag is set, or "-". */
static void measure_list(const int *flag, char *out, size_t len)
{
    out[0] = 0;
    for (int q = 0; q < SFM_NMEASURES; q++)
        if (flag[q])
            sb_cat(out, len, "%s%s", out[0] ? "," : "", measure_cols[q]);
    if (!out[0])
        snprintf(out, len, "-");
}

void sf_judge(const sf_prediction *pr, sf_op op, const sf_measured *m, sf_verdict *o)
{
    memset(o, 0, sizeof *o);
    const sf_counts *k = &pr->op[op];
    /* L1 hits and L2 traffic: within 0.1% of the sectors (a 256 KB L1 shared by
     * 64 warps evicts a line now and then), more for the random gather */
    const double base = SF_MEAS_TOL_FRAC * k->sectors;
    const double tol = (pr->hit_tol_frac > SF_MEAS_TOL_FRAC ? pr->hit_tol_frac : SF_MEAS_TOL_FRAC) * k->sectors;
    const double dram = op == SF_LD ? pr->dram_read_sectors : pr->dram_write_sectors;
    judge_range(o, SFM_REQUESTS, m->v[SFM_REQUESTS][op], k->requests, k->requests);
    judge_range(o, SFM_SECTORS, m->v[SFM_SECTORS][op], k->sectors, k->sectors);
    /* wavefronts: shown, not judged.  Lab 000's rule (a wavefront serves up to
     * four 128-byte lines) fits its figures, not the H100's counter, which
     * takes more wavefronts per request as soon as a request spans three or
     * more lines (data/reference/h100/sectors_copy.tsv) */
    if (!isnan(m->v[SFM_WAVEFRONTS][op]) && fabs(m->v[SFM_WAVEFRONTS][op] - k->wavefronts) > 0.5)
        sb_cat(o->note, sizeof o->note, "%swavefronts not judged: %.2f per request measured, %.2f by "
            "lab 000's rule", o->note[0] ? "; " : "", m->v[SFM_WAVEFRONTS][op] / k->requests,
            k->wavefronts / k->requests);
    if (op == SF_LD) {
        /* the in-block hits, a point: neighbouring blocks never shared an
         * SM's L1 in time (B2; hits_max is shown, not judged) */
        judge_range(o, SFM_HITS, m->v[SFM_HITS][op], k->hits - tol, k->hits + tol);
        judge_width(o, SFM_HITS, k->hits, k->hits - tol, k->hits + tol, base);
    } else if (!isnan(m->v[SFM_HITS][op]) && m->v[SFM_HITS][op] != k->hits) {
        sb_cat(o->note, sizeof o->note, "%sstore hits not judged: %.0f measured (the H100 counts a "
            "store to a line an earlier store allocated as a hit for every sector)",
            o->note[0] ? "; " : "", m->v[SFM_HITS][op]);
    }
    /* B2: no neighbour's reuse (l2_requests_min is shown, not judged); the
     * fewest requests are the merged ones (one a line per block) */
    const double l2lo = k->l2_requests_merged < k->l2_requests ? k->l2_requests_merged : k->l2_requests;
    judge_range(o, SFM_L2_REQUESTS, m->v[SFM_L2_REQUESTS][op], l2lo - tol, k->l2_requests + tol);
    judge_width(o, SFM_L2_REQUESTS, k->l2_requests, l2lo - tol, k->l2_requests + tol, base);
    if (!isnan(m->v[SFM_L2_REQUESTS][op]) && k->l2_requests_merged < k->l2_requests_min)
        sb_cat(o->note, sizeof o->note, "%sL2 requests %.0f if every miss to a line a warp of the "
            "block had just asked for joins that request, %.0f if none does",
            o->note[0] ? "; " : "", k->l2_requests_merged, k->l2_requests);
    const double s2lo = op == SF_ST && k->l2_sectors_merged < k->l2_sectors ? k->l2_sectors_merged
                                                                           : k->l2_sectors;
    judge_range(o, SFM_L2_SECTORS, m->v[SFM_L2_SECTORS][op], s2lo - tol, k->l2_sectors + tol);
    judge_width(o, SFM_L2_SECTORS, k->l2_sectors, s2lo - tol, k->l2_sectors + tol, base);
    judge_range(o, SFM_GRID, m->v[SFM_GRID][0], (double)pr->blocks, (double)pr->blocks);
    const double md = m->v[SFM_DRAM][op];
    if (!isnan(md)) {
        if (op == SF_ST)
            sb_cat(o->note, sizeof o->note, "%sDRAM writes not judged: the L2 is write-back and "
                "writes a dirty line when it evicts it, after the kernel for those still in it",
                o->note[0] ? "; " : "");
        else if (dram < SF_DRAM_MIN_SECTORS)
            sb_cat(o->note, sizeof o->note, "%sDRAM not judged below %.0f sectors: instruction and "
                "parameter fetches (about 100 sectors) dominate", o->note[0] ? "; " : "",
                SF_DRAM_MIN_SECTORS);
        else {
            judge_range(o, SFM_DRAM, md, dram * (1 - SF_DRAM_TOL),
                        (dram + pr->dram_partial_sectors) * (1 + SF_DRAM_TOL));
            judge_width(o, SFM_DRAM, dram, dram, dram + pr->dram_partial_sectors, 0);
        }
    }
    if (pr->dram_partial_sectors > 0)
        sb_cat(o->note, sizeof o->note, "%s%.0f sectors written back only partly written: an L2 "
            "that reads them from DRAM first adds as many DRAM reads", o->note[0] ? "; " : "",
            pr->dram_partial_sectors);
    if (k->hits_max > k->hits)
        sb_cat(o->note, sizeof o->note, "%sL1 hits %.0f inside blocks (judged), %.0f if neighbouring "
            "blocks had shared an SM's L1 (shown, not judged: docs/sectors.md B2)", o->note[0] ? "; " : "",
            k->hits, k->hits_max);
    if (pr->hit_tol_frac > SF_MEAS_TOL_FRAC)
        sb_cat(o->note, sizeof o->note, "%shits and L2 judged within %.1f %% of the sectors: random "
            "blocks also reuse each other's sectors in an SM's L1", o->note[0] ? "; " : "",
            100 * pr->hit_tol_frac);
    if (op == SF_ST && k->hits > 0)
        sb_cat(o->note, sizeof o->note, "%sstore hits assume L1 write-allocate (sectors a store "
            "wrote are found by the next store)", o->note[0] ? "; " : "");
    static const sf_measure need[] = { SFM_REQUESTS, SFM_SECTORS, SFM_WAVEFRONTS, SFM_HITS,
                                       SFM_L2_REQUESTS, SFM_L2_SECTORS };
    char miss[160] = "";
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (isnan(m->v[need[i]][op]))
            sb_cat(miss, sizeof miss, "%s%s", miss[0] ? ", " : "", measure_cols[need[i]]);
    if (miss[0])
        sb_cat(o->note, sizeof o->note, "%snot measured: %s", o->note[0] ? "; " : "", miss);
    o->agree = o->judged[SFM_REQUESTS] && o->judged[SFM_SECTORS];
    for (int q = 0; q < SFM_NMEASURES; q++)
        if (o->judged[q] && !o->ok[q]) {
            o->agree = 0;
            sb_cat(o->mismatch, sizeof o->mismatch, "%s%s", o->mismatch[0] ? "," : "",
                measure_cols[q]);
        }
    if (!o->judged[SFM_REQUESTS] || !o->judged[SFM_SECTORS])
        sb_cat(o->mismatch, sizeof o->mismatch, "%snot measured", o->mismatch[0] ? "," : "");
    if (!o->mismatch[0])
        snprintf(o->mismatch, sizeof o->mismatch, "-");
    measure_list(o->judged, o->judged_list, sizeof o->judged_list);
    measure_list(o->wide, o->wide_list, sizeof o->wide_list);
}

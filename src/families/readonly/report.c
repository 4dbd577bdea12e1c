/*
 * report.c - readonly's part of the report (report_family.h): its summaries
 * at every WPB are the report's reference set (its N is the set's), with
 * occupancy sweeps and Little's law worded for its coalesced variants; its
 * tables and charts are the report's common ones.
 */
#include "report_family.h"

static const char *const SWEEPS[] = {"baseline", "float4", "nondiverging", "random_access", NULL};
static const char *const LITTLES[] = {"baseline", "float4", NULL};

const struct fam_report fam_report_readonly = {
    .doc = "docs/readonly.md",
    .sets_n = 1,
    .all_wpbs = 1,
    .sweep_variants = SWEEPS,
    .sweep_wpb = 4,
    .littles_variants = LITTLES,
};

/* test_names.c - the naming contract, both ways. */
#include "check.h"
#include "names.h"

int main(void)
{
    char b[128], e[32], v[32], l[32], n[32];
    unsigned w;
    CHECK(names_summary(b, sizeof b, "readonly", "1e8", 4) == 0);  CHECK(!strcmp(b, "readonly_1e8_wpb4.tsv"));
    CHECK(names_log(b, sizeof b, "readonly", "random_access", "", 16) == 0); CHECK(!strcmp(b, "readonly_random_access_16.bin"));
    CHECK(names_log(b, sizeof b, "copy", "stride", "s8", 4) == 0);  CHECK(!strcmp(b, "copy_stride-s8_4.bin"));
    CHECK(names_sweep(b, sizeof b, "readonly", "float4", 4) == 0);  CHECK(!strcmp(b, "sweep_readonly_float4_4.tsv"));
    CHECK(names_sectors(b, sizeof b, "readonly") == 0);             CHECK(!strcmp(b, "sectors_readonly.tsv"));
    CHECK(names_latency_stats(b, sizeof b, "1e8", 4) == 0);         CHECK(!strcmp(b, "latency_stats_1e8_wpb4.tsv"));
    CHECK(names_logdir(b, sizeof b, "1e6") == 0);                   CHECK(!strcmp(b, "logs_1e6"));
    /* refused parts */
    CHECK(names_summary(b, sizeof b, "read_only", "1e8", 4) == -1);
    CHECK(names_summary(b, sizeof b, "readonly", "1e8", 0) == -1);
    CHECK(names_log(b, sizeof b, "copy", "a/b", "", 4) == -1);
    CHECK(names_log(b, sizeof b, "copy", "x", "s-8", 4) == -1);
    CHECK(names_summary(b, 10, "readonly", "1e8", 4) == -1);        /* does not fit */
    /* file names from names a log gives (issue 35): one component, never a
     * way out of the folder, whatever the name says */
    CHECK(names_from_name(b, sizeof b, "latency_", "gather", ".svg") == 0); CHECK(!strcmp(b, "latency_gather.svg"));
    CHECK(names_from_name(b, sizeof b, "", "v1.2-x_Y", "") == 0);         CHECK(!strcmp(b, "v1.2-x_Y"));
    CHECK(names_from_name(b, sizeof b, "w_", "thirty_one_characters_long_xxxx", ".gp") == 0);
    static const char *const hostile[] = {"/../../../../x", "..", ".", "../x", "a/b", "/", "", ".hidden",
                                          "x\nsystem(\"touch PWNED\")", "a'b", "a\\b", "a b", "$(id)",
                                          "thirty_two_characters_long_xxxxx"};
    for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
        snprintf(b, sizeof b, "junk");
        CHECK(names_from_name(b, sizeof b, "latency_", hostile[i], ".svg") == -1);
        CHECK(!strcmp(b, ""));
        CHECK(names_from_name(b, sizeof b, "", hostile[i], "") == -1);
    }
    CHECK(names_from_name(b, sizeof b, NULL, "a", "") == -1);
    CHECK(names_from_name(b, sizeof b, "../", "a", "") == -1);           /* the caller's parts too */
    CHECK(names_from_name(b, sizeof b, ".", "a", "") == -1);              /* never hidden */
    CHECK(names_from_name(b, sizeof b, "x", "a", "/..") == -1);
    CHECK(names_from_name(b, 8, "latency_", "gather", ".svg") == -1);    /* does not fit */
    CHECK(!strcmp(b, ""));
    /* parsing */
    CHECK(names_parse("readonly_1e8_wpb4.tsv", e, v, l, n, 32, &w) == NAMES_SUMMARY);
    CHECK(!strcmp(e, "readonly") && !strcmp(n, "1e8") && w == 4);
    CHECK(names_parse("readonly_random_access_16.bin", e, v, l, n, 32, &w) == NAMES_LOG);
    CHECK(!strcmp(e, "readonly") && !strcmp(v, "random_access") && !*l && w == 16);
    CHECK(names_parse("copy_stride-s8_4.bin", e, v, l, n, 32, &w) == NAMES_LOG);
    CHECK(!strcmp(v, "stride") && !strcmp(l, "s8"));
    CHECK(names_parse("sweep_readonly_float4_4.tsv", e, v, l, n, 32, &w) == NAMES_SWEEP);
    CHECK(!strcmp(e, "readonly") && !strcmp(v, "float4") && w == 4);
    CHECK(names_parse("sweep_readonly_random_access_4.tsv", e, v, l, n, 32, &w) == NAMES_SWEEP);
    CHECK(!strcmp(v, "random_access"));
    CHECK(names_parse("sectors_copy.tsv", e, v, l, n, 32, &w) == NAMES_SECTORS);
    CHECK(!strcmp(e, "copy"));
    CHECK(names_parse("latency_stats_1e8_wpb4.tsv", e, v, l, n, 32, &w) == NAMES_LATENCY_STATS);
    CHECK(!strcmp(n, "1e8") && w == 4);
    CHECK(names_parse("latency_ca.tsv", e, v, l, n, 32, &w) == NAMES_LADDER);
    CHECK(names_parse("overhead.tsv", e, v, l, n, 32, &w) == NAMES_FIXED);
    CHECK(names_parse("sass_readonly.txt", e, v, l, n, 32, &w) == NAMES_SASS);
    CHECK(names_parse("readonly_baseline_4.txt", e, v, l, n, 32, &w) == NAMES_UNKNOWN);
    CHECK(names_parse("notes.md", e, v, l, n, 32, &w) == NAMES_UNKNOWN);
    CHECK(names_parse("readonly_1e8_wpbx.tsv", e, v, l, n, 32, &w) == NAMES_UNKNOWN);
    CHECK(names_gpu(b, sizeof b, 0, "GPU-1ab6f806-59e0-1d99-da3f-a7d19c88934d", "NVIDIA H100 80GB HBM3") == 0);
    CHECK(!strcmp(b, "gpu0-1ab6f806-nvidia-h100-80gb-hbm3"));
    CHECK(names_gpu(b, sizeof b, 3, "deadbeefcafe", "NVIDIA  H200 ") == 0);
    CHECK(!strcmp(b, "gpu3-deadbeef-nvidia-h200"));
    CHECK(names_gpu(b, sizeof b, 0, "GPU-zz", "x") == -1);
    CHECK(names_gpu(b, sizeof b, 0, "GPU-12345678", "!!") == -1);
    /* folders, raw ncu output, names of other layouts */
    CHECK(names_parse("logs_1e6", e, v, l, n, 32, &w) == NAMES_LOGDIR);
    CHECK(!strcmp(n, "1e6") && w == 0);
    CHECK(names_parse("logs_", e, v, l, n, 32, &w) == NAMES_UNKNOWN);
    CHECK(names_parse("legacy", e, v, l, n, 32, &w) == NAMES_LEGACY);
    CHECK(names_parse("readonly_strided_8.csv", e, v, l, n, 32, &w) == NAMES_NCU);
    CHECK(!strcmp(e, "readonly") && !strcmp(l, "strided_8"));
    CHECK(names_parse("stencil.csv.gz", e, v, l, n, 32, &w) == NAMES_NCU);
    CHECK(!strcmp(e, "stencil") && !strcmp(l, ""));
    CHECK(names_parse(".csv.gz", e, v, l, n, 32, &w) == NAMES_UNKNOWN);
    CHECK(names_parse("no such family.csv.gz", e, v, l, n, 32, &w) == NAMES_UNKNOWN);
    CHECK(names_parse("nvidia_smi.csv", e, v, l, n, 32, &w) == NAMES_FIXED);
    CHECK(names_parse("sass_readonly_profile_baseline.txt", e, v, l, n, 32, &w) == NAMES_UNKNOWN);
    CHECK(names_parse("sectors.tsv", e, v, l, n, 32, &w) == NAMES_UNKNOWN);
    CHECK(names_parse("sectors_read_only.tsv", NULL, NULL, NULL, NULL, 0, NULL) == NAMES_UNKNOWN);
    CHECK(!strcmp(names_kind_name(NAMES_SWEEP), "sweep"));
    CHECK(!strcmp(names_kind_name(NAMES_LOGDIR), "logdir"));
    /* which command makes a missing file */
    CHECK(!strcmp(names_reference_section("readonly_1e8_wpb4.tsv"), "summaries"));
    CHECK(!strcmp(names_reference_section("latency_stats_1e8_wpb4.tsv"), "summaries"));
    CHECK(!strcmp(names_reference_section("logs_1e6"), "logs"));
    CHECK(!strcmp(names_reference_section("latency_cg.tsv"), "latency"));
    CHECK(!strcmp(names_reference_section("nvidia_smi.csv"), "device"));
    CHECK(!strcmp(names_reference_section("sampling.tsv"), "sampling"));
    CHECK(names_reference_section("sectors_readonly.tsv") == NULL);
    CHECK(names_command(b, sizeof b, "OUT", "overhead.tsv") == 0);
    CHECK(!strcmp(b, "scripts/reference.sh OUT --only overhead"));
    CHECK(names_command(b, sizeof b, "OUT", "sweep_readonly_float4_4.tsv") == 0);
    CHECK_STR_HAS(b, "scripts/occupancy_profile.sh readonly_float4 4 --out OUT");
    CHECK(names_command(b, sizeof b, "OUT", "sectors_readonly.tsv") == 0);
    CHECK(!strcmp(b, "scripts/ncu_profile.sh --out OUT"));
    /* the families with a script of their own, and their files */
    CHECK(names_ncu_table(b, sizeof b, "tiling", "8192") == 0 && !strcmp(b, "tiling_ncu_8192.tsv"));
    CHECK(names_ncu_table(b, sizeof b, "til_ing", "8192") == -1);
    CHECK(names_parse("tiling_ncu_8192.tsv", e, v, l, n, 32, &w) == NAMES_NCU_TABLE);
    CHECK(!strcmp(e, "tiling") && !strcmp(n, "8192") && w == 0);
    CHECK(!strcmp(names_kind_name(NAMES_NCU_TABLE), "ncu_table"));
    CHECK(names_parse("stencil_1024x97656_wpb4.tsv", e, v, l, n, 32, &w) == NAMES_SUMMARY);
    CHECK(!strcmp(e, "stencil") && !strcmp(n, "1024x97656") && w == 4);
    CHECK(!strcmp(names_family_script("stencil"), "scripts/stencil.sh"));
    CHECK(names_family_script("readonly") == NULL && names_family_script(NULL) == NULL);
    CHECK(!strcmp(names_reference_section("tiling_8192_wpb4.tsv"), "families"));
    CHECK(!strcmp(names_reference_section("copy_1e8_wpb4.tsv"), "summaries"));
    CHECK(names_command(b, sizeof b, "OUT", "stencil_32x3125000_wpb4.tsv") == 0);
    CHECK(!strcmp(b, "scripts/stencil.sh OUT (or scripts/reference.sh OUT --only families)"));
    CHECK(names_command(b, sizeof b, "OUT", "ceiling.tsv") == 0);
    CHECK(!strcmp(b, "scripts/ceiling.sh OUT --ladder OUT/latency_ca.tsv (or scripts/reference.sh OUT --only families)"));
    /* a family's fixed file (report_family.h fixed_files) is of the contract */
    CHECK(names_parse("ceiling.tsv", e, v, l, n, 32, &w) == NAMES_FIXED && !e[0] && w == 0);
    CHECK(!strcmp(names_reference_section("ceiling.tsv"), "families"));
    CHECK(names_parse("floor.tsv", e, v, l, n, 32, &w) == NAMES_UNKNOWN);
    CHECK(!strcmp(names_family_script("tiling"), "scripts/tiling.sh"));
    CHECK(!strcmp(names_family_script("ceiling"), "scripts/ceiling.sh"));
    CHECK(names_family_script("copy") == NULL && names_family_script("nosuch") == NULL);
    CHECK(names_command(b, sizeof b, "OUT", "tiling_ncu_8192.tsv") == 0);
    CHECK(!strcmp(b, "scripts/tiling.sh OUT --ncu-only (needs Nsight Compute)"));
    CHECK(names_command(b, sizeof b, "OUT", "notes.md") == -1);
    CHECK(names_command(b, 8, "OUT", "overhead.tsv") == -1);
    return check_report("test_names");
}

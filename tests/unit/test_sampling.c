/*
 * test_sampling - which K gives the unperturbed latency and whether it has
 * converged (src/lib/sampling.c), on tables whose answers are worked by hand.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sampling.h"
#include "testtable.h"


int main(void)
{
    /* launches to pool: as many records as one launch at K = 32 */
    CHECK_EQ_U(sampling_runs(256, 32), 8);
    CHECK_EQ_U(sampling_runs(64, 32), 2);
    CHECK_EQ_U(sampling_runs(16, 32), 1);
    CHECK_EQ_U(sampling_runs(1, 32), 1);
    CHECK_EQ_U(sampling_runs(4, 0), 4);

    /* the auto search's next K: at least twice as sparse; as far as the K
     * the overhead scales to 3/4 of the bound (40 % at K = 2, bound 1 %:
     * 2 x 40 / 0.75 = 106.7, so 128); never past kmax */
    CHECK_EQ_U(sampling_next_k(2, 40.0, 1.0, 1024), 128);
    CHECK_EQ_U(sampling_next_k(2, 40.0, 1.0, 64), 64);
    CHECK_EQ_U(sampling_next_k(16, 1.2, 1.0, 1024), 32);    /* 25.6: one doubling */
    CHECK_EQ_U(sampling_next_k(16, 1.6, 1.0, 1024), 64);    /* 34.1 */
    CHECK_EQ_U(sampling_next_k(16, 3.0, 1.0, 1024), 64);    /* exactly 64 */
    CHECK_EQ_U(sampling_next_k(16, 0.5, 1.0, 1024), 32);    /* within: a plain doubling */
    CHECK_EQ_U(sampling_next_k(16, 5.0, 0.0, 1024), 32);    /* no bound: doubling */
    CHECK_EQ_U(sampling_next_k(1u << 20, 9.0, 1.0, 1u << 20), 1u << 20);

    /* the bundled H100 table (baseline's rows; its default-K row last, in
     * the old layout without label): 64 and 256 are the sparsest two;
     * p50 711 / 712: 100 (712 / 711 - 1) = 0.1406%; p95 941 / 905 - 1 =
     * 3.978%: not converged */
    tsv_table old = test_table("variant\twpb\tsample\trecords\tlat_mean_cycles\tlat_p50_cycles\tlat_p95_cycles\toverhead_pct\n"
                          "baseline\t4\t1\t3125000\t753.9\t750.0\t1064.0\t0.18\n"
                          "baseline\t4\t4\t781248\t708.4\t722.0\t974.0\t-0.04\n"
                          "baseline\t4\t64\t48828\t695.8\t712.0\t941.0\t0.12\n"
                          "baseline\t4\t256\t12204\t693.0\t711.0\t905.0\t0.10\n"
                          "baseline\t4\t32\t97656\t695.8\t712.0\t937.0\t0.02\n");
    sampling_conv c[8];
    CHECK_EQ_U(sampling_verdicts(&old, 1, c, 8), 1);
    CHECK(!strcmp(c[0].variant, "baseline"));
    CHECK_NEAR(c[0].k_hi, 256, 0);
    CHECK_NEAR(c[0].k_lo, 64, 0);
    CHECK_NEAR(c[0].p50_diff_pct, 100 * (712.0 / 711 - 1), 1e-9);
    CHECK_NEAR(c[0].p95_diff_pct, 100 * (941.0 / 905 - 1), 1e-9);
    CHECK_NEAR(c[0].runs_hi, 1, 0);
    CHECK_NEAR(c[0].p50_k1, 750, 0);
    CHECK_EQ_I(c[0].converged, 0);
    char b[2048];
    CHECK(sampling_note(c, 1, 1, b, sizeof b) == 0);
    CHECK(!strcmp(b, "Latencies fall as fewer blocks record: baseline's median is 750 cycles with every block "
                     "recorded and 711 at K = 256. The sparsest K, 256, gives the unperturbed figure: against "
                     "K = 64 its p50 and p95 agree within 1% for 0 of 1 variants (not baseline: p95 4.0% apart). "
                     "Where they are not, the figure has not converged: pool more launches. K = 1 reads higher "
                     "because every warp then also stores its 16-byte record: stores that add to the traffic the "
                     "loads queue behind, and that each warp must drain before its slot frees."));

    /* pooled launches (runs), the run's default choice labelled and left
     * out even when it is the sparsest K, a variant with one K above 1 not
     * judged: float4 p95 1000 vs 1009: 0.9% -> converged; p50 500 vs 504:
     * 0.8% */
    tsv_table t = test_table("variant\twpb\tsample\truns\trecords\tlat_p50_cycles\tlat_p95_cycles\tlabel\n"
                        "float4\t4\t1\t1\t781252\t520\t1100\tfixed\n"
                        "float4\t4\t64\t2\t24416\t504\t1009\tfixed\n"
                        "float4\t4\t256\t8\t24416\t500\t1000\tfixed\n"
                        "lonely\t4\t256\t8\t100\t10\t20\tfixed\n"
                        "float4\t4\t512\t1\t3000\t400\t900\tdefault\n");
    CHECK_EQ_U(sampling_verdicts(&t, 1, c, 8), 1);
    CHECK_NEAR(c[0].k_hi, 256, 0);
    CHECK_NEAR(c[0].runs_hi, 8, 0);
    CHECK_NEAR(c[0].p95_diff_pct, 0.9, 1e-9);
    CHECK_NEAR(c[0].p50_diff_pct, 0.8, 1e-9);
    CHECK_EQ_I(c[0].converged, 1);
    CHECK(sampling_note(c, 1, 1, b, sizeof b) == 0);
    CHECK_STR_HAS(b, "The sparsest K, 256, gives the unperturbed figure (pooled over 8 launches that recorded "
                     "other blocks): against K = 64 its p50 and p95 agree within 1% for 1 of 1 variants.");
    CHECK(!strstr(b, "not converged"));
    /* a tighter tolerance turns the same figures into "not converged" */
    CHECK_EQ_U(sampling_verdicts(&t, 0.5, c, 8), 1);
    CHECK_EQ_I(c[0].converged, 0);
    /* nothing to judge: nothing to say */
    CHECK(sampling_note(c, 0, 1, b, sizeof b) == 1);
    tsv_free(&old);
    tsv_free(&t);
    return check_report("test_sampling");
}

/* fuzz_ladder - the latency-ladder table reader and the plateau finder, as
 * plot_ladder and plateau_dram_latency_from_tsv use them. */
#include "fuzz_common.h"
#include "plateau.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_stream(data, size);
    if (!f) return 0;
    plateau_series s;
    char err[512];
    if (plateau_parse_tsv(f, "fuzz.tsv", &s, err, sizeof err) == 0) {
        plateau_level lv[PLATEAU_MAX_LEVELS];
        plateau_params pp;
        plateau_params_default(&pp);
        /* the parameters from the data too, within what plot_ladder accepts */
        if (size >= 2) {
            pp.tol = 0.01 + (data[0] % 98) / 100.0;
            pp.min_points = 1 + data[1] % 8;
        }
        int n = plateau_find(s.pts, s.n, &pp, lv, PLATEAU_MAX_LEVELS, err, sizeof err);
        if (n >= 0) plateau_label(lv, n, plateau_series_l1_bypassed(&s));
        for (int i = 0; i < n; i++) fprintf(fuzz_sink(), "%s %g\n", lv[i].name, lv[i].cycles);
        plateau_series_free(&s);
    }
    fclose(f);
    return 0;
}

/* fuzz_ladder_axis - plot_ladder's drawing loop: the x axis of a ladder
 * table's sizes (plateau_pow2_axis) and a label per tic, as the chart script
 * writes them.  The sizes come from the table reader (positive, finite,
 * rising) or, when the data is no table, as two raw doubles. */
#include "fuzz_common.h"
#include "plateau.h"

#include <math.h>

static void axis(double xmin, double xmax)
{
    int e0, e1, step;
    if (plateau_pow2_axis(xmin, xmax, &e0, &e1, &step) != 0) return;
    if (!(e1 > e0) || step < 1 || (e1 - e0) / step > 64) abort();
    int tics = 0;
    for (int e = e0; e <= e1; e += step) {
        char lab[32];
        plateau_pow2_label(lab, sizeof lab, e);
        fprintf(fuzz_sink(), "'%s' %.0f\n", lab, ldexp(1.0, e));
        if (++tics > 70) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 2 * sizeof(double)) {
        double a, b;
        memcpy(&a, data, sizeof a);
        memcpy(&b, data + sizeof a, sizeof b);
        axis(a, b);
    }
    FILE *f = fuzz_stream(data, size);
    if (!f) return 0;
    plateau_series s;
    char err[512];
    if (plateau_parse_tsv(f, "fuzz.tsv", &s, err, sizeof err) == 0) {
        if (s.n > 0) axis(s.pts[0].bytes, s.pts[s.n - 1].bytes);
        plateau_series_free(&s);
    }
    fclose(f);
    return 0;
}

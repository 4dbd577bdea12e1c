/* fuzz_sector_measured - the readonly family's measured table as
 * sector_compare MEASURED.tsv reads it (sro_compare_stream): '#' metadata,
 * the header by name, the rows, their judging and every table it prints
 * (TSV, Markdown, the families' form).  N is given (a few thousand floats,
 * from the input's size) so that each input runs the model on a small array:
 * the file's own '# n' is bounded by SF_MAX_N, whose walk is the model's
 * cost, not the reader's; every other field comes from the file. */
#include "fuzz_common.h"
#include "sector_readonly.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fuzz_stream(data, size);
    if (!in) abort();
    const int markdown = size & 1, generic = (size >> 1) & 1, strict = (size >> 2) & 1;
    const uint64_t n = 4 + size % 4096;
    const int rc = sro_compare_stream(fuzz_sink(), in, "measured.tsv", markdown, strict, generic,
                                      NULL, n, 0, 0, 0, 0, 0, (sm_reuse)(size % 3));
    if (rc != 0 && rc != 1 && rc != SECTOR_RC_DISAGREE) abort();
    fclose(in);
    return 0;
}

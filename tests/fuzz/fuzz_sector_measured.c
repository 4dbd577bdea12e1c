/* fuzz_sector_measured - the readonly family's measured table as
 * sector_compare MEASURED.tsv reads it (smt_compare): '#' metadata, the
 * header by name, the rows, their prediction by the families' model and
 * judging, TSV or Markdown.  N is given (a few thousand floats, from the
 * input's size) so that each input runs the model on a small array: the
 * file's own '# n' is bounded by SF_MAX_N, whose walk is the model's cost,
 * not the reader's; every other field comes from the file. */
#include "fuzz_common.h"
#include "sector_measured.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fuzz_stream(data, size);
    if (!in) abort();
    smt_opts o;
    memset(&o, 0, sizeof o);
    o.markdown = size & 1;
    o.strict = (size >> 2) & 1;
    o.n = 4 + size % 4096;
    const int rc = smt_compare(fuzz_sink(), in, "measured.tsv", &o);
    if (rc != 0 && rc != 1 && rc != SECTOR_RC_DISAGREE) abort();
    fclose(in);
    return 0;
}

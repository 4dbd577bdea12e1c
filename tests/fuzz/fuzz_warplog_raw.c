/* fuzz_warplog_raw - the log reader on raw file bytes: gzip framing,
 * trailer, trailing data, then everything fuzz_warplog_payload covers. */
#include "fuzz_warplog_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_log(data, size);
    return 0;
}

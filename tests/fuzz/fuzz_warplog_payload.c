/* fuzz_warplog_payload - the log reader on the decompressed payload (header
 * and chunks): the input is gzip-compressed here (stored blocks, so that the
 * fuzzer's byte changes reach the header and chunk decoder directly, as
 * they would not through deflate). */
#include "fuzz_warplog_common.h"

#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 0, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) abort();
    uLong cap = deflateBound(&zs, (uLong)size) + 64;
    uint8_t *gz = malloc(cap);
    if (!gz) abort();
    zs.next_in = (Bytef *)data;
    zs.avail_in = (uInt)size;
    zs.next_out = gz;
    zs.avail_out = (uInt)cap;
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END) abort();
    size_t len = cap - zs.avail_out;
    deflateEnd(&zs);
    fuzz_read_log(gz, len);
    free(gz);
    return 0;
}

/* test_report_glance.c - the first screen's sentences and summary.json's strings. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report_glance.h"

int main(void)
{
    char b[1024];
    /* the first sentence; a decimal point is no sentence's end */
    rc_glance_sentence("tiled32 takes 122.5 ms against naive's 181.9 ms: x1.49 faster. Bytes read, naive ...", 220, b,
                       sizeof b);
    CHECK_STR_HAS(b, "x1.49 faster.");
    CHECK(!strstr(b, "Bytes read"));
    /* too long: cut at a clause, marked */
    rc_glance_sentence("aaaa aaaa aaaa, bbbb bbbb bbbb; cccc cccc cccc cccc cccc", 30, b, sizeof b);
    CHECK(!strcmp(b, "aaaa aaaa aaaa ..."));
    /* the Little's-law finding in one short sentence, its figures kept */
    rc_glance_littles("float4 reaches 91% of peak at 4 warps per block; at the measured 1814-cycle median latency "
                      "Little's law needs 3352 GB/s x 1814 cycles / 1.98 GHz = 3.08 MB in flight across the GPU "
                      "(23.3 KB per SM), while 64 resident warps x 512 B hold 32.8 KB per SM: enough to reach the "
                      "peak (the bound is 4709 GB/s before the peak caps it), and the kernel achieves 91% of the peak.",
                      b, sizeof b);
    CHECK(!strcmp(b, "Little's law at float4's 1814-cycle median latency needs 23.3 KB in flight per SM; 64 resident "
                     "warps x 512 B hold 32.8 KB: enough to reach the peak."));
    rc_glance_littles("baseline reaches 25% of peak at 4 warps per block; at the measured 712-cycle median latency "
                      "Little's law needs 3352 GB/s x 712 cycles / 1.98 GHz = 1.21 MB in flight across the GPU (9.1 KB "
                      "per SM), while 64 resident warps x 128 B hold 8.2 KB per SM: the bound at this occupancy is "
                      "3007 GB/s, and the kernel achieves 28% of it: the load holds a slot",
                      b, sizeof b);
    CHECK_STR_HAS(b, "needs 9.1 KB in flight per SM; 64 resident warps x 128 B hold 8.2 KB: the bound at this occupancy "
                     "is 3007 GB/s, and the kernel achieves 28% of it.");
    /* not a Little's-law sentence: its first sentence */
    rc_glance_littles("Something else. More.", b, sizeof b);
    CHECK(!strcmp(b, "Something else."));
    /* JSON strings escaped */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rc_json_str(f, "a \"q\" \\ b\tc\n\x01");
    fclose(f);
    CHECK(!strcmp(buf, "\"a \\\"q\\\" \\\\ b\\tc\\n\\u0001\""));
    free(buf);
    return check_report("test_report_glance");
}

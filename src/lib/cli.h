/*
 * cli.h - parsing of the experiments' numeric arguments.  Each parser returns
 * 0 on success, or -1 with a sentence naming the argument in err.
 */
#ifndef CLI_H
#define CLI_H
#include <stddef.h>
#include <stdint.h>

/* A positive count written as digits ("100000000") or in scientific notation
 * that denotes an integer ("1e8", "2.5e3"); optional binary suffix K, M, G
 * (x1024).  Rejects zero, negatives, fractions, junk and values above max. */
int cli_parse_count(const char *name, const char *s, uint64_t max, uint64_t *out,
                    char *err, size_t errlen);

/* An unsigned integer in [lo, hi] (plain digits, or the same forms as above). */
int cli_parse_range(const char *name, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
                    char *err, size_t errlen);


/* Can a block ask for smem_bytes of dynamic shared memory on a device whose
 * opt-in limit per block is optin_bytes?  0, or -1 with a sentence in err
 * naming the device and its limits (per SM, reserved per block). */
int cli_check_smem(uint32_t smem_bytes, uint32_t optin_bytes, uint32_t per_sm_bytes,
                   uint32_t reserved_bytes, const char *device, char *err, size_t errlen);
#endif

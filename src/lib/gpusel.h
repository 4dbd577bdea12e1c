/*
 * gpusel.h - which GPUs of a host a run measures: the ordinals that
 * `nvidia-smi -L` lists, and the selection a --device option names
 * ("all", one ordinal, or a list "0,2"), checked against them.
 *
 * scripts/report.sh asks bin/fleet devices (this code) instead of reading
 * nvidia-smi's lines in bash.  Plain C11, no I/O.
 */
#ifndef WARPLAT_GPUSEL_H
#define WARPLAT_GPUSEL_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUSEL_MAX 64

/* The ordinals of the lines "GPU <k>: <name> (UUID: ...)" of text (what
 * nvidia-smi -L prints; its MIG lines, indented, are not GPUs), in the
 * order listed, into ord[max].  Returns how many (0: none), or -1 with a
 * sentence in err when an ordinal repeats or there are more than max. */
int gpusel_parse_smi_list(const char *text, int *ord, int max, char *err, size_t errlen);

/* The GPUs spec names among avail[0..n): "all" (every one, in order), or
 * ordinals separated by commas ("1", "0,2"), each listed in avail, none
 * twice.  Into out[max]; returns how many, -1 with err when spec is not of
 * that form (a usage error), -2 with err when it names a GPU the host does
 * not have or the host has none. */
int gpusel_select(const char *spec, const int *avail, int n, int *out, int max, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif

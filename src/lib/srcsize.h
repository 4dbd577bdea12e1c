/*
 * srcsize.h - the size rules of the sources (no function over 120 lines, no
 * file over 800), measured on the text of one C or CUDA file.
 *
 * A function is what this codebase writes as one: a signature that starts
 * at column 0, a line that is exactly "{" at column 0, and a closing "}" at
 * column 0.  Its length counts from the signature's first line to the
 * closing brace, both included.  Its name is the identifier before the
 * first parenthesis of the signature that is not an attribute
 * (__launch_bounds__(...), __attribute__((...))).
 */
#ifndef WARPLAT_SRCSIZE_H
#define WARPLAT_SRCSIZE_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SRCSIZE_NAME_MAX 128

typedef struct srcsize_func {
    char name[SRCSIZE_NAME_MAX]; /* "?" when the signature names none */
    size_t first_line;           /* 1-based line of the signature */
    size_t lines;                /* signature to closing brace, both included */
} srcsize_func;

/* Called once per function found, in order; ctx is passed through. */
typedef void (*srcsize_fn)(const srcsize_func *f, void *ctx);

/* Scan len bytes of text (need not end in a newline or a NUL).  Calls fn for
 * every function found (an unclosed one at the end is not reported) and
 * returns the number of lines of the text (a last line without a newline
 * counts). */
size_t srcsize_scan(const char *text, size_t len, srcsize_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif

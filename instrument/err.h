/*
 * err.h - the library's one way of reporting a failure: a sentence written
 * into a caller's buffer.  (instrument/ keeps its own copy so that the log
 * contract stays a self-contained pair of files.)
 */
#ifndef WARPLAT_ERR_H
#define WARPLAT_ERR_H
#include <stddef.h>

/* printf into err (at most errlen bytes, always terminated); a NULL err or a
 * zero errlen is allowed and writes nothing. */
void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#endif

/* sbuf.c - see sbuf.h. */
#define _POSIX_C_SOURCE 200809L
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sb_init(sb *s, char *buf, size_t len)
{
    s->buf = buf;
    s->len = len;
    s->used = 0;
    s->over = len == 0;
    if (len) buf[0] = 0;
}

void sb_add(sb *s, const char *fmt, ...)
{
    if (s->over) return;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(s->buf + s->used, s->len - s->used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= s->len - s->used) { s->over = 1; s->buf[s->used] = 0; return; }
    s->used += (size_t)n;
}

int sb_done(const sb *s) { return s->over ? -1 : 0; }

int sb_nothing(char *buf, size_t len)
{
    if (len) buf[0] = 0;
    return 1;
}

void sb_cat(char *buf, size_t len, const char *fmt, ...)
{
    const size_t used = strnlen(buf, len);
    if (used + 1 >= len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

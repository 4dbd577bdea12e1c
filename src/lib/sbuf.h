/*
 * sbuf.h - a sentence written into a caller's buffer piece by piece: each
 * sb_add appends until the buffer is full, after which the builder remembers
 * the overflow (the text so far stays terminated) and sb_done says -1.  The
 * report's findings (report_facts.c, report_families.c) are written with it.
 */
#ifndef WARPLAT_SBUF_H
#define WARPLAT_SBUF_H
#include <stddef.h>

typedef struct sb {
    char *buf;
    size_t len, used;
    int over;
} sb;

/* Start an empty sentence in buf[0..len); len 0 is overflowed at once. */
void sb_init(sb *s, char *buf, size_t len);
/* printf onto the end; once it does not fit, nothing more is added. */
void sb_add(sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 0 when everything fitted, -1 when the buffer overflowed. */
int sb_done(const sb *s);
/* printf onto the end of the terminated string already in buf[0..len),
 * cut short where the buffer ends (buf stays terminated); nothing once it
 * is full.  For notes that grow clause by clause (the sector model's). */
void sb_cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "No sentence": empties buf (when len > 0) and returns 1, the findings'
 * return value for a fact the data cannot support. */
int sb_nothing(char *buf, size_t len);
#endif

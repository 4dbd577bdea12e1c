/* lines.c - see lines.h. */
#include "lines.h"

#include <stdlib.h>

long lines_read(FILE *f, char **buf, size_t *cap, size_t max)
{
    size_t n = 0;
    int c = EOF;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n == max) return -2;
        if (n + 1 >= *cap) {
            size_t nc = *cap ? 2 * *cap : 256;
            if (nc > max + 1) nc = max + 1;
            char *p = realloc(*buf, nc);
            if (!p) return -3;
            *buf = p;
            *cap = nc;
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && n == 0) return -1;
    if (n && (*buf)[n - 1] == '\r') n--;
    if (!*buf) {
        *buf = malloc(1);
        if (!*buf) return -3;
        *cap = 1;
    }
    (*buf)[n] = 0;
    return (long)n;
}

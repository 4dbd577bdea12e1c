/*
 * lines.h - read a text file line by line with a bound on the line length,
 * so that a file of one endless line cannot make a reader allocate it whole.
 */
#ifndef WARPLAT_LINES_H
#define WARPLAT_LINES_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LINES_MAX_BYTES (1u << 20) /* a table line longer than 1 MiB is not one of ours */

/*
 * Read the next line of f into *buf (grown as needed, at most max + 1
 * bytes; free it when done), without its '\n' and a '\r' before it.
 * Returns the length, -1 at the end of the file or on a read error (check
 * ferror(f)), -2 when the line is longer than max bytes (the rest of it is
 * not read), -3 when out of memory.
 */
long lines_read(FILE *f, char **buf, size_t *cap, size_t max);

#ifdef __cplusplus
}
#endif
#endif

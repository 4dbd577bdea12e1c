/* grow.c - see grow.h. */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

void *grow_room(void *items, size_t n, size_t *cap, size_t elem, size_t first)
{
    if (n < *cap) return items;
    if (elem == 0 || *cap > SIZE_MAX / 2 / elem || first > SIZE_MAX / elem) return NULL;
    const size_t nc = *cap ? 2 * *cap : first;
    void *p = realloc(items, nc * elem);
    if (!p) return NULL;
    *cap = nc;
    return p;
}

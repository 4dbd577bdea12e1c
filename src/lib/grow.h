/*
 * grow.h - room for one more element in an array that doubles as it fills:
 * the one home of the realloc step the readers (sass, sweep) each wrote.
 */
#ifndef WARPLAT_GROW_H
#define WARPLAT_GROW_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * items holds n elements of elem bytes in room for *cap.  When n == *cap,
 * reallocates to twice *cap (first elements the first time) and sets *cap.
 * Returns the array (moved or not) with room for element n, or NULL when out
 * of memory (items and *cap unchanged: the caller still owns items).
 */
void *grow_room(void *items, size_t n, size_t *cap, size_t elem, size_t first);

#ifdef __cplusplus
}
#endif
#endif

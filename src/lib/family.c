/* family.c - lookups in the generated registry of families (family.h). */
#include <string.h>

#include "family.h"

size_t fam_count(void)
{
    size_t n = 0;
    while (fam_registry[n].name) n++;
    return n;
}

const fam_entry *fam_lookup(const char *name)
{
    if (!name) return NULL;
    for (const fam_entry *e = fam_registry; e->name; e++)
        if (!strcmp(e->name, name)) return e;
    return NULL;
}

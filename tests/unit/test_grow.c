/* test_grow.c - the doubling array step. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "grow.h"

int main(void)
{
    size_t cap = 0;
    int *a = NULL;
    /* the first step allocates `first` elements */
    a = grow_room(a, 0, &cap, sizeof *a, 4);
    CHECK(a != NULL);
    CHECK_EQ_U(cap, 4);
    for (int i = 0; i < 4; i++) a[i] = i + 1;
    /* room left: the same array, cap unchanged */
    int *same = grow_room(a, 3, &cap, sizeof *a, 4);
    CHECK(same == a);
    CHECK_EQ_U(cap, 4);
    /* full: twice the room, the elements kept */
    a = grow_room(a, 4, &cap, sizeof *a, 4);
    CHECK(a != NULL);
    CHECK_EQ_U(cap, 8);
    CHECK(a && a[0] == 1 && a[3] == 4);
    /* a size that overflows: NULL, cap unchanged, the array still ours */
    size_t huge = SIZE_MAX / 2 + 1;
    CHECK(grow_room(a, huge, &huge, 2, 4) == NULL);
    CHECK_EQ_U(huge, SIZE_MAX / 2 + 1);
    free(a);
    return check_report("test_grow");
}

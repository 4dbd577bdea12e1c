/* main.c - every family's program: the engine run on the family's table.
 * Built twice: PROFILE_ONLY=0 (./NAME) and 1 (./NAME_profile: clean kernels
 * only, for Nsight Compute). */
#include "engine.h"

#ifndef PROFILE_ONLY
#define PROFILE_ONLY 0
#endif

int main(int argc, char **argv) { return eng_main(&eng_family_table, argc, argv, PROFILE_ONLY); }

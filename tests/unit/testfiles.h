/*
 * testfiles.h - what the unit tests that build folders share: write a small
 * file, count the temporary files a writer left.  Include after check.h.
 */
#ifndef TESTFILES_H
#define TESTFILES_H
#include <dirent.h>
#include <stdio.h>
#include <string.h>

/* Write text to dir/name (checked). */
static inline void test_put_file(const char *dir, const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    CHECK(fclose(f) == 0);
}

/* The temporary files (NAME.XXXXXX.tmp, outfile.h) left in dir. */
static inline int test_count_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".tmp")) n++;
    if (d) closedir(d);
    return n;
}
#endif

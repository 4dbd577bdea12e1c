/*
 * pcfile.c - build/gen/pcfile, which writes the installed pkg-config file:
 * make install runs
 *
 *     build/gen/pcfile PREFIX src/api/warplat.pc.in build/api/warplat.pc
 *
 * before it installs anything, so that a PREFIX that pkg-config (or CMake)
 * cannot carry stops the install with a sentence and nothing half done.
 * PREFIX comes through the environment's quoting, never a sed expression
 * (a '|', '&' or '\' in it broke the sed of before).  The prefix rules:
 * src/lib/pcfile.h; the version is warplat.h's WARPLAT_VERSION_STRING.
 * Exit 0; 1 a read or write error; 2 a usage error or a refused PREFIX.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "pcfile.h"
#include "warplat/warplat.h"

static const char USAGE[] =
    "usage: pcfile PREFIX IN OUT\n"
    "  Write OUT, the pkg-config file of warplat installed in PREFIX, from the\n"
    "  template IN (src/api/warplat.pc.in): @PREFIX@ becomes PREFIX made absolute\n"
    "  and quoted for pkg-config, @VERSION@ the API's version.  make install runs it;\n"
    "  a PREFIX that pkg-config cannot carry ('$', '(', ')', ';', a control character)\n"
    "  is refused (exit 2).\n";

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(USAGE, stdout);
        return outfile_check_stdout("pcfile");
    }
    if (argc != 4) {
        fputs(USAGE, stderr);
        return 2;
    }
    char cwd[PATH_MAX], prefix[8192], err[8400];
    if (!getcwd(cwd, sizeof cwd)) {
        fprintf(stderr, "make install: cannot learn the current folder\n");
        return 1;
    }
    if (pc_prefix(argv[1], cwd, prefix, sizeof prefix, err, sizeof err) != 0) {
        fprintf(stderr, "make install: %s\n", err);
        return 2;
    }
    FILE *in = fopen(argv[2], "rb");
    static char text[1 << 16];
    const size_t len = in ? fread(text, 1, sizeof text, in) : 0;
    const int bad = !in || ferror(in) || len == sizeof text;
    if (in) fclose(in);
    if (bad) {
        fprintf(stderr, "pcfile: cannot read %s (or larger than 64 KiB)\n", argv[2]);
        return 1;
    }
    outfile o;
    FILE *f = outfile_open(&o, argv[3], "w", err, sizeof err);
    if (!f || (pc_expand(f, text, len, prefix, WARPLAT_VERSION_STRING),
               outfile_commit(&o, err, sizeof err) != 0)) {
        fprintf(stderr, "pcfile: %s\n", err);
        return 1;
    }
    return 0;
}

/*
 * pcfile.h - the installed pkg-config file's prefix (make install PREFIX=DIR,
 * src/api/warplat.pc.in): made absolute as make's abspath would, and
 * written so that pkg-config gives the same path back.
 *
 * pkg-config (pkgconf) splits Cflags and Libs as a shell would and prints
 * them shell-quoted, so a blank, a quote, '&', '|', '\' and the like are
 * written with a backslash before them and come back whole.  What it cannot
 * carry is refused: '$' (it starts a variable, and pkgconf prints it
 * unquoted), '(' and ')' (printed unquoted: a shell's syntax error), a
 * control character (a newline ends the line), and ';', which CMake reads
 * as a list separator (warplatConfig.cmake finds the prefix from its own
 * place, and a list would split it).
 */
#ifndef WARPLAT_PCFILE_H
#define WARPLAT_PCFILE_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* prefix made absolute against cwd (when relative) and normalised as make's
 * abspath does ("." and empty parts dropped, ".." removes the part before
 * it, no trailing '/'), then escaped for a .pc file into out.  0, or -1
 * with err a sentence ("PREFIX ... cannot be installed: ..."). */
int pc_prefix(const char *prefix, const char *cwd, char *out, size_t outlen, char *err,
              size_t errlen);

/* Write the template text (len bytes) to f with every @PREFIX@ replaced by
 * prefix (already escaped) and every @VERSION@ by version. */
void pc_expand(FILE *f, const char *text, size_t len, const char *prefix, const char *version);

#ifdef __cplusplus
}
#endif
#endif

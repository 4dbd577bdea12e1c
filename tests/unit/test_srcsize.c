/*
 * test_srcsize.c - the function finder of the size rules (src/lib/srcsize.c):
 * names and lengths of functions written the codebase's way, multi-line
 * signatures, CUDA attributes, and text that is not a function.
 */
#include <string.h>

#include "check.h"
#include "srcsize.h"

typedef struct found {
    srcsize_func f[8];
    int n;
} found;

static void take(const srcsize_func *f, void *ctx)
{
    found *fd = ctx;
    if (fd->n < 8) fd->f[fd->n] = *f;
    fd->n++;
}

static size_t scan(const char *s, found *fd)
{
    memset(fd, 0, sizeof *fd);
    return srcsize_scan(s, strlen(s), take, fd);
}

int main(void)
{
    found fd;
    /* two functions, one with a signature over two lines */
    const char *a = "#include <stdio.h>\n"            /* 1 */
                    "\n"                              /* 2 */
                    "static int add(int a,\n"         /* 3 */
                    "               int b)\n"         /* 4 */
                    "{\n"                             /* 5 */
                    "    return a + b;\n"             /* 6 */
                    "}\n"                             /* 7 */
                    "\n"                              /* 8 */
                    "int main(void)\n"                /* 9 */
                    "{\n"                             /* 10 */
                    "    if (1) {\n"                  /* 11 */
                    "    }\n"                         /* 12 */
                    "    return 0;\n"                 /* 13 */
                    "}\n";                            /* 14 */
    CHECK_EQ_U(scan(a, &fd), 14);
    CHECK_EQ_I(fd.n, 2);
    CHECK(strcmp(fd.f[0].name, "add") == 0);
    CHECK_EQ_U(fd.f[0].first_line, 3);
    CHECK_EQ_U(fd.f[0].lines, 5);
    CHECK(strcmp(fd.f[1].name, "main") == 0);
    CHECK_EQ_U(fd.f[1].first_line, 9);
    CHECK_EQ_U(fd.f[1].lines, 6);

    /* a CUDA kernel with launch bounds; a table and a struct are not functions;
     * a declaration before the signature is not part of it */
    const char *b = "static const int t[] = {\n"
                    "    1, 2,\n"
                    "};\n"
                    "struct s {\n"
                    "    int x;\n"
                    "};\n"
                    "int g;\n"
                    "__global__ void __launch_bounds__(256) k(int *p)\n"
                    "{\n"
                    "    p[0] = 1;\n"
                    "}";                              /* no final newline */
    CHECK_EQ_U(scan(b, &fd), 11);
    CHECK_EQ_I(fd.n, 1);
    CHECK(strcmp(fd.f[0].name, "k") == 0);
    CHECK_EQ_U(fd.f[0].first_line, 8);
    CHECK_EQ_U(fd.f[0].lines, 4);

    /* an unclosed body is not reported; a brace with no signature is not a
     * function; an empty text has no lines */
    CHECK_EQ_U(scan("void f(void)\n{\n    x;\n", &fd), 3);
    CHECK_EQ_I(fd.n, 0);
    CHECK_EQ_U(scan("\n{\n}\n", &fd), 3);
    CHECK_EQ_I(fd.n, 0);
    CHECK_EQ_U(scan("", &fd), 0);
    CHECK_EQ_U(scan("x", &fd), 1);
    /* comments after the braces */
    CHECK_EQ_U(scan("int f(void)\n{ /* body */\n} // end\n", &fd), 3);
    CHECK_EQ_I(fd.n, 1);
    CHECK(strcmp(fd.f[0].name, "f") == 0);
    CHECK_EQ_U(fd.f[0].lines, 3);
    return check_report("test_srcsize");
}

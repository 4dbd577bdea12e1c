/*
 * test_pcfile - the installed pkg-config file's prefix (pcfile.h): made
 * absolute as make's abspath, quoted so that pkg-config gives it back
 * whole, refused where it cannot.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pcfile.h"

static void prefix_is(const char *prefix, const char *want)
{
    char out[512], err[256] = "";
    const int rc = pc_prefix(prefix, "/home/u/src", out, sizeof out, err, sizeof err);
    CHECK_EQ_I(rc, 0);
    if (rc == 0 && strcmp(out, want) != 0) {
        printf("prefix %s: got %s, want %s\n", prefix, out, want);
        CHECK(0);
    }
}

static void refused(const char *prefix, const char *why)
{
    char out[512], err[256] = "";
    CHECK_EQ_I(pc_prefix(prefix, "/home/u/src", out, sizeof out, err, sizeof err), -1);
    CHECK_STR_HAS(err, "cannot be installed");
    CHECK_STR_HAS(err, why);
}

int main(void)
{
    /* as make's abspath: relative to the current folder, . and .. resolved */
    prefix_is("/opt/warplat", "/opt/warplat");
    prefix_is("/opt//warplat/", "/opt/warplat");
    prefix_is("inst", "/home/u/src/inst");
    prefix_is("./a/../b/.", "/home/u/src/b");
    prefix_is("../../..", "/");
    prefix_is("/", "/");
    /* quoted with a backslash: the bytes that broke the sed of before */
    prefix_is("/tmp/a b", "/tmp/a\\ b");
    prefix_is("/tmp/a&b", "/tmp/a\\&b");
    prefix_is("/tmp/a\\b", "/tmp/a\\\\b");
    prefix_is("/tmp/a|b", "/tmp/a\\|b");
    prefix_is("/tmp/a'b\"c#d", "/tmp/a\\'b\\\"c\\#d");
    prefix_is("/tmp/x-1.2_y+z,w:v@u%t=s~r^q", "/tmp/x-1.2_y+z,w:v@u%t=s~r^q");
    prefix_is("/tmp/caf\xc3\xa9", "/tmp/caf\xc3\xa9");
    /* what pkg-config or CMake cannot carry */
    refused("/tmp/a$b", "'$'");
    refused("/tmp/a(b", "'(' or ')'");
    refused("/tmp/a)b", "'(' or ')'");
    refused("/tmp/a;b", "';'");
    refused("/tmp/a\nb", "a control character");
    refused("/tmp/a\tb", "a control character");
    char err[256] = "", out[8];
    CHECK_EQ_I(pc_prefix("", "/", out, sizeof out, err, sizeof err), -1);
    CHECK_STR_HAS(err, "PREFIX is empty");
    CHECK_EQ_I(pc_prefix("/a/very/long/prefix", "/", out, sizeof out, err, sizeof err), -1);
    CHECK_STR_HAS(err, "too long");

    /* the template: every @PREFIX@ and @VERSION@, nothing else touched */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char tpl[] = "prefix=@PREFIX@\nVersion: @VERSION@\n@PREFIX @ @@PREFIX@@\n";
    pc_expand(f, tpl, sizeof tpl - 1, "/p\\ q", "0.1.0");
    fclose(f);
    CHECK(buf && !strcmp(buf, "prefix=/p\\ q\nVersion: 0.1.0\n@PREFIX @ @/p\\ q@\n"));
    free(buf);
    return check_report("test_pcfile");
}

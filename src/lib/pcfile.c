/* pcfile.c - the pkg-config file's prefix (contract: pcfile.h). */
#include "pcfile.h"
#include "err.h"

#include <string.h>

/* Characters written as they are; every other printable one (but those
 * refused) gets a backslash before it.  Bytes of 0x80 and above (UTF-8)
 * are written as they are. */
static int plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c >= 0x80 || strchr("/._+,:@%=~^-", c) != NULL;
}

int pc_prefix(const char *prefix, const char *cwd, char *out, size_t outlen, char *err,
              size_t errlen)
{
    if (!prefix || !*prefix) {
        set_err(err, errlen, "PREFIX is empty");
        return -1;
    }
    for (const unsigned char *p = (const unsigned char *)prefix; *p; p++) {
        const char *why = *p < 0x20 || *p == 0x7f ? "a control character (a newline ends a line of it)"
                        : *p == '$' ? "'$' (pkg-config reads it as a variable)"
                        : *p == '(' || *p == ')' ? "'(' or ')' (pkg-config prints them unquoted)"
                        : *p == ';' ? "';' (CMake reads it as a list separator)"
                        : NULL;
        if (why) {
            set_err(err, errlen, "PREFIX %s cannot be installed: it has %s; choose another folder",
                    prefix, why);
            return -1;
        }
    }
    /* the absolute path, in parts */
    char abs[4096];
    const int n = prefix[0] == '/' ? snprintf(abs, sizeof abs, "%s", prefix)
                                   : snprintf(abs, sizeof abs, "%s/%s", cwd, prefix);
    if (n < 0 || (size_t)n >= sizeof abs) {
        set_err(err, errlen, "PREFIX %s cannot be installed: its path is too long", prefix);
        return -1;
    }
    char norm[4096];
    size_t k = 0;
    for (char *part = abs; *part;) {
        char *end = strchr(part, '/');
        const size_t len = end ? (size_t)(end - part) : strlen(part);
        if (len == 0 || (len == 1 && part[0] == '.')) {
            /* nothing: "//" or "/./" */
        } else if (len == 2 && part[0] == '.' && part[1] == '.') {
            while (k > 0 && norm[k - 1] != '/') k--; /* back to the '/' before the last part */
            if (k > 0) k--;
        } else {
            norm[k++] = '/';
            memcpy(norm + k, part, len);
            k += len;
        }
        part += len + (end != NULL);
    }
    if (k == 0) norm[k++] = '/';
    norm[k] = 0;
    /* escaped */
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)norm; *p; p++) {
        if (o + 3 > outlen) {
            set_err(err, errlen, "PREFIX %s cannot be installed: its path is too long", prefix);
            return -1;
        }
        if (!plain(*p)) out[o++] = '\\';
        out[o++] = (char)*p;
    }
    out[o] = 0;
    return 0;
}

void pc_expand(FILE *f, const char *text, size_t len, const char *prefix, const char *version)
{
    for (size_t i = 0; i < len;) {
        if (len - i >= 8 && !memcmp(text + i, "@PREFIX@", 8)) {
            fputs(prefix, f);
            i += 8;
        } else if (len - i >= 9 && !memcmp(text + i, "@VERSION@", 9)) {
            fputs(version, f);
            i += 9;
        } else {
            fputc(text[i++], f);
        }
    }
}

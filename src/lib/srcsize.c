/*
 * srcsize.c - functions and lines of a C or CUDA file (see srcsize.h).
 */
#include "srcsize.h"

#include <ctype.h>
#include <string.h>

/* Can a line that starts with c open a signature?  Not a preprocessor line,
 * a comment, a brace or an indented line. */
static int starts_signature(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static int is_attribute(const char *id, size_t n)
{
    static const char *const attrs[] = {"__launch_bounds__", "__attribute__", "__declspec",
                                        "__align__", "alignas", "_Alignas", 0};
    for (size_t i = 0; attrs[i]; i++)
        if (strlen(attrs[i]) == n && memcmp(attrs[i], id, n) == 0) return 1;
    return 0;
}

/* The name of the function whose signature is sig[0..n): the identifier
 * before the first '(' at depth 0 that is not an attribute. */
static void signature_name(const char *sig, size_t n, char *name, size_t cap)
{
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (sig[i] == '(') {
            if (depth++ != 0) continue;
            size_t e = i;
            while (e > 0 && (sig[e - 1] == ' ' || sig[e - 1] == '\t')) e--;
            size_t b = e;
            while (b > 0 && (isalnum((unsigned char)sig[b - 1]) || sig[b - 1] == '_')) b--;
            if (b < e && !is_attribute(sig + b, e - b)) {
                size_t k = e - b < cap - 1 ? e - b : cap - 1;
                memcpy(name, sig + b, k);
                name[k] = '\0';
                return;
            }
        } else if (sig[i] == ')' && depth > 0) {
            depth--;
        }
    }
    name[0] = '?';
    name[1] = '\0';
}

/* Is line[0..n) exactly c, give or take trailing blanks and a comment? */
static int is_brace_line(const char *line, size_t n, char c)
{
    if (n == 0 || line[0] != c) return 0;
    for (size_t i = 1; i < n; i++) {
        if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') continue;
        if (c == '}' && line[i] == ';') continue; /* never a function, but harmless */
        return line[i] == '/' && i + 1 < n && (line[i + 1] == '/' || line[i + 1] == '*');
    }
    return 1;
}

size_t srcsize_scan(const char *text, size_t len, srcsize_fn fn, void *ctx)
{
    size_t lineno = 0, sig_line = 0, sig_off = 0;
    int have_sig = 0, in_body = 0;
    srcsize_func f;
    for (size_t off = 0; off < len;) {
        const char *nl = memchr(text + off, '\n', len - off);
        const size_t end = nl ? (size_t)(nl - text) : len;
        const char *line = text + off;
        const size_t n = end - off;
        lineno++;
        if (!in_body) {
            if (is_brace_line(line, n, '{') && have_sig) {
                signature_name(text + sig_off, off - sig_off, f.name, sizeof f.name);
                f.first_line = sig_line;
                in_body = 1;
            } else if (n > 0 && starts_signature(line[0])) {
                if (!have_sig || memchr(text + sig_off, ';', off - sig_off)) {
                    sig_line = lineno;
                    sig_off = off;
                }
                have_sig = 1;
            } else if (n > 0 && line[0] != ' ' && line[0] != '\t') {
                have_sig = 0; /* '#', '}', a comment, a blank: no signature goes on */
            } else if (n == 0) {
                have_sig = 0;
            }
        } else if (is_brace_line(line, n, '}')) {
            f.lines = lineno - f.first_line + 1;
            if (fn) fn(&f, ctx);
            in_body = 0;
            have_sig = 0;
        }
        off = nl ? end + 1 : len;
    }
    return lineno;
}

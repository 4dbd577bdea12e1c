/* famtext.c - see famtext.h.  Plain C and libc only: make builds the
 * generator (src/report/famtext_main.c) from this file before the library exists. */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "famtext.h"
#include "family.h"

static const char *const KEYS[FAMTEXT_NFIELDS] = {"about", "title", "intro"};

const char *famtext_key(int i)
{
    return i >= 0 && i < FAMTEXT_NFIELDS ? KEYS[i] : NULL;
}

void famtext_free(famtext *t)
{
    for (int i = 0; i < FAMTEXT_NFIELDS; i++) {
        free(t->field[i]);
        t->field[i] = NULL;
    }
}

/* The key of a line "[KEY]" (blanks trimmed already), -1 for an unknown
 * key, -2 for a line that is not a key. */
static int line_key(const char *s, size_t n)
{
    if (n < 2 || s[0] != '[' || s[n - 1] != ']') return -2;
    for (int i = 0; i < FAMTEXT_NFIELDS; i++)
        if (strlen(KEYS[i]) == n - 2 && !memcmp(s + 1, KEYS[i], n - 2)) return i;
    return -1;
}

/* Append the n bytes at s to field f (room for the whole file is there). */
static void append(char *f, const char *s, size_t n)
{
    size_t at = strlen(f);
    if (at) f[at++] = ' ';
    memcpy(f + at, s, n);
    f[at + n] = '\0';
}

/* The parser's place: the field being filled (-1: none yet) and whether a
 * blank line ended its paragraph. */
typedef struct ft_state {
    int cur;
    int ended;
} ft_state;

/* One line of n bytes (CR and LF gone), number ln.  0, or -1 with err. */
static int one_line(famtext *t, ft_state *st, const char *s, size_t n, size_t len, size_t ln, char *err,
                    size_t errlen)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 && s[i] != '\t') {
            set_err(err, errlen, "%zu: a control character (byte %u); text is plain UTF-8", ln,
                    (unsigned)(unsigned char)s[i]);
            return -1;
        }
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n && *s == '#') return 0;
    if (!n) {
        st->ended = st->cur >= 0 && t->field[st->cur][0];
        return 0;
    }
    const int k = line_key(s, n);
    if (k == -1) {
        set_err(err, errlen, "%zu: unknown field %.*s (the fields: [about], [title], [intro])", ln,
                (int)(n > 64 ? 64 : n), s);
        return -1;
    }
    if (k >= 0) {
        if (st->cur >= 0 && !t->field[st->cur][0]) {
            set_err(err, errlen, "%zu: [%s] before [%s] had any text", ln, KEYS[k], KEYS[st->cur]);
            return -1;
        }
        if (t->field[k]) {
            set_err(err, errlen, "%zu: [%s] a second time", ln, KEYS[k]);
            return -1;
        }
        if (!(t->field[k] = calloc(1, len + 1))) {
            set_err(err, errlen, "out of memory");
            return -1;
        }
        st->cur = k;
        st->ended = 0;
        return 0;
    }
    if (st->cur < 0) {
        set_err(err, errlen, "%zu: text before the first field (a line [about], [title] or [intro])", ln);
        return -1;
    }
    if (st->ended) {
        set_err(err, errlen, "%zu: a second paragraph in [%s] (a field is one paragraph)", ln, KEYS[st->cur]);
        return -1;
    }
    append(t->field[st->cur], s, n);
    return 0;
}

int famtext_parse(const char *text, size_t len, famtext *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (memchr(text, '\0', len)) {
        set_err(err, errlen, "a NUL byte: not a text file");
        return -1;
    }
    ft_state st = {-1, 0};
    size_t ln = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        const size_t next = at + n + (nl != NULL);
        if (n && text[at + n - 1] == '\r') n--;
        if (one_line(t, &st, text + at, n, len, ++ln, err, errlen) != 0) {
            famtext_free(t);
            return -1;
        }
        at = next;
    }
    if (st.cur < 0) {
        set_err(err, errlen, "no field (a line [about], [title] or [intro], then its text)");
        return -1;
    }
    if (!t->field[st.cur][0]) {
        set_err(err, errlen, "%zu: [%s] has no text", ln, KEYS[st.cur]);
        famtext_free(t);
        return -1;
    }
    return 0;
}

/* s as a C string literal: the compiler reads back the same bytes ("??"
 * would start a trigraph under -std=c11, so the second '?' is escaped). */
static void put_literal(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if (*s == '\t') {
            fputs("\\t", f);
            continue;
        }
        fputc(*s, f);
        if (*s == '?' && s[1] == '?') fputc('\\', f);
    }
    fputc('"', f);
}

int famtext_write_c(FILE *f, const char *name, const char *source, const famtext *t, char *err,
                    size_t errlen)
{
    if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(name)) {
        set_err(err, errlen, "'%s' is not a family name (letters, digits and '_')", name);
        return -1;
    }
    fprintf(f, "/* Generated by make (build/gen/famtext) from %s: do not edit. */\n", source);
    fprintf(f, "#include \"family.h\"\n\nconst struct fam_text fam_text_%s = {\n", name);
    for (int i = 0; i < FAMTEXT_NFIELDS; i++) {
        fprintf(f, "    .%s = ", KEYS[i]);
        if (t->field[i])
            put_literal(f, t->field[i]);
        else
            fputs("0", f);
        fputs(",\n", f);
    }
    fputs("};\n", f);
    if (ferror(f)) {
        set_err(err, errlen, "a write error");
        return -1;
    }
    return 0;
}

int famtext_check_section(const struct fam_text *words, const char *name, char *err,
                          size_t errlen)
{
    const char *missing = !words ? "report.txt" : !words->title ? "[title]"
                        : !words->intro ? "[intro]" : NULL;
    if (!missing) return 0;
    if (!words)
        set_err(err, errlen, "the family %s has its own section in the report, but no "
                "src/families/%s/report.txt for its title and intro", name, name);
    else
        set_err(err, errlen, "the family %s has its own section in the report, but "
                "src/families/%s/report.txt has no %s", name, name, missing);
    return -1;
}

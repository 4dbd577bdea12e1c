/*
 * famtext.h - a family's words in the report, kept as prose in its folder
 * (src/families/NAME/report.txt) and turned into C by make through
 * build/gen/famtext (src/report/famtext_main.c), which the registry (family.h)
 * points at as `fam_entry.text`.
 *
 * The file is a few fields, each a line "[KEY]" followed by its text:
 *
 *     # a comment: a line that starts with '#'
 *     [about]
 *     The paragraph above the family's summaries, wrapped as
 *     it reads best; its lines are joined by one space.
 *     [title]
 *     the title of the family's own section
 *     [intro]
 *     the paragraph that opens that section
 *
 * KEY is one of famtext_key()'s; each field at most once, one paragraph
 * (a blank line ends it), never empty.  Leading and trailing blanks of a
 * line and a CR before its LF are dropped.  The text is kept as it is
 * otherwise (no format directives: '%' is a percent sign).
 */
#ifndef WARPLAT_FAMTEXT_H
#define WARPLAT_FAMTEXT_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { FAMTEXT_ABOUT, FAMTEXT_TITLE, FAMTEXT_INTRO, FAMTEXT_NFIELDS };

/* The parsed fields, each a malloc'd string or NULL where the file has none. */
typedef struct famtext {
    char *field[FAMTEXT_NFIELDS];
} famtext;

/* The key of field i ("about", "title", "intro"), or NULL past the last. */
const char *famtext_key(int i);

/* Parse the len bytes at text (the whole file) into t.  0, or -1 with err
 * "LINE: what is wrong" (1-based) and t empty.  famtext_free(t) after a 0. */
int famtext_parse(const char *text, size_t len, famtext *t, char *err, size_t errlen);

void famtext_free(famtext *t);

struct fam_text; /* family.h */

/* A family with its own section in the report (report_family.h: section)
 * needs its [title] and its [intro]: 0 when words (NULL: no report.txt)
 * has both, else -1 with err "the family NAME has its own section, but
 * src/families/NAME/report.txt has no [title]" (what was rendered as
 * "(null)"). */
int famtext_check_section(const struct fam_text *words, const char *name, char *err,
                          size_t errlen);

/* Write the C definition of `const struct fam_text fam_text_NAME` (family.h)
 * to f, with a comment naming `source`; a field the file lacks is NULL.  The
 * strings are escaped so that the compiler reads back the same bytes.  NAME
 * must be a C identifier's tail ([A-Za-z0-9_]).  0, or -1 with err (a bad
 * NAME or a write error). */
int famtext_write_c(FILE *f, const char *name, const char *source, const famtext *t, char *err,
                    size_t errlen);

#ifdef __cplusplus
}
#endif
#endif

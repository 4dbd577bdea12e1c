/* test_famtext.c - a family's words (famtext.h): the report.txt format, its
 * refusals with the line they point at, the C that make compiles from it,
 * and every family's report.txt read back to the registry's strings. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "family.h"
#include "famtext.h"
#include "report_family.h"

static int parse(const char *s, famtext *t, char *err, size_t errlen)
{
    return famtext_parse(s, strlen(s), t, err, errlen);
}

/* parse fails, and err says `says` */
static void refuses(const char *s, const char *says)
{
    famtext t;
    char err[256] = "";
    CHECK(parse(s, &t, err, sizeof err) == -1);
    CHECK_STR_HAS(err, says);
    for (int i = 0; i < FAMTEXT_NFIELDS; i++) CHECK(t.field[i] == NULL);
}

static void good(void)
{
    famtext t;
    char err[256] = "";
    const char *s = "# a comment\n\n[title]\n  the title \t\r\n"
                    "[about]\r\nFirst line,\n   second line:\n100% \"quoted\" a\\b ok?? yes\n\n"
                    "# a comment after the paragraph\n";
    CHECK(parse(s, &t, err, sizeof err) == 0);
    CHECK(t.field[FAMTEXT_TITLE] && !strcmp(t.field[FAMTEXT_TITLE], "the title"));
    CHECK(t.field[FAMTEXT_ABOUT] &&
          !strcmp(t.field[FAMTEXT_ABOUT], "First line, second line: 100% \"quoted\" a\\b ok?? yes"));
    CHECK(t.field[FAMTEXT_INTRO] == NULL);

    /* the C: escaped so that the compiler reads the same bytes, NULL where absent */
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    CHECK(famtext_write_c(f, "copy", "src/families/copy/report.txt", &t, err, sizeof err) == 0);
    fclose(f);
    CHECK_STR_HAS(buf, "from src/families/copy/report.txt: do not edit");
    CHECK_STR_HAS(buf, "const struct fam_text fam_text_copy = {\n");
    CHECK_STR_HAS(buf, "    .about = \"First line, second line: 100% \\\"quoted\\\" a\\\\b ok?\\? yes\",\n");
    CHECK_STR_HAS(buf, "    .title = \"the title\",\n");
    CHECK_STR_HAS(buf, "    .intro = 0,\n};\n");
    free(buf);

    /* a name that is not an identifier's tail is refused, nothing written */
    buf = NULL;
    f = open_memstream(&buf, &n);
    CHECK(famtext_write_c(f, "co py", "x", &t, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "'co py' is not a family name");
    CHECK(famtext_write_c(f, "", "x", &t, err, sizeof err) == -1);
    fclose(f);
    CHECK(n == 0);
    free(buf);
    famtext_free(&t);
    for (int i = 0; i < FAMTEXT_NFIELDS; i++) CHECK(t.field[i] == NULL);

    /* no final newline; tabs kept inside a line */
    CHECK(parse("[intro]\na\tb", &t, err, sizeof err) == 0);
    CHECK(!strcmp(t.field[FAMTEXT_INTRO], "a\tb"));
    famtext_free(&t);
    CHECK(!strcmp(famtext_key(FAMTEXT_ABOUT), "about") && !strcmp(famtext_key(FAMTEXT_INTRO), "intro"));
    CHECK(famtext_key(FAMTEXT_NFIELDS) == NULL && famtext_key(-1) == NULL);
}

static void bad(void)
{
    refuses("", "no field");
    refuses("# only a comment\n\n", "no field");
    refuses("text first\n[about]\nx\n", "1: text before the first field");
    refuses("[about]\nx\n[abstract]\ny\n", "3: unknown field [abstract]");
    refuses("[about]\nx\n[about]\ny\n", "3: [about] a second time");
    refuses("[about]\n[title]\nt\n", "2: [title] before [about] had any text");
    refuses("[about]\nx\n\ny\n", "4: a second paragraph in [about]");
    refuses("[title]\nt\n[intro]\n\n", "4: [intro] has no text");
    refuses("[about]\nx\001y\n", "2: a control character (byte 1)");
    famtext t;
    char err[256] = "";
    CHECK(famtext_parse("[about]\nx\0y", 11, &t, err, sizeof err) == -1);
    CHECK_STR_HAS(err, "a NUL byte");
}

/* Every family's report.txt, parsed here, is what make compiled into the
 * registry: the generator's escaping loses nothing. */
static void registry(void)
{
    size_t nfiles = 0;
    for (const fam_entry *e = fam_registry; e->name; e++) {
        char path[256];
        snprintf(path, sizeof path, "src/families/%s/report.txt", e->name);
        FILE *f = fopen(path, "rb");
        CHECK((f != NULL) == (e->text != NULL));
        if (!f) continue;
        nfiles++;
        static char buf[1 << 16];
        const size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        famtext t;
        char err[256] = "";
        CHECK(n < sizeof buf && famtext_parse(buf, n, &t, err, sizeof err) == 0);
        const char *const got[FAMTEXT_NFIELDS] = {e->text->about, e->text->title, e->text->intro};
        for (int i = 0; i < FAMTEXT_NFIELDS; i++)
            CHECK((!got[i] && !t.field[i]) || (got[i] && t.field[i] && !strcmp(got[i], t.field[i])));
        famtext_free(&t);
    }
    CHECK(nfiles >= 1);
    /* a family with its own section has the words for it: a report.txt of
     * [about] only rendered the section's title and intro as "(null)" */
    size_t nsections = 0;
    for (const fam_entry *e = fam_registry; e->name; e++) {
        if (!e->report || !e->report->section) continue;
        nsections++;
        char err[256] = "";
        CHECK(famtext_check_section(e->text, e->name, err, sizeof err) == 0);
        if (err[0]) printf("%s\n", err);
    }
    CHECK(nsections >= 1);
    char err[256] = "";
    const struct fam_text about_only = {.about = "a paragraph"}, no_intro = {.title = "T"},
                          whole = {.title = "T", .intro = "I"};
    CHECK(famtext_check_section(&about_only, "copy", err, sizeof err) == -1);
    CHECK_STR_HAS(err, "the family copy has its own section in the report, but "
                       "src/families/copy/report.txt has no [title]");
    CHECK(famtext_check_section(&no_intro, "copy", err, sizeof err) == -1);
    CHECK_STR_HAS(err, "has no [intro]");
    CHECK(famtext_check_section(NULL, "copy", err, sizeof err) == -1);
    CHECK_STR_HAS(err, "but no src/families/copy/report.txt");
    CHECK(famtext_check_section(&whole, "copy", err, sizeof err) == 0);
}

int main(void)
{
    good();
    bad();
    registry();
    return check_report("test_famtext");
}

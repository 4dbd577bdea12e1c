/* test_report_family.c - the families' report entries (report_family.h, as
 * make registers them in family.h) keep the contract the report relies on,
 * and the report finds each chart back by its kind. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "check.h"
#include "family.h"
#include "report_cmd.h"
#include "report_family.h"

int main(void)
{
    size_t nrep = 0, nsets = 0, ncharts = 0;
    char kinds[4096];
    rc_chart_kinds(kinds, sizeof kinds);
    for (const fam_entry *e = fam_registry; e->name; e++) {
        /* a complete set has sectors_<name>.tsv exactly where ncu_profile.sh writes it */
        CHECK(rc_family_has_sectors(e->name) == (e->model != NULL));
        const struct fam_report *r = e->report;
        if (!r) continue;
        nrep++;
        CHECK(rc_family(e->name) == r);
        nsets += r->sets_n != 0;
        /* a section is opened with its title and paragraph (report.txt) */
        const struct fam_text *tx = rc_family_text(e->name);
        CHECK(tx == (e->text ? e->text : tx));
        CHECK(!r->section || (tx->title && *tx->title && tx->intro && *tx->intro));
        CHECK(e->runs == &r->runs);
        CHECK(!r->runs.script || !strncmp(r->runs.script, "scripts/", 8));
        CHECK(!r->runs.script_ladder || r->runs.script);
        CHECK(!r->runs.fixed_files || r->runs.script);
        CHECK(!r->sweep_variants || r->sweep_wpb > 0);
        CHECK(!r->no_summaries || r->expected);
        CHECK(!r->doc || !strncmp(r->doc, "docs/", 5));
        for (size_t k = 0; k < r->ncharts; k++) {
            const fam_chart *fc = &r->charts[k];
            const char *fam = NULL;
            CHECK(fc->kind && *fc->kind && fc->what && *fc->what && fc->draw);
            /* kinds are unique: the lookup finds this one, of this family */
            CHECK(rc_chart_of(fc->kind, &fam) == fc && fam && !strcmp(fam, e->name));
            CHECK(strstr(kinds, fc->kind) != NULL);
            ncharts++;
        }
        CHECK(r->ncharts == 0 || r->charts);
    }
    /* the set's N comes from one family at most */
    CHECK(nsets <= 1);
    CHECK(rc_chart_of("no_such_chart", NULL) == NULL);
    CHECK(rc_family("no_such_family") == NULL && rc_family(NULL) == NULL);
    CHECK(!rc_family_has_sectors("no_such_family") && !rc_family_has_sectors(NULL));
    CHECK(rc_family_text("no_such_family")->about == NULL && rc_family_text(NULL)->title == NULL);
    /* every chart is listed once: "a, b, c" has ncharts - 1 separators */
    size_t seps = 0;
    for (const char *p = kinds; (p = strstr(p, ", ")); p += 2) seps++;
    CHECK(ncharts == 0 ? !*kinds : seps == ncharts - 1);
    CHECK(nrep <= fam_count());
    return check_report("test_report_family");
}

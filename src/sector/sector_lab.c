/*
 * sector_lab.c - one row of the model beside the lab's figures (sf_lab_row,
 * sector_families.h): the figures of a family's lab table that match a
 * launch, the model evaluated where they were measured (the simulator,
 * sector_sim.c), and the verdict.  It stands above the simulator, which
 * itself reads sector_families.c, so that no two of them call each other.
 */
#define _POSIX_C_SOURCE 200809L
#include "sector_families.h"
#include "sbuf.h"
#include "sector_family.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sf_lab_row(const sf_variant *v, const sf_params *p, sf_op op, char *lab, size_t lablen,
               char *src, size_t srclen, char *verdict, size_t vlen, char *why, size_t whylen)
{
    int n = 0, differ = 0, have = 0;
    sf_prediction pr;
    lab[0] = src[0] = verdict[0] = why[0] = 0;
    for (size_t i = 0; i < v->model->nlabs; i++) {
        const sf_lab *e = &v->model->labs[i];
        if (!sf_lab_matches(e, v, p, op))
            continue;
        if (!have) {
            sf_params lp;
            sf_lab_params(e, v, p, &lp);
            if (sf_predict(v, &lp, &pr, why, whylen)) {
                snprintf(lab, lablen, "-");
                snprintf(src, srclen, "-");
                snprintf(verdict, vlen, "-");
                return -1;
            }
            have = 1;
        }
        const double m = sf_quantity_value(&pr, op, e->q);
        sb_cat(lab, lablen, "%s%s %.4g [%s]", n ? "; " : "", sf_quantity_name(e->q), e->value,
            e->source);
        if (!strstr(src, e->source))
            sb_cat(src, srclen, "%s%s", src[0] ? "," : "", e->source);
        if (!sf_lab_agrees(e, m)) {
            sb_cat(verdict, vlen, "%s%s lab %.4g [%s], model %.4g", differ ? "; " : "differs: ",
                sf_quantity_name(e->q), e->value, e->source, m);
            if (e->h100 && !strstr(why, e->h100))
                sb_cat(why, whylen, "%s%s", why[0] ? "; " : "", e->h100);
            differ++;
        }
        n++;
    }
    if (n == 0) {
        snprintf(lab, lablen, "-");
        snprintf(src, srclen, "-");
        snprintf(verdict, vlen, "-");
    } else if (!differ) {
        snprintf(verdict, vlen, "agrees");
    }
    return n;
}

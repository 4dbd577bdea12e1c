/* names.c - see names.h and docs/naming.md. */
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "warplog.h"

/* prefix or suffix: the caller's words, [A-Za-z0-9_.-]* */
static int fixed_part(const char *p)
{
    for (; p && *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '.' || *p == '-'))
            return 0;
    return p != NULL;
}

int names_from_name(char *buf, size_t len, const char *prefix, const char *name, const char *suffix)
{
    if (len) buf[0] = 0;
    if (!len || !fixed_part(prefix) || !fixed_part(suffix) ||
        warplog_name_check("name", name, WARPLOG_NAME_MAX, NULL, 0) != 0)
        return -1;
    const int k = snprintf(buf, len, "%s%s%s", prefix, name, suffix);
    /* what the parts promise, checked on the whole: one component, not
     * hidden, so never "." or ".." */
    if (k < 0 || (size_t)k >= len || strchr(buf, '/') || buf[0] == '.') {
        buf[0] = 0;
        return -1;
    }
    return 0;
}

int names_valid_exp(const char *e)
{
    if (!e || !*e) return 0;
    for (; *e; e++)
        if (!((*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9'))) return 0;
    return 1;
}

static int valid_part(const char *p, int allow_underscore)
{
    if (!p || !*p) return 0;
    for (; *p; p++) {
        const char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.') continue;
        if (c == '_' && allow_underscore) continue;
        return 0;
    }
    return 1;
}

static int put(size_t len, int k)
{
    return k < 0 || (size_t)k >= len ? -1 : 0;
}

int names_summary(char *buf, size_t len, const char *exp, const char *n, unsigned wpb)
{
    if (!names_valid_exp(exp) || !valid_part(n, 0) || !wpb) return -1;
    return put(len, snprintf(buf, len, "%s_%s_wpb%u.tsv", exp, n, wpb));
}

int names_log(char *buf, size_t len, const char *exp, const char *variant, const char *label,
              unsigned wpb)
{
    if (!names_valid_exp(exp) || !valid_part(variant, 1) || !wpb) return -1;
    if (label && *label && !valid_part(label, 0)) return -1;
    return put(len, snprintf(buf, len, "%s_%s%s%s_%u.bin", exp, variant, label && *label ? "-" : "",
                                  label && *label ? label : "", wpb));
}

int names_logdir(char *buf, size_t len, const char *n)
{
    if (!valid_part(n, 0)) return -1;
    return put(len, snprintf(buf, len, "logs_%s", n));
}

int names_sweep(char *buf, size_t len, const char *exp, const char *variant, unsigned wpb)
{
    if (!names_valid_exp(exp) || !valid_part(variant, 1) || !wpb) return -1;
    return put(len, snprintf(buf, len, "sweep_%s_%s_%u.tsv", exp, variant, wpb));
}

int names_sectors(char *buf, size_t len, const char *exp)
{
    if (!names_valid_exp(exp)) return -1;
    return put(len, snprintf(buf, len, "sectors_%s.tsv", exp));
}

int names_sass(char *buf, size_t len, const char *exp)
{
    if (!names_valid_exp(exp)) return -1;
    return put(len, snprintf(buf, len, "sass_%s.txt", exp));
}

int names_latency_stats(char *buf, size_t len, const char *n, unsigned wpb)
{
    if (!valid_part(n, 0) || !wpb) return -1;
    return put(len, snprintf(buf, len, "latency_stats_%s_wpb%u.tsv", n, wpb));
}

int names_ncu_table(char *buf, size_t len, const char *exp, const char *n)
{
    if (!names_valid_exp(exp) || !valid_part(n, 0)) return -1;
    return put(len, snprintf(buf, len, "%s_ncu_%s.tsv", exp, n));
}

const char *names_family_script(const char *exp)
{
    const fam_entry *e = fam_lookup(exp);
    return e && e->runs ? e->runs->script : NULL;
}

/* The family whose script writes the result file of fixed name base
 * (family.h: fam_runs.fixed_files), or NULL. */
static const fam_entry *fixed_file_family(const char *base)
{
    for (const fam_entry *e = fam_registry; e->name; e++)
        for (const char *const *f = e->runs ? e->runs->fixed_files : NULL; f && *f; f++)
            if (!strcmp(*f, base)) return e;
    return NULL;
}

static void copy(char *dst, size_t len, const char *src, size_t n)
{
    if (!dst || !len) return;
    if (n >= len) n = len - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* "<digits>" at the end of s (after the last '_'), as wpb; -1 if not. */
static long tail_number(const char *s, size_t n, const char *prefix)
{
    const size_t pl = strlen(prefix);
    if (n <= pl || strncmp(s, prefix, pl) != 0) return -1;
    long v = 0;
    for (size_t i = pl; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || v > 100000) return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v > 0 ? v : -1;
}

/* ncu/<exp>.csv.gz, stem the length of <exp>: one ncu process's log of a
 * family (scripts/ncu_profile.sh), its label "". */
static names_kind ncu_gz(const char *base, size_t stem, char *exp, size_t partlen)
{
    char e[64];
    if (stem >= sizeof e) return NAMES_UNKNOWN;
    copy(e, sizeof e, base, stem);
    if (!names_valid_exp(e)) return NAMES_UNKNOWN;
    copy(exp, partlen, base, stem);
    return NAMES_NCU;
}

names_kind names_parse(const char *base, char *exp, char *variant, char *label, char *n,
                       size_t partlen, unsigned *wpb)
{
    /* and the families' own (family.h fam_runs.fixed_files: ceiling.tsv) */
    static const char *fixed[] = {"device.tsv", "overhead.tsv", "sampling.tsv", "nvidia_smi.csv", NULL};
    if (exp) *exp = 0;
    if (variant) *variant = 0;
    if (label) *label = 0;
    if (n) *n = 0;
    if (wpb) *wpb = 0;
    for (int i = 0; fixed[i]; i++)
        if (!strcmp(base, fixed[i])) return NAMES_FIXED;
    if (fixed_file_family(base)) return NAMES_FIXED;
    if (!strcmp(base, "latency_ca.tsv") || !strcmp(base, "latency_cg.tsv")) return NAMES_LADDER;
    if (!strcmp(base, "legacy")) return NAMES_LEGACY;
    const size_t L = strlen(base);
    const char *dot = strrchr(base, '.');
    if (!dot) {
        /* logs_<N>: the folder of one N's logs */
        if (!strncmp(base, "logs_", 5) && valid_part(base + 5, 0)) {
            copy(n, partlen, base + 5, L - 5);
            return NAMES_LOGDIR;
        }
        return NAMES_UNKNOWN;
    }
    const size_t stem = (size_t)(dot - base);
    if (L > 7 && !strcmp(base + L - 7, ".csv.gz")) return ncu_gz(base, L - 7, exp, partlen);
    if (!strcmp(dot, ".csv")) {
        /* ncu/<exp>_<label>.csv */
        const char *u = memchr(base, '_', stem);
        char e[64];
        if (!u || u == base || (size_t)(u - base) >= sizeof e || u + 1 >= dot) return NAMES_UNKNOWN;
        copy(e, sizeof e, base, (size_t)(u - base));
        if (!names_valid_exp(e)) return NAMES_UNKNOWN;
        copy(exp, partlen, base, (size_t)(u - base));
        copy(label, partlen, u + 1, (size_t)(dot - u) - 1);
        return NAMES_NCU;
    }
    if (!strcmp(dot, ".tsv") && !strncmp(base, "sectors_", 8)) {
        char e[64];
        if (stem <= 8 || stem - 8 >= sizeof e) return NAMES_UNKNOWN;
        copy(e, sizeof e, base + 8, stem - 8);
        if (!names_valid_exp(e)) return NAMES_UNKNOWN;
        copy(exp, partlen, base + 8, stem - 8);
        return NAMES_SECTORS;
    }
    if (!strcmp(dot, ".txt") && !strncmp(base, "sass_", 5) && stem > 5) {
        char e[64];
        if (stem - 5 >= sizeof e) return NAMES_UNKNOWN;
        copy(e, sizeof e, base + 5, stem - 5);
        if (!names_valid_exp(e)) return NAMES_UNKNOWN;
        copy(exp, partlen, base + 5, stem - 5);
        return NAMES_SASS;
    }
    /* the rest end in _<W> or _wpb<W> */
    const char *us = NULL;
    for (const char *p = base; p < dot; p++)
        if (*p == '_') us = p;
    if (!us) return NAMES_UNKNOWN;
    const size_t tail_off = (size_t)(us + 1 - base);
    (void)L;
    if (!strcmp(dot, ".tsv") && !strncmp(base, "latency_stats_", 14)) {
        long w = tail_number(us + 1, stem - tail_off, "wpb");
        if (w < 0 || us < base + 14) return NAMES_UNKNOWN;
        copy(n, partlen, base + 14, (size_t)(us - base) - 14);
        if (wpb) *wpb = (unsigned)w;
        return NAMES_LATENCY_STATS;
    }
    if (!strcmp(dot, ".tsv") && !strncmp(base, "sweep_", 6)) {
        long w = tail_number(us + 1, stem - tail_off, "");
        const char *e_end = strchr(base + 6, '_');
        if (w < 0 || !e_end || e_end >= us) return NAMES_UNKNOWN;
        copy(exp, partlen, base + 6, (size_t)(e_end - base) - 6);
        copy(variant, partlen, e_end + 1, (size_t)(us - e_end) - 1);
        if (wpb) *wpb = (unsigned)w;
        return NAMES_SWEEP;
    }
    if (!strcmp(dot, ".tsv")) {
        /* <exp>_ncu_<N>.tsv: a family's Nsight Compute counts */
        const char *e0 = strchr(base, '_');
        if (e0 && !strncmp(e0, "_ncu_", 5) && e0 + 5 < dot) {
            char e[64], nn[64];
            copy(e, sizeof e, base, (size_t)(e0 - base));
            copy(nn, sizeof nn, e0 + 5, (size_t)(dot - e0) - 5);
            if (names_valid_exp(e) && valid_part(nn, 0) && strlen(nn) == (size_t)(dot - e0) - 5) {
                copy(exp, partlen, base, (size_t)(e0 - base));
                copy(n, partlen, e0 + 5, (size_t)(dot - e0) - 5);
                return NAMES_NCU_TABLE;
            }
        }
        long w = tail_number(us + 1, stem - tail_off, "wpb");
        const char *e_end = strchr(base, '_');
        if (w < 0 || !e_end || e_end >= us) return NAMES_UNKNOWN;
        copy(exp, partlen, base, (size_t)(e_end - base));
        copy(n, partlen, e_end + 1, (size_t)(us - e_end) - 1);
        if (wpb) *wpb = (unsigned)w;
        char e[64];
        copy(e, sizeof e, base, (size_t)(e_end - base));
        return names_valid_exp(e) ? NAMES_SUMMARY : NAMES_UNKNOWN;
    }
    if (!strcmp(dot, ".bin")) {
        long w = tail_number(us + 1, stem - tail_off, "");
        const char *e_end = strchr(base, '_');
        if (w < 0 || !e_end || e_end >= us) return NAMES_UNKNOWN;
        copy(exp, partlen, base, (size_t)(e_end - base));
        const char *v = e_end + 1;
        const char *dash = memchr(v, '-', (size_t)(us - v));
        copy(variant, partlen, v, (size_t)((dash ? dash : us) - v));
        if (dash) copy(label, partlen, dash + 1, (size_t)(us - dash) - 1);
        if (wpb) *wpb = (unsigned)w;
        return NAMES_LOG;
    }
    return NAMES_UNKNOWN;
}

int names_gpu(char *buf, size_t len, int ordinal, const char *uuid, const char *name)
{
    if (ordinal < 0 || !uuid || !name) return -1;
    char slug[96];
    size_t k = 0;
    int dash = 0;
    for (const char *p = name; *p && k + 2 < sizeof slug; p++) {
        const char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) {
            if (dash && k) slug[k++] = '-';
            dash = 0;
            slug[k++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        } else {
            dash = 1;
        }
    }
    slug[k] = 0;
    const char *u = strncmp(uuid, "GPU-", 4) == 0 ? uuid + 4 : uuid;
    char hex[9];
    size_t h = 0;
    for (; h < 8 && ((u[h] >= '0' && u[h] <= '9') || (u[h] >= 'a' && u[h] <= 'f') || (u[h] >= 'A' && u[h] <= 'F')); h++)
        hex[h] = u[h];
    hex[h] = 0;
    if (!k || !h) return -1;
    return put(len, snprintf(buf, len, "gpu%d-%s-%s", ordinal, hex, slug));
}

const char *names_kind_name(names_kind k)
{
    static const char *const kinds[] = {"unknown", "summary", "log", "sweep", "sectors", "sass",
                                        "latency_stats", "ladder", "fixed", "logdir", "ncu",
                                        "legacy", "ncu_table"};
    return (unsigned)k < sizeof kinds / sizeof kinds[0] ? kinds[k] : "unknown";
}

const char *names_reference_section(const char *base)
{
    if (!base) return NULL;
    if (fixed_file_family(base)) return "families";
    char exp[64];
    if (!strcmp(base, "device.tsv") || !strcmp(base, "nvidia_smi.csv")) return "device";
    if (!strcmp(base, "overhead.tsv")) return "overhead";
    if (!strcmp(base, "sampling.tsv")) return "sampling";
    switch (names_parse(base, exp, NULL, NULL, NULL, sizeof exp, NULL)) {
    case NAMES_NCU_TABLE: return "families";
    case NAMES_SUMMARY:
        return names_family_script(exp) ? "families" : "summaries";
    case NAMES_LATENCY_STATS: return "summaries";
    case NAMES_LOG:
    case NAMES_LOGDIR: return "logs";
    case NAMES_SWEEP: return "sweeps";
    case NAMES_SASS: return "sass";
    case NAMES_LADDER: return "latency";
    default: return NULL;
    }
}

int names_command(char *buf, size_t len, const char *dir, const char *base)
{
    if (!buf || !len || !dir || !base) return -1;
    char exp[64], variant[64];
    unsigned wpb = 0;
    const names_kind k = names_parse(base, exp, variant, NULL, NULL, sizeof exp, &wpb);
    const char *sec = names_reference_section(base);
    if (k == NAMES_SWEEP)
        return put(len, snprintf(buf, len, "scripts/occupancy_profile.sh %s_%s %u --out %s "
                                           "(or scripts/reference.sh %s --only sweeps)",
                                 exp, variant, wpb, dir, dir));
    if (k == NAMES_SECTORS || k == NAMES_NCU)
        return put(len, snprintf(buf, len, "scripts/ncu_profile.sh --out %s", dir));
    const fam_entry *owner = fixed_file_family(base);
    if (owner && owner->runs->script)
        return put(len, snprintf(buf, len, "%s %s%s%s%s (or scripts/reference.sh %s --only families)",
                                 owner->runs->script, dir, owner->runs->script_ladder ? " --ladder " : "",
                                 owner->runs->script_ladder ? dir : "",
                                 owner->runs->script_ladder ? "/latency_ca.tsv" : "", dir));
    const char *script = names_family_script(exp);
    if (k == NAMES_NCU_TABLE)
        return put(len, snprintf(buf, len, "%s %s --ncu-only (needs Nsight Compute)",
                                 script ? script : "scripts/reference.sh", dir));
    if (k == NAMES_SUMMARY && script)
        return put(len, snprintf(buf, len, "%s %s (or scripts/reference.sh %s --only families)",
                                 script, dir, dir));
    if (!sec) return -1;
    return put(len, snprintf(buf, len, "scripts/reference.sh %s --only %s", dir, sec));
}

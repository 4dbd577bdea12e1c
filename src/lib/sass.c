/* sass.c - see sass.h. */
#define _POSIX_C_SOURCE 200809L
#include "sass.h"
#include "grow.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

void sass_free(sass_file *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nfn; i++) free(s->fn[i].insn);
    free(s->fn);
    memset(s, 0, sizeof *s);
}

static sass_func *new_func(sass_file *s, const char *name, size_t *cap)
{
    sass_func *fn = grow_room(s->fn, s->nfn, cap, sizeof *fn, 64);
    if (!fn) return NULL;
    s->fn = fn;
    sass_func *f = &s->fn[s->nfn++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    return f;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    size_t k = 0;
    while (isspace((unsigned char)s[k])) k++;
    memmove(s, s + k, strlen(s + k) + 1);
}

int sass_parse(FILE *f, sass_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char line[1024];
    size_t cap = 0, icap = 0, total = 0, bytes = 0;
    sass_func *cur = NULL;
    while (fgets(line, sizeof line, f)) {
        char *p;
        /* fgets stops at a newline or a full buffer; a NUL byte hides the
         * length, so a piece without its newline counts as a full buffer */
        const size_t got = strlen(line);
        bytes += got && line[got - 1] == '\n' ? got : sizeof line - 1;
        if (bytes > SASS_MAX_BYTES) {
            set_err(err, errlen, "more than %u MiB of text: not a SASS listing of this toolkit",
                    SASS_MAX_BYTES >> 20);
            sass_free(out);
            return -1;
        }
        if ((p = strstr(line, "Function : ")) != NULL || strncmp(line, "== ", 3) == 0) {
            char name[160];
            const char *src = p ? p + 11 : line + 3;
            const size_t len = strcspn(src, " \t\r\n");
            snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), src);
            cur = new_func(out, name, &cap);
            icap = 0;
            if (!cur) goto oom;
            continue;
        }
        /* an instruction: optional blanks, the address comment, the text */
        p = line;
        while (isspace((unsigned char)*p)) p++;
        if (strncmp(p, "/*", 2) != 0 || !cur) continue;
        char *end;
        unsigned long addr = strtoul(p + 2, &end, 16);
        if (end == p + 2 || strncmp(end, "*/", 2) != 0) continue;
        char text[512];
        snprintf(text, sizeof text, "%s", end + 2);
        char *semi = strchr(text, ';');
        if (!semi) continue;   /* the encoding-only lines */
        *semi = 0;
        trim(text);
        if (!*text) continue;
        sass_insn in;
        memset(&in, 0, sizeof in);
        in.addr = addr;
        char *t = text;
        if (*t == '@') {
            size_t k = strcspn(t, " \t");
            snprintf(in.pred, sizeof in.pred, "%.*s", (int)k, t);
            t += k;
            while (isspace((unsigned char)*t)) t++;
        }
        size_t k = strcspn(t, " \t");
        snprintf(in.op, sizeof in.op, "%.*s", (int)k, t);
        t += k;
        while (isspace((unsigned char)*t)) t++;
        snprintf(in.operands, sizeof in.operands, "%s", t);
        if (!strcmp(in.op, "NOP")) continue;
        if (++total > SASS_MAX_INSNS) {
            set_err(err, errlen, "more than %u instructions: not a SASS listing of this toolkit",
                    SASS_MAX_INSNS);
            sass_free(out);
            return -1;
        }
        sass_insn *ni = grow_room(cur->insn, cur->n, &icap, sizeof *ni, 256);
        if (!ni) goto oom;
        cur->insn = ni;
        cur->insn[cur->n++] = in;
    }
    if (ferror(f)) {
        set_err(err, errlen, "read error: %s", strerror(errno));
        sass_free(out);
        return -1;
    }
    if (out->nfn == 0) {
        set_err(err, errlen, "no function found (expected the output of cuobjdump -sass)");
        return -1;
    }
    return 0;
oom:
    set_err(err, errlen, "out of memory");
    sass_free(out);
    return -1;
}

int sass_read(const char *path, sass_file *out, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        memset(out, 0, sizeof *out);
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char e[256];
    int rc = sass_parse(f, out, e, sizeof e);
    if (rc) set_err(err, errlen, "%s: %s", path, e);
    if (f != stdin) fclose(f);
    return rc;
}

const sass_func *sass_find(const sass_file *s, const char *name)
{
    for (size_t i = 0; i < s->nfn; i++)
        if (!strcmp(s->fn[i].name, name)) return &s->fn[i];
    return NULL;
}

int sass_op_is(const sass_insn *i, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(i->op, prefix, n) == 0 && (i->op[n] == 0 || i->op[n] == '.');
}

/* Does operand text s read register r (as "R12", not "R120" or "UR12")? */
static int reads_reg(const char *s, int r)
{
    char want[16];
    snprintf(want, sizeof want, "R%d", r);
    const size_t n = strlen(want);
    for (const char *p = s; (p = strstr(p, want)) != NULL; p++) {
        const int left_ok = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const int right_ok = !isdigit((unsigned char)p[n]);
        if (left_ok && right_ok) return 1;
    }
    return 0;
}

int sass_check_region(const sass_func *f, int open, int close, char *msg, size_t msglen)
{
    size_t a = 0, b = 0;
    int nclk = 0;
    for (size_t i = 0; i < f->n; i++)
        if (strstr(f->insn[i].operands, "SR_CLOCKLO")) {
            nclk++;
            if (nclk == open) a = i;
            if (nclk == close) { b = i; break; }
        }
    if (nclk < close || b <= a) {
        set_err(msg, msglen, "%s: region not found (%d clock reads)", f->name, nclk);
        return -1;
    }
    /* the value-returning global accesses: loads, and atomics that return
     * the old value (ATOMG PT, Rd, [addr], Rv: a predicate comes first) */
    size_t last = 0;
    for (size_t i = a + 1; i < b; i++)
        if (sass_op_is(&f->insn[i], "LDG") || sass_op_is(&f->insn[i], "ATOMG")) last = i;
    if (!last) {
        set_err(msg, msglen, "%s: no LDG or ATOMG between the clock reads", f->name);
        return -1;
    }
    const sass_insn *ld = &f->insn[last];
    const char *dtext = ld->operands;
    const char *pred_end = strchr(dtext, ',');
    if (sass_op_is(ld, "ATOMG") && dtext[0] == 'P' && pred_end) {
        dtext = pred_end + 1;
        while (isspace((unsigned char)*dtext)) dtext++;
    }
    int dst = -1;
    if (sscanf(dtext, "R%d", &dst) != 1) {
        set_err(msg, msglen, "%s: cannot read the destination of \"%s %s\"", f->name, ld->op, ld->operands);
        return -1;
    }
    const int width = strstr(ld->op, ".128") ? 4 : strstr(ld->op, ".64") ? 2 : 1;
    for (size_t i = last + 1; i < b; i++) {
        const sass_insn *u = &f->insn[i];
        /* sources: every operand of a store; the operands after the
         * destination of anything else */
        const char *src = u->operands;
        if (!sass_op_is(u, "STG") && !sass_op_is(u, "STS") && !sass_op_is(u, "ST")) {
            const char *comma = strchr(src, ',');
            src = comma ? comma + 1 : "";
        }
        for (int k = 0; k < width; k++)
            if (reads_reg(src, dst + k)) {
                set_err(msg, msglen, "%s %s used by %s %s", ld->op, ld->operands, u->op, u->operands);
                return 0;
            }
    }
    set_err(msg, msglen, "%s: the value of \"%s %s\" is not used before the closing clock read",
            f->name, ld->op, ld->operands);
    return -1;
}

void sass_ldst_pattern(const sass_func *f, char *out, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < f->n && k + 1 < len; i++) {
        if (sass_op_is(&f->insn[i], "LDG")) out[k++] = 'L';
        else if (sass_op_is(&f->insn[i], "STG")) out[k++] = 'S';
    }
    if (len) out[k < len ? k : len - 1] = 0;
}

size_t sass_count(const sass_func *f, const char *prefix)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++) n += sass_op_is(&f->insn[i], prefix);
    return n;
}

size_t sass_backward_branches(const sass_func *f)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (!sass_op_is(&f->insn[i], "BRA")) continue;
        const char *t = strstr(f->insn[i].operands, "0x");
        if (!t) continue;
        const unsigned long target = strtoul(t, NULL, 16);
        if (target < f->insn[i].addr) n++;
    }
    return n;
}

/* Is the function-name line's name one sass_select keeps? */
static int selected(const char *line, const char *prefix, const char *except)
{
    const char *p = strstr(line, "Function : ");
    if (!p) return 0;
    p += 11;
    const size_t len = strcspn(p, " \t\r\n");
    const size_t pl = strlen(prefix);
    if (len < pl || strncmp(p, prefix, pl) != 0) return 0;
    if (except && *except) {
        const size_t el = strlen(except);
        if (len >= el && strncmp(p + len - el, except, el) == 0) return 0;
    }
    return 1;
}

long sass_select(FILE *in, FILE *out, const char *prefix, const char *except)
{
    char line[1024];
    long n = 0;
    int copying = 0, whole = 1; /* whole: line starts at a line's beginning */
    while (fgets(line, sizeof line, in)) {
        const int starts = whole;
        whole = strchr(line, '\n') != NULL;
        if (starts && strstr(line, "Function : ")) {
            copying = selected(line, prefix, except);
            n += copying;
        } else if (starts && strncmp(line, "Fatbin ", 7) == 0) {
            copying = 0;
        }
        if (copying && fputs(line, out) == EOF) return -1;
    }
    return fflush(out) == 0 && !ferror(out) ? n : -1;
}

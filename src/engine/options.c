/*
 * options.c - the engine's command line: the common options (the same
 * spellings in every program), which of them apply to this program, --help,
 * the positional arguments, --kernel and --sample.
 *
 * The option table is built into the run (its rows point at r->opt), so that
 * parsing writes no global.
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <stdlib.h>
#include <string.h>

void eng_opts_defaults(eng_opts *o)
{
    memset(o, 0, sizeof *o);
    o->reps = 10;
    o->min_reps = 5;
    o->precision = 0.5;
    o->warmup = 2;
    o->seed = 12345;
    o->out_dir = "data";
    o->devices = "0";
    o->carveout = 100;
    o->level = 1;
    o->max_overhead = 1.0;
    o->sample = "auto";
    o->min_records = 65536;
}

#define LIST_OPTION(field, option, help, print) CLI_FLAG_OPT(option, &o->field, help),
#define LIST_ASKED(field, option, help, print) + (o->field != 0)

int eng_host_lists_asked(const eng_opts *o) { return 0 ENG_LISTS_HOST(LIST_ASKED); }
int eng_gpu_lists_asked(const eng_opts *o) { return 0 ENG_LISTS_GPU(LIST_ASKED); }

/* The common options, their values going to *o; t has room for ENG_MAX_COMMON rows. */
static void common_options(eng_opts *o, cli_opt *t)
{
    const cli_opt rows[] = {
        CLI_STRING_OPT("--kernel", &o->kernels, "K[,K]",
            "run only these variants (see --list-kernels; default: all)"),
        ENG_LISTS_HOST(LIST_OPTION)
        CLI_NUM_OPT("--reps", CLI_U64, 1, 10000, &o->reps, "R",
            "the most timed launches of each kernel (default 10); medians are reported"),
        CLI_NUM_OPT("--min-reps", CLI_U64, 1, 10000, &o->min_reps, "R",
            "the fewest timed launches (default 5; --reps when that is smaller)"),
        {"--precision", 0, CLI_DOUBLE, 0, 0, 0, 100, &o->precision, "PCT",
         "stop timing a kernel once the 95 % bootstrap interval of its median is\n"
         "within PCT % of it on both sides (default 0.5; 0: always --reps launches)", 0, 0},
        CLI_NUM_OPT("--warmup", CLI_U64, 0, 1000, &o->warmup, "W", "untimed launches first (default 2)"),
        CLI_STRING_OPT("--sample", &o->sample, "K|auto|overhead",
            "record the warps of one block in K (K a power of two; 1 = all).  auto\n"
            "(default): the sparsest K that still records --min-records warps and 2\n"
            "blocks per SM, made sparser while the overhead exceeds --max-overhead;\n"
            "overhead: the densest K whose overhead is <= --max-overhead"),
        CLI_NUM_OPT("--min-records", CLI_COUNT, 0, 1ull << 40, &o->min_records, "R",
            "records --sample auto keeps at least (default 65536; all when fewer)"),
        {"--max-overhead", 0, CLI_DOUBLE, 0, 0, 0, 100, &o->max_overhead, "PCT",
         "overhead of the probes that --sample auto accepts (default 1)", 0, 0},
        CLI_FLAG_OPT("--no-probes", &o->no_probes,
            "validate and time the clean twin only; no probes, no logs"),
        {"--seed", 0, CLI_U64, 0, UINT64_MAX, 0, 0, &o->seed, "S",
         "seed of random inputs (default 12345)", 0, &o->seed_given},
        CLI_STRING_OPT("--device", &o->devices, "D|LIST|all",
            "CUDA device ordinal (default 0); a list (0,2) or all: one process per GPU,\n"
            "in parallel, each writing under --out DIR/<gpu> (its ordinal, UUID and name)"),
        CLI_STRING_OPT("--out", &o->out_dir, "DIR", "where logs go (default data)"),
        CLI_STRING_OPT("--table", &o->table, "FILE",
            "write the table to FILE (whole or not at all) instead of stdout"),
        CLI_NUM_OPT("--level", CLI_U64, 1, 9, &o->level, "L", "zlib level of the logs (default 1)"),
        CLI_NUM_OPT("--l2-fetch", CLI_U64, 0, 128, &o->l2_fetch, "B",
            "cudaLimitMaxL2FetchGranularity hint in bytes (0..128; 0 = leave it)"),
        {"--carveout", 0, CLI_U64, 0, 100, 0, 0, &o->carveout, "P",
         "shared-memory carveout percent of the unified L1/shared memory (default:\n"
         "per kernel, the smallest that keeps the resident blocks of 100, so that L1\n"
         "gets the rest; 100 in sweeps, so that SMEM alone sets the resident blocks)", 0,
         &o->carveout_given},
        ENG_LISTS_GPU(LIST_OPTION)
        CLI_FLAG_OPT("--sweep", &o->sweep,
            "occupancy sweep of one variant: every resident-block count (or --points),\n"
            "one row each with throughput, latency and the Little's law bound"),
        CLI_NUM_OPT("--points", CLI_LIST, 1, 64, &o->points, "LIST", "resident blocks per SM to sweep: 1-4,8,16"),
        CLI_STRING_OPT("--ladder", &o->ladder, "TSV",
            "latency ladder (./latency) whose DRAM plateau the sweep records"),
        {"--ceiling", 0, CLI_DOUBLE, 0, 0, 0, 1e7, &o->ceiling, "GBPS",
         "measured achievable DRAM bandwidth to record in the logs", 0, 0},
        {"--n", 0, CLI_COUNT, 0, 1ull << 36, 0, 0, &o->n_opt, "N",
         "elements, instead of the positional N (for scripts)", 0, &o->n_given},
        {"--wpb", 0, CLI_U64, 1, 32, 0, 0, &o->wpb_opt, "W",
         "warps per block, instead of the positional WPB (for scripts)", 0, &o->wpb_given},
        {"--smem", 0, CLI_U64, 0, 1u << 30, 0, 0, &o->smem_opt, "BYTES",
         "shared memory per block, instead of the positional SMEM", 0, &o->smem_given},
        CLI_STRING_OPT("--batch-file", &o->batch, "FILE",
            "run each line of FILE (arguments and options; '#' starts a comment) as a run\n"
            "of this program, in this process on one GPU, all rows in one table; options\n"
            "beside --batch-file apply to every line (bin/model_check writes such files)"),
        CLI_NUM_OPT("--configs-max", CLI_U64, 1, 1u << 20, &o->configs_max, "K",
            "run at most the first K configurations of each variant (tests, sanitizers)"),
        {"--quiet", 'q', CLI_FLAG, 0, 0, 0, 0, &o->quiet, 0, "no progress on stderr", 0, 0},
        CLI_END,
    };
    _Static_assert(sizeof rows / sizeof rows[0] <= ENG_MAX_COMMON, "ENG_MAX_COMMON is too small");
    memcpy(t, rows, sizeof rows);
}

/* Variant v has an instrumented kernel in this build (its first configuration
 * tells: a family probes all of a variant's configurations or none). */
int eng_variant_probed(const eng_run *r, int v)
{
    return !r->profile_only && r->fam->kernel(v, 0, ENG_PROBE) != NULL;
}

static int has_positional(const eng_family *f, const char *name)
{
    for (int i = 0; f->posnames[i]; i++)
        if (!strcmp(f->posnames[i], name)) return 1;
    return 0;
}

/* Why common option `name` does not apply to this program (a phrase for
 * "PROG: NAME does not apply to PROG: <phrase>"), or NULL when it does. */
static const char *not_applicable(const eng_run *r, const char *name)
{
    static const char *const logs_only[] = {"--sample", "--min-records", "--max-overhead",
                                             "--no-probes", "--level", "--ceiling", NULL};
    const eng_family *f = r->fam;
    int probed = 0;
    for (int v = 0; v < f->nvariants; v++) probed += eng_variant_probed(r, v);
    for (int i = 0; logs_only[i]; i++)
        if (!strcmp(name, logs_only[i]) && !probed)
            return r->profile_only ? "it times the clean kernels only, without probes or logs"
                                   : "this family has no probes and writes no per-warp logs";
    if (!strcmp(name, "--n") && !has_positional(f, "N"))
        return "it has no N (its sizes are its positional arguments, see --help)";
    if (!strcmp(name, "--wpb") && !has_positional(f, "WPB"))
        return "each variant fixes its own block, so there is no WPB";
    if (!strcmp(name, "--smem") && !has_positional(f, "SMEM"))
        return "it has no SMEM argument";
    if ((!strcmp(name, "--list-occupancy") || !strcmp(name, "--sweep") || !strcmp(name, "--points") ||
         !strcmp(name, "--ladder")) && !(has_positional(f, "WPB") && has_positional(f, "SMEM")))
        return "occupancy is set by SMEM and WPB, which it does not have";
    return NULL;
}

/* A program lists, and accepts, only the common options that mean something
 * to it: --help is built from apply, and an option of not_apply is parsed
 * without reading its value (so that its refusal is the first thing said)
 * and refused with the reason not_applicable() gives. */
static void split_options(eng_run *r)
{
    cli_opt common[ENG_MAX_COMMON];
    eng_optsplit *s = &r->cli;
    size_t na = 0, nn = 0;
    common_options(&r->opt, common);
    memset(s, 0, sizeof *s);
    for (size_t i = 0; common[i].name; i++) {
        if (!not_applicable(r, common[i].name)) {
            s->apply[na] = common[i];
            /* a program without logs writes under --out only the tables of a
             * run on several GPUs: say that, not "where logs go" */
            if (!strcmp(common[i].name, "--out") && not_applicable(r, "--level"))
                s->apply[na].help = "with --device LIST or all: where each GPU's folder and table go\n"
                                    "(default data); this program writes no logs";
            na++;
            continue;
        }
        cli_opt o = common[i];
        if (o.kind == CLI_FLAG) {
            o.dest = &s->not_apply_flag;
            o.lo = 0;
        } else {
            o.kind = CLI_STRING;
            o.dest = &s->not_apply_value;
        }
        o.given = &s->not_apply_given[nn];
        s->not_apply[nn++] = o;
    }
}

/* An option of not_apply was given: say which and why (exit status 2). */
static int refuse_not_applicable(const eng_run *r)
{
    const eng_optsplit *s = &r->cli;
    for (size_t i = 0; s->not_apply[i].name; i++)
        if (s->not_apply_given[i])
            return cli_usage_error(r->prog, "%s does not apply to %s: %s", s->not_apply[i].name, r->prog,
                                   not_applicable(r, s->not_apply[i].name));
    return 0;
}

int eng_parse_options(eng_run *r, int argc, char **argv, cli_parse_result *pr)
{
    eng_opts_defaults(&r->opt);
    split_options(r);
    const cli_opt *tables[3] = {r->cli.apply, r->cli.not_apply, r->fam->options};
    int rc = cli_parse(r->prog, argc, argv, tables, r->fam->options ? 3 : 2, ENG_MAX_POS, pr);
    if (rc || pr->help) return rc;
    return refuse_not_applicable(r);
}

void eng_usage(const eng_run *r, FILE *f)
{
    const eng_family *F = r->fam;
    fprintf(f, "usage: %s", r->prog);
    for (int i = 0; F->posnames[i]; i++) fprintf(f, " %s", F->posnames[i]);
    fprintf(f, " [options]\n\n%s\n\n", F->about);
    for (int i = 0; F->posnames[i]; i++) {
        const char *p = F->posnames[i];
        const char *what = !strcmp(p, "N") ? "elements of the data (100000000 or 1e8)"
                         : !strcmp(p, "SMEM") ? "dynamic shared memory per block, in bytes; it limits resident\n"
                                                "         blocks per SM and so occupancy (0 = no limit from it)"
                         : !strcmp(p, "WPB") ? "warps per block, 1..32"
                         : "see above";
        fprintf(f, "  %-6s %s (default %s)\n", p, what, F->posdefaults[i] ? F->posdefaults[i] : "none");
    }
    fprintf(f, "\nvariants (--kernel; all by default):\n");
    for (int v = 0; v < F->nvariants; v++)
        fprintf(f, "  %-20s %s\n", F->variants[v].name, F->variants[v].about);
    int probed = 0;
    for (int v = 0; v < F->nvariants; v++) probed += eng_variant_probed(r, v);
    if (r->profile_only)
        fprintf(f, "\nThis build times the clean kernels only (no probes, no logs): it is the\n"
                   "program to run under Nsight Compute.\n");
    else if (!probed)
        fprintf(f, "\nEach variant is validated against a CPU reference in a launch of its own;\n"
                   "then it is timed (CUDA events, medians).  This family has no probes and\n"
                   "writes no per-warp logs: it measures throughput only.\n");
    else
        fprintf(f, "\nEach variant is validated against a CPU reference in a launch of its own;\n"
                   "then its clean twin and its instrumented kernel are timed (CUDA events,\n"
                   "medians), and one per-warp log is written: DIR/%s_<variant>_<WPB>.bin.\n",
                F->name);
    fprintf(f, "\noptions:\n");
    cli_print_options(f, r->cli.apply);
    fprintf(f, "  -h, --help           this text\n");
    if (F->options) {
        fprintf(f, "\n%s options:\n", F->name);
        cli_print_options(f, F->options);
    }
    fprintf(f, "\nstdout: '#' lines describing the device and the run, then one TSV row per\n"
               "variant (or per sweep point).  Exit status: 0 ok, 1 runtime failure (no GPU,\n"
               "validation failed, CUDA error, I/O), 2 usage error.\n");
}

/* ------------------------------------------------------------ positionals */

cli_kind eng_positional_range(const char *name, uint64_t *lo, uint64_t *hi)
{
    if (!strcmp(name, "SMEM")) { *lo = 0; *hi = 1u << 30; return CLI_U64; }
    if (!strcmp(name, "WPB")) { *lo = 1; *hi = 32; return CLI_U64; }
    *lo = 1;   /* the sizes: N, N0, N1, DSIZE */
    *hi = 1ull << 36;
    return CLI_COUNT;
}

int eng_list_options(const eng_run *r)
{
    const eng_family *F = r->fam;
    printf("option\tkind\tlo\thi\tchoices\tscope\n");
    for (int i = 0; F->posnames[i]; i++) {   /* the positionals, by name */
        uint64_t lo, hi;
        const cli_kind k = eng_positional_range(F->posnames[i], &lo, &hi);
        printf("%s\t%s\t%llu\t%llu\t-\tpositional\n", F->posnames[i], cli_kind_name(k), (unsigned long long)lo,
               (unsigned long long)hi);
    }
    cli_list_options(stdout, r->cli.apply, "common");
    cli_list_options(stdout, F->options, "family");
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* Positional `name`'s value s, parsed within its range: 0, or -1 with err. */
static int parse_one_positional(const char *name, const char *s, uint64_t *v, char *err, size_t errlen)
{
    uint64_t lo, hi;
    if (eng_positional_range(name, &lo, &hi) == CLI_U64) return cli_parse_range(name, s, lo, hi, v, err, errlen);
    return cli_parse_count(name, s, hi, v, err, errlen);
}

/* A partial group of positionals, or too few or too many: 0 or 2. */
static int check_count(const eng_run *r, const cli_parse_result *pr, int nall)
{
    const eng_family *F = r->fam;
    int nreq = 0;
    while (nreq < nall && !F->posdefaults[nreq]) nreq++;
    const int all_default = nreq == 0;
    const int group = F->pos_group > 0 && F->pos_group < nall ? F->pos_group : nall;
    if (pr->npos > nall) return cli_usage_error(r->prog, "too many arguments (from '%s')", pr->pos[nall]);
    if (all_default && pr->npos != 0 && pr->npos < group) {  /* a partial group */
        char names[64] = "";
        for (int i = 0; i < group; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " " : "", F->posnames[i]);
        /* a value that is no value of its place is the likelier mistake
         * (`./readonly abc`): name it before counting */
        for (int i = 0; i < pr->npos; i++) {
            uint64_t v;
            char err[256];
            if (parse_one_positional(F->posnames[i], pr->pos[i], &v, err, sizeof err) != 0)
                return cli_usage_error(r->prog, "%s (expected %s%s, or none of them)", err, names,
                                       group < nall ? " first" : "");
        }
        return cli_usage_error(r->prog, "expected %s%s (or none of them), got %d argument%s", names,
                               group < nall ? " first" : "", pr->npos, pr->npos == 1 ? "" : "s");
    }
    if (pr->npos < nreq) return cli_usage_error(r->prog, "expected at least %d arguments (see --help)", nreq);
    return 0;
}

/* n of a family without N: the product of its sizes (eng_family.size_pos;
 * by default the positionals named N...), 0 when it has none. */
static uint64_t n_from_sizes(const eng_family *F, const eng_ctx *c, int nall)
{
    uint64_t prod = 1;
    int any = 0;
    for (int i = 0; i < nall; i++) {
        const int size = F->size_pos ? (F->size_pos >> i) & 1u : F->posnames[i][0] == 'N';
        if (size) prod *= c->pos[i], any = 1;
    }
    return any ? prod : 0;
}

/* The positionals, then --n, --wpb and --smem over them: r->ctx's pos, n,
 * smem_bytes, wpb and tpb.  Nothing writes them afterwards. */
int eng_parse_positional(eng_run *r, const cli_parse_result *pr)
{
    const eng_family *F = r->fam;
    eng_ctx *c = &r->ctx;
    int nall = 0, rc;
    while (F->posnames[nall]) nall++;
    if ((rc = check_count(r, pr, nall)) != 0) return rc;
    char err[256];
    for (int i = 0; i < nall; i++) {
        const char *name = F->posnames[i];
        const char *s = i < pr->npos ? pr->pos[i] : F->posdefaults[i];
        uint64_t v = 0;
        rc = parse_one_positional(name, s, &v, err, sizeof err);
        if (rc != 0) return cli_usage_error(r->prog, "%s", err);
        c->pos[i] = v;
        if (!strcmp(name, "N")) c->n = v;
        if (!strcmp(name, "SMEM")) c->smem_bytes = (uint32_t)v;
        if (!strcmp(name, "WPB")) c->wpb = (uint32_t)v;
    }
    const int has_n = has_positional(F, "N");
    if (r->opt.n_given) {
        if (!has_n) return cli_usage_error(r->prog, "--n: %s has no N (see --help)", F->name);
        for (int i = 0; i < nall; i++)
            if (!strcmp(F->posnames[i], "N")) c->pos[i] = r->opt.n_opt;
        c->n = r->opt.n_opt;
    }
    if (!has_n) c->n = n_from_sizes(F, c, nall);
    if (r->opt.wpb_given) c->wpb = (uint32_t)r->opt.wpb_opt;
    if (r->opt.smem_given) c->smem_bytes = (uint32_t)r->opt.smem_opt;
    for (int i = 0; i < nall; i++) {
        if (!strcmp(F->posnames[i], "WPB")) c->pos[i] = c->wpb;
        if (!strcmp(F->posnames[i], "SMEM")) c->pos[i] = c->smem_bytes;
    }
    if (!c->wpb) c->wpb = 4;
    c->tpb = 32 * c->wpb;
    return 0;
}

/* ------------------------------------------------------------ --kernel, --sample */

int eng_select_kernels(eng_run *r)
{
    const eng_family *F = r->fam;
    if (!r->opt.kernels) {
        for (int v = 0; v < F->nvariants; v++) r->selected[v] = 1;
        return 0;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", r->opt.kernels);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int v = 0; v < F->nvariants; v++)
            if (!strcmp(tok, F->variants[v].name)) r->selected[v] = 2, found = 1;
        if (!found) {
            char names[512] = "";
            for (int v = 0; v < F->nvariants; v++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", v ? ", " : "",
                         F->variants[v].name);
            return cli_usage_error(r->prog, "unknown kernel '%s' (%s)", tok, names);
        }
    }
    return 0;
}

int eng_parse_sample(eng_run *r)
{
    const char *s = r->opt.sample;
    r->fixed_K = 0;
    r->sample_mode_overhead = !strcmp(s, "overhead");
    if (!strcmp(s, "auto") || r->sample_mode_overhead) return 0;
    uint64_t k;
    char err[256];
    if (cli_parse_count("--sample", s, 1u << 30, &k, err, sizeof err) != 0)
        return cli_usage_error(r->prog, "%s (or auto)", err);
    if (k & (k - 1))
        return cli_usage_error(r->prog, "--sample %s: K must be a power of two (1, 2, 4, ...)", s);
    r->fixed_K = (uint32_t)k;
    return 0;
}

int eng_first_selected(const eng_run *r)
{
    for (int v = 0; v < r->fam->nvariants; v++)
        if (r->selected[v]) return v;
    return 0;
}

int eng_nconfigs(const eng_run *r, int v)
{
    int nc = r->fam->configs ? r->fam->configs(&r->ctx, v) : 1;
    if (r->opt.configs_max && (uint64_t)nc > r->opt.configs_max) nc = (int)r->opt.configs_max;
    return nc;
}

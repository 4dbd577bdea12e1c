/*
 * test_sector_recipe - the families' ncu recipes filled in (sector_recipe.h):
 * the templates' fields, the variants both the model and the program have,
 * the rows each family's recipe writes (and --quick's subset), and the
 * reader of ncu --query-metrics' list.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "sector_recipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_expand(void)
{
    char out[128], err[256];
    CHECK_EQ_I(sf_recipe_expand("{N} 0 {WPB} --kernel {V}", "1e7", 4, "a,b", out, sizeof out,
                                err, sizeof err), 0);
    CHECK(strcmp(out, "1e7 0 4 --kernel a,b") == 0);
    CHECK_EQ_I(sf_recipe_expand("^copy_({V|})(_b[0-9]+)?$", "1e7", 4, "a,b,c", out, sizeof out,
                                err, sizeof err), 0);
    CHECK(strcmp(out, "^copy_(a|b|c)(_b[0-9]+)?$") == 0);
    CHECK_EQ_I(sf_recipe_expand("", "1", 1, "", out, sizeof out, err, sizeof err), 0);
    CHECK(strcmp(out, "") == 0);
    CHECK_EQ_I(sf_recipe_expand("x {M}", "1", 1, "", out, sizeof out, err, sizeof err), -1);
    CHECK_STR_HAS(err, "unknown field");
    CHECK_EQ_I(sf_recipe_expand("{V}", "1", 1, "abcdefghij", out, 8, err, sizeof err), -1);
    CHECK_STR_HAS(err, "does not fit");
    /* {V-SUF}, {V|-SUF}: less the variants whose name ends in SUF */
    CHECK_EQ_I(sf_recipe_expand("--kernel {V-_nc}", "1", 1, "x_ca,x_nc,y_nc,z,_nc,w_ncx", out,
                                sizeof out, err, sizeof err), 0);
    CHECK(strcmp(out, "--kernel x_ca,z,w_ncx") == 0);
    CHECK_EQ_I(sf_recipe_expand("^p_({V|-_nc})$", "1", 1, "x_nc,x_ca,y_cg,y_nc", out, sizeof out,
                                err, sizeof err), 0);
    CHECK(strcmp(out, "^p_(x_ca|y_cg)$") == 0);
    CHECK_EQ_I(sf_recipe_expand("{V-zz}", "1", 1, "a,b", out, sizeof out, err, sizeof err), 0);
    CHECK(strcmp(out, "a,b") == 0);
    CHECK_EQ_I(sf_recipe_expand("{V-}", "1", 1, "a", out, sizeof out, err, sizeof err), -1);
    CHECK_STR_HAS(err, "unknown field");
    CHECK_EQ_I(sf_recipe_expand("{V-_nc", "1", 1, "a", out, sizeof out, err, sizeof err), -1);
    CHECK_EQ_I(sf_recipe_expand("{Vx}", "1", 1, "a", out, sizeof out, err, sizeof err), -1);
    CHECK_EQ_I(sf_recipe_expand("{V-_b}", "1", 1, "a_b,c_bb,d_b", out, 6, err, sizeof err), 0);
    CHECK(strcmp(out, "c_bb") == 0);
}

static void test_variants(void)
{
    const struct fam_model *m = sf_model("copy");
    CHECK(m != NULL);
    if (!m)
        return;
    char v[512], miss[512], extra[512], err[256];
    /* the program lacks vector4, has memcpy (no model) and a name sharing a prefix */
    const char *have = "stride\tx\nint4\tabout\nmemcpy\tcopy\nvector\tx\ngrid_scalar\n";
    CHECK_EQ_I(sf_recipe_variants(m, have, v, sizeof v, miss, sizeof miss, extra, sizeof extra,
                                  err, sizeof err), 3);
    CHECK(strcmp(v, "stride,int4,grid_scalar") == 0);
    CHECK_STR_HAS(miss, "stride_store,stride16,batch,");
    CHECK(strstr(miss, "vector4") != NULL && strstr(miss, "int4") == NULL);
    CHECK(strcmp(extra, "memcpy,vector") == 0);
    CHECK_EQ_I(sf_recipe_variants(m, NULL, v, sizeof v, miss, sizeof miss, extra, sizeof extra,
                                  err, sizeof err), (int)m->nvariants);
    CHECK(strcmp(miss, "") == 0 && strcmp(extra, "") == 0);
    CHECK_EQ_I(sf_recipe_variants(m, NULL, v, 8, miss, sizeof miss, extra, sizeof extra, err,
                                  sizeof err), -1);
}

/* The rows of FAMILY's recipe for the program's VARIANTS, and the text written. */
static int rows_of(const char *family, int quick, const char *variants, char *text, size_t len)
{
    const struct fam_model *m = sf_model(family);
    char err[256];
    CHECK(m != NULL);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!m || !f)
        return -1;
    CHECK_EQ_I(sf_recipe_write(f, NULL, m, quick, m->ncu_n, 4, variants, NULL, err, sizeof err), 0);
    rewind(f);
    size_t n = fread(text, 1, len - 1, f);
    text[n] = 0;
    fclose(f);
    int lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += text[i] == '\n';
    return lines - 2;   /* the kernel_regex line and the header */
}

/* The same for the variants v1 and v2. */
static int rows(const char *family, int quick, char *text, size_t len)
{
    return rows_of(family, quick, "v1,v2", text, len);
}

static void test_recipes(void)
{
    static char t[16384];
    CHECK_EQ_I(rows("copy", 0, t, sizeof t), 1);
    CHECK_STR_HAS(t, "# kernel_regex\t(^copy_(v1|v2)(_b[0-9]+)?$)\nrun\targs\tkernel\tl2_fetch\tcompare\toutput\tline\n");
    CHECK_STR_HAS(t, "main\t1e7 0 4 --kernel v1,v2\t^copy_(v1|v2)(_b[0-9]+)?$\t-\t--family copy\tsectors\t1\n");
    CHECK(strstr(t, "--stride 1,2,4,32") == NULL);   /* the quick run is --quick's alone */
    /* --quick: its own run, fewer strides and batches, never the full one */
    CHECK_EQ_I(rows("copy", 1, t, sizeof t), 1);
    CHECK_STR_HAS(t, "quick\t1e7 0 4 --kernel v1,v2 --stride 1,2,4,32 --batch 1,4\t^copy_(v1|v2)(_b[0-9]+)?$\t-\t"
                  "--family copy\tsectors\t1\n");
    CHECK(strstr(t, "main\t") == NULL);
    CHECK_EQ_I(rows("patterns", 0, t, sizeof t), 1);
    CHECK(strstr(t, "--offset") == NULL && strstr(t, "main\t") != NULL);
    CHECK_EQ_I(rows("patterns", 1, t, sizeof t), 1);
    CHECK_STR_HAS(t, "quick\t1e7 0 4 --kernel v1,v2 --offset 0,1,16,32 --stride 1,2,32\t");
    /* quick leaves the _nc loads out, in the arguments and the regex */
    CHECK_EQ_I(rows_of("patterns", 1, "a_ca,a_nc,w", t, sizeof t), 1);
    CHECK_STR_HAS(t, "quick\t1e7 0 4 --kernel a_ca,w --offset 0,1,16,32 --stride 1,2,32\t^patterns_(a_ca|w)(_b[0-9]+)?$\t");
    /* the stencil: the lab's 16 geometries, 4 with --quick */
    CHECK_EQ_I(rows("stencil", 0, t, sizeof t), 16);
    CHECK_STR_HAS(t, "32x32_r2_lead_ld\t32 32 0 4 --kernel v1,v2 --radius 2 --lead-pad "
                  "--pad-leading-dim\t^stencil_(v1|v2)$\t-\t--family stencil --n0 32 --n1 32 "
                  "--radius 2 --lead-pad --pad-leading-dim\tsectors\t16\n");
    CHECK_STR_HAS(t, "# kernel_regex\t(^stencil_(v1|v2)$)\n");   /* 16 runs, one regex */
    CHECK_EQ_I(rows("stencil", 1, t, sizeof t), 4);
    CHECK(strstr(t, "32x1") == NULL);
    /* readonly: 4 fetch limits, 8 strides, the other four kernels; quick 1 + 2 + 1 */
    CHECK_EQ_I(rows("readonly", 0, t, sizeof t), 13);
    CHECK_STR_HAS(t, "gran_32\t1e8 0 4 --kernel strided --stride 32\t^readonly_strided$\t32\t"
                  "--family readonly --l2-fetch-row 32\tl2_fetch\t2\n");
    CHECK_STR_HAS(t, "# kernel_regex\t(^readonly_strided$)|(^readonly_(strided|strided_float4)$)|"
                  "(^readonly_(baseline|float4|nondiverging|random_access)$)\n");
    CHECK_STR_HAS(t, "gran_default\t1e8 0 4 --kernel strided --stride 32\t^readonly_strided$\t0\t");
    CHECK_STR_HAS(t, "other\t1e8 0 4 --kernel baseline,float4,nondiverging,random_access\t");
    CHECK_EQ_I(rows("readonly", 1, t, sizeof t), 4);
    CHECK_STR_HAS(t, "strided_32\t");
    CHECK(strstr(t, "strided_2\t") == NULL && strstr(t, "gran_64") == NULL);
    CHECK_EQ_I(sf_ncu_output_name(SF_NCU_POOL)[0], 'p');
}

/* The batch file: one line a run, in the recipe's order, the run's fetch
 * limit on its line; "-" runs take the script's limit when it gave one. */
static void test_batch(void)
{
    const struct fam_model *m = sf_model("readonly");
    char err[256], text[16384], batch[8192];
    CHECK(m != NULL);
    if (!m)
        return;
    for (int given = 0; given < 2; given++) {
        FILE *f = tmpfile(), *b = tmpfile();
        CHECK(f && b);
        if (!f || !b)
            return;
        CHECK_EQ_I(sf_recipe_write(f, b, m, 1, m->ncu_n, 4, "", given ? "128" : NULL, err,
                                   sizeof err), 0);
        rewind(f);
        rewind(b);
        text[fread(text, 1, sizeof text - 1, f)] = 0;
        batch[fread(batch, 1, sizeof batch - 1, b)] = 0;
        fclose(f);
        fclose(b);
        /* quick: gran_default (the driver's: no option), strided 1 and 32, other */
        CHECK_STR_HAS(text, "\tl2_fetch\t1\n");
        CHECK_STR_HAS(text, "other\t");
        CHECK_STR_HAS(text, "\tpool\t4\n");
        if (given)
            CHECK(strcmp(batch, "1e8 0 4 --kernel strided --stride 32\n"
                                "1e8 0 4 --kernel strided,strided_float4 --stride 1 --l2-fetch 128\n"
                                "1e8 0 4 --kernel strided,strided_float4 --stride 32 --l2-fetch 128\n"
                                "1e8 0 4 --kernel baseline,float4,nondiverging,random_access --l2-fetch 128\n") == 0);
        else
            CHECK(strcmp(batch, "1e8 0 4 --kernel strided --stride 32\n"
                                "1e8 0 4 --kernel strided,strided_float4 --stride 1\n"
                                "1e8 0 4 --kernel strided,strided_float4 --stride 32\n"
                                "1e8 0 4 --kernel baseline,float4,nondiverging,random_access\n") == 0);
    }
    /* the full recipe: each fixed limit on its own line */
    FILE *f = tmpfile(), *b = tmpfile();
    CHECK(f && b);
    if (!f || !b)
        return;
    CHECK_EQ_I(sf_recipe_write(f, b, m, 0, m->ncu_n, 4, "", NULL, err, sizeof err), 0);
    rewind(b);
    batch[fread(batch, 1, sizeof batch - 1, b)] = 0;
    fclose(f);
    fclose(b);
    CHECK_STR_HAS(batch, "1e8 0 4 --kernel strided --stride 32\n"
                         "1e8 0 4 --kernel strided --stride 32 --l2-fetch 32\n"
                         "1e8 0 4 --kernel strided --stride 32 --l2-fetch 64\n"
                         "1e8 0 4 --kernel strided --stride 32 --l2-fetch 128\n"
                         "1e8 0 4 --kernel strided,strided_float4 --stride 1\n");
}

static void test_query(void)
{
    char path[] = "/tmp/test_sector_recipe.XXXXXX", err[256];
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    const char *text = "Device GH100\n  dram__sectors_read  Counter  sector  # of sectors\n"
                       "lts__t_sectors\tCounter\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    size_t len = 0;
    char *q = sf_query_read(path, &len, err, sizeof err);
    CHECK(q != NULL);
    CHECK_EQ_U(len, strlen(text));
    if (q) {
        CHECK_EQ_I(sf_query_has(q, "dram__sectors_read", 18), 1);
        CHECK_EQ_I(sf_query_has(q, "lts__t_sectors", 14), 1);
        CHECK_EQ_I(sf_query_has(q, "dram__sectors", 13), 0);   /* a prefix is not a name */
        CHECK_EQ_I(sf_query_has(q, "GH100", 5), 0);            /* not the first word */
    }
    free(q);
    unlink(path);
    CHECK(sf_query_read(path, &len, err, sizeof err) == NULL);
    CHECK_STR_HAS(err, "cannot open");
    /* from a stream: every byte, NUL-terminated; the stream stays open */
    char mem[] = "a__b  Counter\n";
    FILE *f = fmemopen(mem, strlen(mem), "r");
    CHECK(f != NULL);
    if (!f)
        return;
    q = sf_query_read_stream(f, "mem", &len, err, sizeof err);
    CHECK(q != NULL);
    CHECK_EQ_U(len, strlen(mem));
    if (q) {
        CHECK(strcmp(q, mem) == 0);
        CHECK_EQ_I(sf_query_has(q, "a__b", 4), 1);
    }
    CHECK(fgetc(f) == EOF);
    free(q);
    fclose(f);
}

int main(void)
{
    test_expand();
    test_variants();
    test_recipes();
    test_batch();
    test_query();
    return check_report("test_sector_recipe");
}

/* fuzz_sass - the SASS listing reader (src/lib/sass.h, cuobjdump -sass
 * output) and the checks sass_check runs on every function it found. */
#include "fuzz_common.h"
#include "sass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fuzz_stream(data, size);
    if (!f) return 0;
    sass_file s;
    char err[512];
    if (sass_parse(f, &s, err, sizeof err) == 0) {
        for (size_t i = 0; i < s.nfn && i < 32; i++) {
            const sass_func *fn = &s.fn[i];
            char pat[256], msg[256];
            sass_ldst_pattern(fn, pat, sizeof pat);
            sass_count(fn, "LDG");
            sass_backward_branches(fn);
            sass_check_region(fn, 0, fn->n ? (int)fn->n - 1 : 0, msg, sizeof msg);
            if (fn->n) sass_op_is(&fn->insn[0], "CS2R");
            sass_find(&s, fn->name);
        }
        sass_free(&s);
    }
    fclose(f);
    return 0;
}

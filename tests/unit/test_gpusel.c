/*
 * test_gpusel.c - the GPUs of nvidia-smi -L and the selection of --device
 * (src/lib/gpusel.c): real lines of an H100 host (with a MIG line), the
 * forms of the selection, and each refusal with its kind.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gpusel.h"

static const char *FOUR =
    "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-65a279f6-0ec4-5bb7-857d-1c87083bc711)\n"
    "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-1ab6f806-59e0-1d99-da3f-a7d19c88934d)\n"
    "  MIG 3g.40gb     Device  0: (UUID: MIG-11111111-2222-3333-4444-555555555555)\n"
    "GPU 2: NVIDIA H100 80GB HBM3 (UUID: GPU-22222222-59e0-1d99-da3f-a7d19c88934d)\n"
    "GPU 3: NVIDIA H100 80GB HBM3 (UUID: GPU-33333333-59e0-1d99-da3f-a7d19c88934d)";   /* no last newline */

static void test_parse(void)
{
    int o[GPUSEL_MAX];
    char err[256];
    CHECK_EQ_I(gpusel_parse_smi_list(FOUR, o, GPUSEL_MAX, err, sizeof err), 4);
    for (int i = 0; i < 4; i++) CHECK_EQ_I(o[i], i);
    CHECK_EQ_I(gpusel_parse_smi_list("", o, GPUSEL_MAX, err, sizeof err), 0);
    CHECK_EQ_I(gpusel_parse_smi_list("No devices were found\n", o, GPUSEL_MAX, err, sizeof err), 0);
    /* one GPU, and GPUs listed out of order (CUDA_VISIBLE_DEVICES does not
     * renumber nvidia-smi) */
    CHECK_EQ_I(gpusel_parse_smi_list("GPU 0: NVIDIA H200 (UUID: GPU-1)\n", o, GPUSEL_MAX, err, sizeof err), 1);
    CHECK_EQ_I(gpusel_parse_smi_list("GPU 5: A (UUID: x)\nGPU 2: A (UUID: y)\n", o, GPUSEL_MAX, err, sizeof err), 2);
    CHECK_EQ_I(o[0], 5);
    CHECK_EQ_I(o[1], 2);
    /* not GPU lines: no colon after the number, a word instead of it */
    CHECK_EQ_I(gpusel_parse_smi_list("GPU x: A\nGPU 1 A\nGPUS 2: A\n", o, GPUSEL_MAX, err, sizeof err), 0);
    CHECK_EQ_I(gpusel_parse_smi_list("GPU 1: A\nGPU 1: B\n", o, GPUSEL_MAX, err, sizeof err), -1);
    CHECK_STR_HAS(err, "GPU 1 twice");
    CHECK_EQ_I(gpusel_parse_smi_list(FOUR, o, 3, err, sizeof err), -1);
    CHECK_STR_HAS(err, "more than 3");
}

static void test_select(void)
{
    const int avail[] = {0, 1, 2, 3};
    int o[GPUSEL_MAX];
    char err[256];
    CHECK_EQ_I(gpusel_select("all", avail, 4, o, GPUSEL_MAX, err, sizeof err), 4);
    CHECK_EQ_I(o[3], 3);
    CHECK_EQ_I(gpusel_select("all", avail, 1, o, GPUSEL_MAX, err, sizeof err), 1);   /* a single GPU */
    CHECK_EQ_I(o[0], 0);
    CHECK_EQ_I(gpusel_select("2", avail, 4, o, GPUSEL_MAX, err, sizeof err), 1);
    CHECK_EQ_I(o[0], 2);
    CHECK_EQ_I(gpusel_select("3,1", avail, 4, o, GPUSEL_MAX, err, sizeof err), 2);
    CHECK_EQ_I(o[0], 3);
    CHECK_EQ_I(o[1], 1);
    /* the forms refused: usage errors */
    static const char *const bad[] = {"", "x", "1,", ",1", "1,,2", "1 2", "-1", "1.0", "99999", "0,all", NULL};
    for (int i = 0; bad[i]; i++) {
        CHECK_EQ_I(gpusel_select(bad[i], avail, 4, o, GPUSEL_MAX, err, sizeof err), -1);
        if (*bad[i]) CHECK_STR_HAS(err, "is not all, an ordinal");
    }
    CHECK_EQ_I(gpusel_select("1,1", avail, 4, o, GPUSEL_MAX, err, sizeof err), -1);
    CHECK_STR_HAS(err, "GPU 1 twice");
    /* a GPU this host does not have, or no GPU at all */
    CHECK_EQ_I(gpusel_select("4", avail, 4, o, GPUSEL_MAX, err, sizeof err), -2);
    CHECK_STR_HAS(err, "no GPU 4 (nvidia-smi lists 0, 1, 2, 3)");
    CHECK_EQ_I(gpusel_select("all", avail, 0, o, GPUSEL_MAX, err, sizeof err), -2);
    CHECK_STR_HAS(err, "lists no GPU");
}

int main(void)
{
    test_parse();
    test_select();
    return check_report("test_gpusel");
}

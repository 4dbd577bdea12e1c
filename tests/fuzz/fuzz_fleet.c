/* fuzz_fleet - a results folder as fleet reads it (src/lib/fleet.h): the
 * input is split at lines "=====" into device.tsv, latency_ca.tsv,
 * ceiling.tsv and overhead.tsv of a folder (a missing part: no such file),
 * which fleet_read_gpu reads; two copies of the GPU are then judged. */
#include "fuzz_common.h"
#include "fleet.h"

#include <unistd.h>

static const char *const parts[] = {"device.tsv", "latency_ca.tsv", "ceiling.tsv", "overhead.tsv"};

static char dir[64];

/* The folder goes when the fuzzer exits. */
static void remove_dir(void)
{
    char path[128];
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, parts[k]);
        unlink(path);
    }
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_fleet.XXXXXX");
        if (!mkdtemp(dir)) abort();
        atexit(remove_dir);
    }
    char *s = fuzz_string(data, size), *p = s;
    char path[128];
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, parts[k]);
        unlink(path);
        if (!p) continue;
        char *end = strstr(p, "\n=====\n");
        if (end) *end = 0;
        FILE *f = fopen(path, "w");
        if (!f) abort();
        fputs(p, f);
        fclose(f);
        p = end ? end + 7 : NULL;
    }
    free(s);
    static fleet_gpu g[2];
    char err[512];
    if (fleet_read_gpu(dir, "fuzz", &g[0], err, sizeof err) == 0) {
        g[1] = g[0];
        fleet_rule r;
        fleet_rule_default(&r);
        fleet_judge(g, 2, &r);
        char key[256];
        fleet_gpu_key(key, sizeof key, 0, g[0].uuid, g[0].name);
    }
    return 0;
}

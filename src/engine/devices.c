/*
 * devices.c - where a run writes and on which GPUs: the --out and --table
 * folders, --device LIST|all (one process per GPU), and the lock that keeps
 * two measurements off one GPU.
 */
#define _POSIX_C_SOURCE 200809L
#include "eng_run.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "devinfo.h"
#include "names.h"

/* --out must be a writable directory, or not exist yet below a writable
 * ancestor (it is created, with its parents, once a GPU is known to be there,
 * so a run that cannot start leaves nothing behind). */
int eng_dir_usable(const eng_run *r, const char *dir, const char *opt)
{
    struct stat st;
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (;;) {
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                fprintf(stderr, "%s: cannot use %s %s: %s is not a directory\n", r->prog, opt, dir, path);
                return -1;
            }
            if (access(path, W_OK | X_OK) != 0) {
                fprintf(stderr, "%s: cannot write to %s %s: %s: %s\n", r->prog, opt, dir, path,
                        strerror(errno));
                return -1;
            }
            return 0;
        }
        char *slash = strrchr(path, '/');
        if (!slash) { snprintf(path, sizeof path, "."); continue; }
        if (slash == path) { path[1] = 0; continue; }
        *slash = 0;
    }
}

int eng_mkdir_p(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int eng_parse_devices(const eng_run *r, int *ords, int *nord)
{
    *nord = 0;
    if (!strcmp(r->opt.devices, "all")) {
        int n = 0;
        const cudaError_t e = cudaGetDeviceCount(&n);
        if (e != cudaSuccess || n == 0) {
            char err[512];
            devinfo_no_gpu(e, err, sizeof err);
            fprintf(stderr, "%s: --device all: %s\n", r->prog, err);
            return 1;
        }
        for (int i = 0; i < n && i < 64; i++) ords[(*nord)++] = i;
        return 0;
    }
    cli_list l;
    char err[256];
    if (cli_parse_list("--device", r->opt.devices, 0, 1023, l.v, 64, &l.n, err, sizeof err) != 0)
        return cli_usage_error(r->prog, "%s (or all)", err);
    for (size_t i = 0; i < l.n; i++) ords[(*nord)++] = (int)l.v[i];
    return 0;
}

/* One measurement at a time on a GPU: an exclusive lock on a file named by
 * its UUID, held until the process ends.  Another warplat process that wants
 * the same GPU waits (and says so); other GPUs are not affected. */
void eng_lock_device(const eng_run *r)
{
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/warplat-%s.lock", dir && *dir ? dir : "/tmp",
             r->dev.device_uuid[0] ? r->dev.device_uuid : "gpu");
    const int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0666);
    if (fd < 0) return;   /* no lock file: measure anyway, as before locks existed */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (!r->opt.quiet)
            fprintf(stderr, "%s: waiting for %s (device %d): another warplat run is measuring on it\n",
                    r->prog, r->dev.device_name, r->ctx.device);
        if (flock(fd, LOCK_EX) != 0) eng_die(r, "cannot lock %s: %s", path, strerror(errno));
    }
    /* the descriptor stays open (and the lock held) until exit */
}

/* argv with --device, --out and --table replaced by this GPU's (av has room
 * for argc + 8 entries). */
static void child_argv(char **av, int argc, char **argv, char *dev, char *outdir, char *table)
{
    int k = 0;
    av[k++] = argv[0];
    for (int a = 1; a < argc; a++) {
        const char *x = argv[a];
        int skip_next = 0, skip = 0;
        for (const char *opt = "--device\0--out\0--table\0"; *opt; opt += strlen(opt) + 1) {
            const size_t ol = strlen(opt);
            if (!strcmp(x, opt)) skip = skip_next = 1;
            else if (!strncmp(x, opt, ol) && x[ol] == '=') skip = 1;
        }
        if (skip) { a += skip_next; continue; }
        av[k++] = argv[a];
    }
    av[k++] = "--device";
    av[k++] = dev;
    av[k++] = "--out";
    av[k++] = outdir;
    av[k++] = "--table";
    av[k++] = table;
    av[k] = NULL;
}

/* --device LIST|all with more than one GPU: this program again, once per GPU,
 * in parallel, each with --device k --out DIR/<gpu key> and its table in that
 * folder.  Returns the worst exit status. */
int eng_run_on_devices(const eng_run *r, int argc, char **argv, const int *ords, int nord)
{
    pid_t pids[64];
    char keys[64][160];
    extern char **environ;
    for (int i = 0; i < nord; i++) {
        warplog_header h;
        char err[256];
        warplog_header_init(&h);
        if (devinfo_fill(ords[i], &h, err, sizeof err) != 0) eng_die(r, "device %d: %s", ords[i], err);
        if (names_gpu(keys[i], sizeof keys[i], ords[i], h.device_uuid, h.device_name) != 0)
            snprintf(keys[i], sizeof keys[i], "gpu%d", ords[i]);
        char outdir[1024], table[1200], dev[16];
        snprintf(outdir, sizeof outdir, "%.800s/%.150s", r->opt.out_dir, keys[i]);
        if (eng_mkdir_p(outdir) != 0) eng_die(r, "cannot create %s: %s", outdir, strerror(errno));
        snprintf(table, sizeof table, "%s/%s.tsv", outdir, r->fam->name);
        snprintf(dev, sizeof dev, "%d", ords[i]);
        char **av = calloc((size_t)argc + 8, sizeof *av);
        if (!av) eng_die(r, "out of host memory");
        child_argv(av, argc, argv, dev, outdir, table);
        if (posix_spawn(&pids[i], "/proc/self/exe", NULL, NULL, av, environ) != 0)
            eng_die(r, "cannot start the run on device %d: %s", ords[i], strerror(errno));
        free(av);
        fprintf(stderr, "%s: device %d (%s): running, results in %s\n", r->prog, ords[i], keys[i], outdir);
    }
    int worst = 0;
    for (int i = 0; i < nord; i++) {
        int st = 0;
        if (waitpid(pids[i], &st, 0) < 0) st = 1 << 8;
        const int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
        fprintf(stderr, "%s: device %d (%s): %s (exit %d)\n", r->prog, ords[i], keys[i],
                rc ? "FAILED" : "done", rc);
        if (rc > worst) worst = rc;
    }
    return worst;
}

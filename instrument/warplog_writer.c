/*
 * warplog_writer.c - the per-warp log's writer (format: warplog.h): the
 * header, then chunks of records through the codec (warplog_int.h) into one
 * gzip member, written whole through outfile (a unique temporary renamed at
 * the close) or not at all.  It needs one chunk of memory (2 MiB at the
 * default 65536 records).
 */
#define _POSIX_C_SOURCE 200809L
#include "warplog.h"
#include "warplog_int.h"
#include "outfile.h" /* the toolkit's one writer: unique temporary, signals, devices */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct warplog_writer {
    gzFile gz;
    outfile out;     /* the one writer (instrument/outfile.h): unique temporary */
    char *path;
    const char *tmp_path; /* outfile_name(&out), for messages */
    uint64_t promised;
    uint64_t written;
    uint32_t chunk_records;
    warp_record *pending; /* records waiting to fill a chunk */
    size_t npending;
    uint8_t *enc;
    uint64_t *col;
};

static void writer_free(warplog_writer *w)
{
    if (!w) return;
    free(w->path);
    free(w->pending);
    free(w->enc);
    free(w->col);
    free(w);
}

void warplog_writer_abort(warplog_writer *w)
{
    if (!w) return;
    if (w->gz) gzclose(w->gz);
    outfile_abort(&w->out);
    writer_free(w);
}

static int gz_write_all(warplog_writer *w, const void *buf, size_t len, char *err, size_t errlen)
{
    const uint8_t *p = buf;
    while (len > 0) {
        unsigned piece = len > (1u << 30) ? (1u << 30) : (unsigned)len;
        int k = gzwrite(w->gz, p, piece);
        if (k <= 0) {
            int errnum = 0;
            const char *m = gzerror(w->gz, &errnum);
            set_err(err, errlen, "cannot write %s: %s", w->path,
                    errnum == Z_ERRNO ? strerror(errno) : m);
            return -1;
        }
        p += k;
        len -= (size_t)k;
    }
    return 0;
}

warplog_writer *warplog_writer_open(const char *path, const warplog_header *h, int level,
                                    char *err, size_t errlen)
{
    if (!host_is_little_endian()) {
        set_err(err, errlen, "this host is big-endian; the log format is little-endian");
        return NULL;
    }
    /* Never write a log the reader would refuse. */
    char why[256];
    if (warplog_header_check(h, why, sizeof why) != 0) {
        set_err(err, errlen, "refusing to write %s: its header's %s", path, why);
        return NULL;
    }
    warplog_writer *w = calloc(1, sizeof *w);
    if (!w) goto oom;
    w->path = strdup(path);
    w->chunk_records = h->chunk_records;
    w->pending = malloc((size_t)w->chunk_records * sizeof(warp_record));
    w->enc = malloc((size_t)w->chunk_records * sizeof(warp_record));
    w->col = malloc((size_t)w->chunk_records * sizeof(uint64_t));
    if (!w->path || !w->pending || !w->enc || !w->col) goto oom;
    w->promised = h->record_count;

    char mode[8];
    snprintf(mode, sizeof mode, "wb%d", level <= 0 || level > 9 ? 1 : level);
    /* zlib writes through its own descriptor (a dup); the outfile keeps
     * the original for the fsync and the rename */
    FILE *f = outfile_open(&w->out, path, "wb", err, errlen);
    if (!f) {
        writer_free(w);
        return NULL;
    }
    w->tmp_path = outfile_name(&w->out);
    int fd = dup(fileno(f));
    w->gz = fd < 0 ? NULL : gzdopen(fd, mode);
    if (!w->gz) {
        set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        outfile_abort(&w->out);
        writer_free(w);
        return NULL;
    }
    gzbuffer(w->gz, 1u << 18);
    if (gz_write_all(w, h, sizeof *h, err, errlen) != 0) {
        warplog_writer_abort(w);
        return NULL;
    }
    return w;
oom:
    set_err(err, errlen, "out of memory opening %s", path);
    writer_free(w);
    return NULL;
}

static int writer_flush_chunk(warplog_writer *w, char *err, size_t errlen)
{
    if (w->npending == 0) return 0;
    uint32_t hdr[2] = {WARPLOG_CHUNK_MAGIC, (uint32_t)w->npending};
    chunk_encode(w->enc, w->pending, w->npending, w->col);
    if (gz_write_all(w, hdr, sizeof hdr, err, errlen) != 0) return -1;
    if (gz_write_all(w, w->enc, w->npending * sizeof(warp_record), err, errlen) != 0) return -1;
    w->npending = 0;
    return 0;
}

int warplog_writer_put(warplog_writer *w, const warp_record *r, size_t n, char *err, size_t errlen)
{
    if (w->written + n > w->promised) {
        set_err(err, errlen, "more records (%llu) than the header promises (%llu)",
                (unsigned long long)(w->written + n), (unsigned long long)w->promised);
        return -1;
    }
    while (n > 0) {
        size_t room = w->chunk_records - w->npending;
        size_t k = n < room ? n : room;
        memcpy(w->pending + w->npending, r, k * sizeof *r);
        w->npending += k;
        w->written += k;
        r += k;
        n -= k;
        if (w->npending == w->chunk_records && writer_flush_chunk(w, err, errlen) != 0) return -1;
    }
    return 0;
}

int warplog_writer_close(warplog_writer *w, char *err, size_t errlen)
{
    int rc = -1;
    if (w->written != w->promised) {
        set_err(err, errlen, "%s: wrote %llu records but the header promises %llu; log discarded",
                w->path, (unsigned long long)w->written, (unsigned long long)w->promised);
        warplog_writer_abort(w);
        return -1;
    }
    if (writer_flush_chunk(w, err, errlen) != 0) {
        warplog_writer_abort(w);
        return -1;
    }
    int zrc = gzclose(w->gz);
    w->gz = NULL;
    if (zrc != Z_OK) {
        set_err(err, errlen, "cannot write %s: %s", w->path,
                zrc == Z_ERRNO ? strerror(errno) : "zlib error");
        outfile_abort(&w->out);
    } else if (outfile_commit(&w->out, err, errlen) == 0) {
        rc = 0;
    }
    writer_free(w);
    return rc;
}

/*
 * warplog_reader.c - the per-warp log's reader (format: warplog.h): the
 * header checked, then the chunks decoded (warplog_int.h) as they come out
 * of inflate, so it needs 40 bytes a record of the largest chunk it has
 * met, never more than WARPLOG_READER_MAX_BYTES.
 *
 * Why the reader drives inflate itself rather than through gzread: gzread
 * reads concatenated gzip members as one, ignores trailing garbage, and
 * reports a stream cut inside its trailer only at gzclose; the reader must
 * tell the user which of those it met (warplog.h), so it inflates exactly
 * one member and looks at what follows.
 */
#define _POSIX_C_SOURCE 200809L
#include "warplog.h"
#include "warplog_int.h"

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

#define IN_BYTES (1u << 16)    /* compressed input buffer */
#define PLANE_BYTES (1u << 16) /* decompressed byte-plane piece */

enum zstate { Z_STATE_OK, Z_STATE_END, Z_STATE_TRUNC, Z_STATE_CORRUPT, Z_STATE_IO, Z_STATE_NOMEM };

struct warplog_reader {
    char *path;               /* the name in messages */
    int fd;                   /* -1 when reading memory */
    const uint8_t *mem;       /* memory source */
    size_t mem_len, mem_pos;
    uint8_t *in;              /* input buffer (file source) */
    int in_eof;               /* the source has no more bytes */
    int io_errno;
    z_stream zs;
    int zinit;
    enum zstate zst;
    warplog_header h;
    uint64_t seen;            /* records decoded so far */
    warp_record *recs;        /* the decoded chunk */
    uint64_t *col;            /* one column while its planes arrive */
    uint8_t *plane;           /* PLANE_BYTES of one plane */
    size_t cap;               /* records recs and col can hold */
    size_t have, pos;         /* records decoded / handed out from recs */
    int done, failed;
};

/* Give inflate more input.  0 ok (possibly at the end), -1 read error. */
static int src_fill(warplog_reader *r)
{
    if (r->in_eof) return 0;
    if (r->fd < 0) {
        size_t left = r->mem_len - r->mem_pos;
        size_t k = left > UINT_MAX ? UINT_MAX : left;
        r->zs.next_in = (Bytef *)(r->mem + r->mem_pos);
        r->zs.avail_in = (uInt)k;
        r->mem_pos += k;
        if (r->mem_pos == r->mem_len) r->in_eof = 1;
        return 0;
    }
    ssize_t k;
    do k = read(r->fd, r->in, IN_BYTES); while (k < 0 && errno == EINTR);
    if (k < 0) {
        r->io_errno = errno;
        return -1;
    }
    r->zs.next_in = r->in;
    r->zs.avail_in = (uInt)k;
    if (k == 0) r->in_eof = 1;
    return 0;
}

/* Inflate up to len bytes into buf.  Returns the count; fewer than len only
 * when r->zst is no longer Z_STATE_OK (end of the member, or an error). */
static size_t zread(warplog_reader *r, void *buf, size_t len)
{
    r->zs.next_out = buf;
    r->zs.avail_out = (uInt)len;
    while (r->zs.avail_out > 0 && r->zst == Z_STATE_OK) {
        if (r->zs.avail_in == 0 && !r->in_eof && src_fill(r) != 0) {
            r->zst = Z_STATE_IO;
            break;
        }
        int zrc = inflate(&r->zs, Z_NO_FLUSH);
        if (zrc == Z_STREAM_END) r->zst = Z_STATE_END;
        else if (zrc == Z_MEM_ERROR) r->zst = Z_STATE_NOMEM;
        else if (zrc == Z_DATA_ERROR || zrc == Z_NEED_DICT || zrc == Z_STREAM_ERROR) r->zst = Z_STATE_CORRUPT;
        else if (zrc == Z_BUF_ERROR && r->zs.avail_in > 0) r->zst = Z_STATE_CORRUPT; /* no progress */
        else if (r->zs.avail_in == 0 && r->in_eof && r->zs.avail_out > 0)
            /* inflate took every byte there is and still wants more */
            r->zst = Z_STATE_TRUNC;
    }
    return len - r->zs.avail_out;
}

/* Why zread stopped short, as a sentence about reading `what`. */
static void explain_short(warplog_reader *r, const char *what, char *err, size_t errlen)
{
    switch (r->zst) {
    case Z_STATE_END:
        set_err(err, errlen, "%s is truncated: its gzip stream is complete but ends in the "
                "middle of %s (was it written by a run that failed?)", r->path, what);
        break;
    case Z_STATE_TRUNC:
        set_err(err, errlen, "%s is truncated: the gzip stream ends in the middle of %s "
                "(was the run interrupted or the copy incomplete?)", r->path, what);
        break;
    case Z_STATE_CORRUPT:
        set_err(err, errlen, "%s is corrupt: the gzip stream cannot be decoded (%s)", r->path,
                r->zs.msg ? r->zs.msg : "bad data");
        break;
    case Z_STATE_IO:
        set_err(err, errlen, "cannot read %s: %s", r->path, strerror(r->io_errno));
        break;
    case Z_STATE_NOMEM:
        set_err(err, errlen, "out of memory reading %s", r->path);
        break;
    default:
        set_err(err, errlen, "%s: internal error reading %s", r->path, what);
        break;
    }
}

/* Read exactly len bytes: 1 ok, 0 the stream ended cleanly before any byte,
 * -1 error (err filled). */
static int read_exact(warplog_reader *r, void *buf, size_t len, const char *what,
                      char *err, size_t errlen)
{
    size_t got = zread(r, buf, len);
    if (got == len) return 1;
    if (got == 0 && r->zst == Z_STATE_END) return 0;
    explain_short(r, what, err, errlen);
    return -1;
}

/* After the gzip member: nothing may follow.  0, or -1 with a sentence. */
static int check_after_end(warplog_reader *r, char *err, size_t errlen)
{
    unsigned char first[2];
    size_t n = 0;
    while (n < 2) {
        if (r->zs.avail_in == 0) {
            if (r->in_eof) break;
            if (src_fill(r) != 0) {
                set_err(err, errlen, "cannot read %s: %s", r->path, strerror(r->io_errno));
                return -1;
            }
            continue;
        }
        first[n++] = *r->zs.next_in++;
        r->zs.avail_in--;
    }
    if (n == 0) return 0;
    if (n == 2 && first[0] == 0x1f && first[1] == 0x8b)
        set_err(err, errlen, "%s holds a second gzip stream after the log (were two files "
                "concatenated?); a warp log is exactly one", r->path);
    else
        set_err(err, errlen, "%s has data after the end of its gzip stream (appended to, or "
                "not a warp log?)", r->path);
    return -1;
}

void warplog_reader_close(warplog_reader *r)
{
    if (!r) return;
    if (r->zinit) inflateEnd(&r->zs);
    if (r->fd >= 0) close(r->fd);
    free(r->path);
    free(r->in);
    free(r->recs);
    free(r->col);
    free(r->plane);
    free(r);
}

/* Common to both sources: r has its source; check the gzip magic, inflate
 * and validate the header.  Frees r on failure. */
static warplog_reader *reader_start(warplog_reader *r, char *err, size_t errlen)
{
    /* the first two bytes, without consuming them */
    while (r->zs.avail_in < 2 && !r->in_eof) {
        if (r->fd < 0) {
            if (src_fill(r) != 0) break;
            continue;
        }
        /* a file: keep what was read (pipes may give one byte at a time) */
        size_t have = r->zs.avail_in;
        if (have) memmove(r->in, r->zs.next_in, have);
        ssize_t k;
        do k = read(r->fd, r->in + have, IN_BYTES - have); while (k < 0 && errno == EINTR);
        if (k < 0) {
            set_err(err, errlen, "cannot read %s: %s", r->path, strerror(errno));
            goto fail;
        }
        if (k == 0) r->in_eof = 1;
        r->zs.next_in = r->in;
        r->zs.avail_in = (uInt)(have + (size_t)k);
    }
    if (r->zs.avail_in < 2 || r->zs.next_in[0] != 0x1f || r->zs.next_in[1] != 0x8b) {
        set_err(err, errlen, "%s is not a warp log: %s", r->path,
                r->zs.avail_in == 0 ? "the file is empty" : "it is not a gzip stream");
        goto fail;
    }
    /* 15 + 16: a gzip wrapper only, whose CRC and length inflate checks */
    if (inflateInit2(&r->zs, 15 + 16) != Z_OK) {
        set_err(err, errlen, "out of memory opening %s", r->path);
        goto fail;
    }
    r->zinit = 1;
    int k = read_exact(r, &r->h, sizeof r->h, "the header", err, errlen);
    if (k == 0) {
        set_err(err, errlen, "%s is not a warp log: the gzip stream is empty", r->path);
        goto fail;
    }
    if (k < 0) goto fail;
    if (memcmp(r->h.magic, WARPLOG_MAGIC, sizeof WARPLOG_MAGIC) != 0) {
        set_err(err, errlen, "%s is not a warp log: it is gzip, but does not start with "
                "the magic \"%s\"", r->path, WARPLOG_MAGIC);
        goto fail;
    }
    if (r->h.version < 1 || r->h.version > WARPLOG_VERSION_MAX) {
        set_err(err, errlen, "%s uses log format version %u; this build reads versions 1 "
                "to %u (rebuild the toolkit that wrote it, or re-run the experiment)",
                r->path, r->h.version, WARPLOG_VERSION_MAX);
        goto fail;
    }
    if (r->h.version == 1) {
        /* version 1 recorded every warp, one region each; its tail was zero */
        memset((char *)&r->h + offsetof(warplog_header, sample_blocks), 0,
               sizeof r->h - offsetof(warplog_header, sample_blocks));
        r->h.sample_blocks = 1;
        r->h.records_per_warp = 1;
        r->h.sampled_blocks = r->h.blocks;
    }
    if (r->h.header_bytes != WARPLOG_HEADER_BYTES || r->h.record_bytes != sizeof(warp_record)) {
        set_err(err, errlen, "%s declares a %u-byte header and %u-byte records; version %u "
                "has %u and %zu", r->path, r->h.header_bytes, r->h.record_bytes,
                r->h.version, WARPLOG_HEADER_BYTES, sizeof(warp_record));
        goto fail;
    }
    char why[256];
    if (warplog_header_check(&r->h, why, sizeof why) != 0) {
        set_err(err, errlen, "%s is corrupt: its header's %s", r->path, why);
        goto fail;
    }
    return r;
fail:
    warplog_reader_close(r);
    return NULL;
}

static warplog_reader *reader_new(const char *name, char *err, size_t errlen)
{
    warplog_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(name))) {
        set_err(err, errlen, "out of memory opening %s", name);
        free(r);
        return NULL;
    }
    r->fd = -1;
    return r;
}

warplog_reader *warplog_reader_open(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        set_err(err, errlen, "%s is a directory, not a warp log", path);
        close(fd);
        return NULL;
    }
    warplog_reader *r = reader_new(path, err, errlen);
    if (!r) {
        close(fd);
        return NULL;
    }
    r->fd = fd;
    if (!(r->in = malloc(IN_BYTES))) {
        set_err(err, errlen, "out of memory opening %s", path);
        warplog_reader_close(r);
        return NULL;
    }
    return reader_start(r, err, errlen);
}

warplog_reader *warplog_reader_open_mem(const void *buf, size_t len, const char *name,
                                        char *err, size_t errlen)
{
    warplog_reader *r = reader_new(name ? name : "(log in memory)", err, errlen);
    if (!r) return NULL;
    r->mem = buf;
    r->mem_len = len;
    r->in_eof = len == 0;
    return reader_start(r, err, errlen);
}

const warplog_header *warplog_reader_header(const warplog_reader *r) { return &r->h; }

/* Room for n records; -1 out of memory. */
static int reserve(warplog_reader *r, size_t n)
{
    if (n <= r->cap) return 0;
    free(r->recs);
    free(r->col);
    r->recs = malloc(n * sizeof *r->recs);
    r->col = malloc(n * sizeof *r->col);
    if (!r->plane) r->plane = malloc(PLANE_BYTES);
    if (!r->recs || !r->col || !r->plane) {
        r->cap = 0;
        return -1;
    }
    r->cap = n;
    return 0;
}

/* Decode n records from the byte planes as inflate delivers them. */
static int chunk_read(warplog_reader *r, size_t n, char *err, size_t errlen)
{
    for (int c = 0; c < NCOLS; c++) {
        memset(r->col, 0, n * sizeof *r->col);
        for (int b = 0; b < col_width[c]; b++) {
            const int sh = 8 * b;
            for (size_t i = 0; i < n;) {
                size_t piece = n - i < PLANE_BYTES ? n - i : PLANE_BYTES;
                if (read_exact(r, r->plane, piece, "a chunk of records", err, errlen) != 1) {
                    if (r->zst == Z_STATE_END)
                        explain_short(r, "a chunk of records", err, errlen);
                    return -1;
                }
                for (size_t k = 0; k < piece; k++) r->col[i + k] |= (uint64_t)r->plane[k] << sh;
                i += piece;
            }
        }
        column_decode(r->recs, c, r->col, n);
    }
    return 0;
}

/* Decode the next chunk into r->recs. 1 = got one, 0 = clean end, -1 = error. */
static int reader_fill(warplog_reader *r, char *err, size_t errlen)
{
    uint32_t hdr[2];
    if (r->failed) {
        set_err(err, errlen, "%s: reading past an error", r->path);
        return -1;
    }
    char what[96];
    snprintf(what, sizeof what, "the records (after %llu of them)", (unsigned long long)r->seen);
    int k = read_exact(r, hdr, sizeof hdr, what, err, errlen);
    if (k < 0) return -1;
    if (k == 0) {
        if (check_after_end(r, err, errlen) != 0) return -1;
        if (r->seen != r->h.record_count) {
            set_err(err, errlen, "%s holds %llu records but its header says %llu", r->path,
                    (unsigned long long)r->seen, (unsigned long long)r->h.record_count);
            return -1;
        }
        return 0;
    }
    if (hdr[0] != WARPLOG_CHUNK_MAGIC || hdr[1] == 0 || hdr[1] > r->h.chunk_records) {
        set_err(err, errlen, "%s is corrupt: bad chunk header after %llu records", r->path,
                (unsigned long long)r->seen);
        return -1;
    }
    size_t n = hdr[1];
    if (n > r->h.record_count - r->seen) {
        set_err(err, errlen, "%s holds more records than its header says (%llu)", r->path,
                (unsigned long long)r->h.record_count);
        return -1;
    }
    if (reserve(r, n) != 0) {
        set_err(err, errlen, "out of memory reading %s", r->path);
        return -1;
    }
    if (chunk_read(r, n, err, errlen) != 0) return -1;
    r->seen += n;
    r->have = n;
    r->pos = 0;
    return 1;
}

/* Refill when empty: 1 records are ready, 0 the end, -1 error. */
static int ensure(warplog_reader *r, char *err, size_t errlen)
{
    if (r->pos < r->have) return 1;
    int k = reader_fill(r, err, errlen);
    if (k == 0) r->done = 1;
    if (k < 0) r->failed = 1;
    return k;
}

long warplog_reader_chunk(warplog_reader *r, const warp_record **recs, char *err, size_t errlen)
{
    if (r->done) return 0;
    int k = ensure(r, err, errlen);
    if (k <= 0) return k;
    *recs = r->recs + r->pos;
    long n = (long)(r->have - r->pos);
    r->pos = r->have;
    return n;
}

long warplog_reader_next(warplog_reader *r, warp_record *out, size_t max, char *err, size_t errlen)
{
    if (r->done || max == 0) return 0;
    int k = ensure(r, err, errlen);
    if (k <= 0) return k;
    size_t n = r->have - r->pos;
    if (n > max) n = max;
    memcpy(out, r->recs + r->pos, n * sizeof *out);
    r->pos += n;
    return (long)n;
}

/*
 * warplog_writer.c - the per-warp log's writer (format: warplog.h): the
 * header, then chunks of records through the codec (warplog_int.h) into one
 * gzip member, written whole through outfile (a unique temporary renamed at
 * the close) or not at all.
 *
 * Why it deflates chunks on several cores: one thread spent most of a
 * sampling run's 1.3 s of log writing at N = 1e8 in deflate and crc32.  The
 * chunks are filled in turn into WRITER_SLOTS slots at most (par_cores); when
 * every slot is full, each is encoded, deflated on its own (raw deflate
 * ended by a sync flush, which ends on a byte boundary) and its CRC taken, a
 * slot a thread (par.h); the pieces are then written in order, as pigz does,
 * into one gzip member whose CRC is combined from the pieces'
 * (crc32_combine).  The decompressed bytes are those one stream would give:
 * the header, then each chunk's magic, count and encoded records.  Only the
 * compressed bytes differ (each piece starts without its predecessor's 32
 * KiB of history), and the reader reads any gzip member.  Memory: about 7
 * MiB a slot at the default 65536 records a chunk.
 */
#define _POSIX_C_SOURCE 200809L
#include "warplog.h"
#include "warplog_int.h"
#include "outfile.h" /* the toolkit's one writer: unique temporary, signals, devices */
#include "par.h"     /* the toolkit's one thread helper */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* At most 8 chunks at once: the caller's one thread fills the slots while
 * deflate, several times slower a byte, empties them; and a sweep has a
 * writer per point running at once, each then holding about 56 MiB. */
enum { WRITER_SLOTS = 8 };

/* One chunk: its records, then (once full) its deflated piece. */
typedef struct slot {
    warp_record *rec;
    size_t nrec;
    uint8_t *enc;       /* the chunk's bytes: magic, count, encoded records */
    uint64_t *col;
    uint8_t *z;         /* the piece */
    size_t zcap, zlen;
    uLong crc;          /* of enc */
    z_stream zs;
    int zinit, failed;
} slot;

struct warplog_writer {
    outfile out;     /* the one writer (instrument/outfile.h): unique temporary */
    FILE *f;
    char *path;
    int level;
    uint64_t promised;
    uint64_t written;
    uint32_t chunk_records;
    slot *slots;
    unsigned nslots, cur;  /* slots; the one being filled */
    uLong crc;             /* of every byte before the gzip trailer, decompressed */
    uint64_t in_bytes;     /* those bytes (the trailer keeps them modulo 2^32) */
};

static void writer_free(warplog_writer *w)
{
    if (!w) return;
    for (unsigned i = 0; w->slots && i < w->nslots; i++) {
        slot *s = &w->slots[i];
        if (s->zinit) deflateEnd(&s->zs);
        free(s->rec);
        free(s->enc);
        free(s->col);
        free(s->z);
    }
    free(w->slots);
    free(w->path);
    free(w);
}

void warplog_writer_abort(warplog_writer *w)
{
    if (!w) return;
    outfile_abort(&w->out);
    writer_free(w);
}

static int write_all(warplog_writer *w, const void *buf, size_t len, char *err, size_t errlen)
{
    if (len && fwrite(buf, 1, len, w->f) != len) {
        set_err(err, errlen, "cannot write %s: %s", w->path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Deflate n bytes into s->z as one piece: a sync flush ends it on a byte
 * boundary (finish: the final empty block instead).  0, or -1. */
static int deflate_piece(slot *s, int level, const uint8_t *in, size_t n, int finish)
{
    if (!s->zinit) {
        memset(&s->zs, 0, sizeof s->zs);
        if (deflateInit2(&s->zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
        s->zinit = 1;
    } else if (deflateReset(&s->zs) != Z_OK) {
        return -1;
    }
    /* deflateBound covers a finished stream; a sync flush adds at most 5
     * bytes, an empty last block 2 */
    const size_t need = deflateBound(&s->zs, (uLong)n) + 16;
    if (need > s->zcap) {
        uint8_t *z = realloc(s->z, need);
        if (!z) return -1;
        s->z = z;
        s->zcap = need;
    }
    s->zs.next_in = (Bytef *)(uintptr_t)in;
    s->zs.avail_in = (uInt)n;
    s->zs.next_out = s->z;
    s->zs.avail_out = (uInt)s->zcap;
    const int rc = deflate(&s->zs, finish ? Z_FINISH : Z_SYNC_FLUSH);
    if (rc != (finish ? Z_STREAM_END : Z_OK) || s->zs.avail_in != 0 || s->zs.avail_out == 0)
        return -1;
    s->zlen = s->zcap - s->zs.avail_out;
    return 0;
}

typedef struct batch { warplog_writer *w; } batch;

/* Slot i of a full batch: encode, CRC, deflate. */
static void slot_work(void *arg, size_t i)
{
    warplog_writer *w = ((batch *)arg)->w;
    slot *s = &w->slots[i];
    const uint32_t hdr[2] = {WARPLOG_CHUNK_MAGIC, (uint32_t)s->nrec};
    memcpy(s->enc, hdr, sizeof hdr);
    chunk_encode(s->enc + sizeof hdr, s->rec, s->nrec, s->col);
    const size_t n = sizeof hdr + s->nrec * sizeof(warp_record);
    s->crc = crc32(0L, s->enc, (uInt)n);
    s->failed = deflate_piece(s, w->level, s->enc, n, 0) != 0;
}

/* Encode and deflate the filled slots, write their pieces in order. */
static int flush_slots(warplog_writer *w, char *err, size_t errlen)
{
    const unsigned k = w->cur + (w->cur < w->nslots && w->slots[w->cur].nrec > 0);
    batch b = {w};
    par_for(k, k, slot_work, &b);
    for (unsigned i = 0; i < k; i++) {
        slot *s = &w->slots[i];
        if (s->failed) {
            set_err(err, errlen, "cannot write %s: out of memory in zlib", w->path);
            return -1;
        }
        const size_t n = 2 * sizeof(uint32_t) + s->nrec * sizeof(warp_record);
        w->crc = crc32_combine(w->crc, s->crc, (z_off_t)n);
        w->in_bytes += n;
        if (write_all(w, s->z, s->zlen, err, errlen) != 0) return -1;
        s->nrec = 0;
    }
    w->cur = 0;
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
    w->level = level <= 0 || level > 9 ? 1 : level;
    w->chunk_records = h->chunk_records;
    w->promised = h->record_count;
    /* no more slots than the log has chunks */
    const uint64_t chunks = (h->record_count + w->chunk_records - 1) / w->chunk_records;
    w->nslots = par_cores() < WRITER_SLOTS ? par_cores() : WRITER_SLOTS;
    if (chunks < w->nslots) w->nslots = chunks ? (unsigned)chunks : 1;
    w->slots = calloc(w->nslots, sizeof *w->slots);
    if (!w->path || !w->slots) goto oom;
    for (unsigned i = 0; i < w->nslots; i++) {
        slot *s = &w->slots[i];
        s->rec = malloc((size_t)w->chunk_records * sizeof(warp_record));
        s->enc = malloc(2 * sizeof(uint32_t) + (size_t)w->chunk_records * sizeof(warp_record));
        s->col = malloc((size_t)w->chunk_records * sizeof(uint64_t));
        if (!s->rec || !s->enc || !s->col) goto oom;
    }
    w->f = outfile_open(&w->out, path, "wb", err, errlen);
    if (!w->f) {
        writer_free(w);
        return NULL;
    }
    setvbuf(w->f, NULL, _IOFBF, 1u << 18);
    /* the gzip header as zlib's gzdopen writes it: no name, no time, the
     * level's flag, Unix;
     * then the log's header as the first piece */
    const uint8_t gz_head[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0,
                                 w->level == 9 ? 2 : w->level == 1 ? 4 : 0, 3};
    w->crc = crc32(0L, (const Bytef *)h, sizeof *h);
    w->in_bytes = sizeof *h;
    if (deflate_piece(&w->slots[0], w->level, (const uint8_t *)h, sizeof *h, 0) != 0) {
        outfile_abort(&w->out);
        goto oom;
    }
    if (write_all(w, gz_head, sizeof gz_head, err, errlen) != 0 ||
        write_all(w, w->slots[0].z, w->slots[0].zlen, err, errlen) != 0) {
        warplog_writer_abort(w);
        return NULL;
    }
    return w;
oom:
    set_err(err, errlen, "out of memory opening %s", path);
    writer_free(w);
    return NULL;
}

int warplog_writer_put(warplog_writer *w, const warp_record *r, size_t n, char *err, size_t errlen)
{
    if (w->written + n > w->promised) {
        set_err(err, errlen, "more records (%llu) than the header promises (%llu)",
                (unsigned long long)(w->written + n), (unsigned long long)w->promised);
        return -1;
    }
    while (n > 0) {
        slot *s = &w->slots[w->cur];
        size_t room = w->chunk_records - s->nrec;
        size_t k = n < room ? n : room;
        memcpy(s->rec + s->nrec, r, k * sizeof *r);
        s->nrec += k;
        w->written += k;
        r += k;
        n -= k;
        if (s->nrec == w->chunk_records && ++w->cur == w->nslots && flush_slots(w, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* The last piece (an empty final block) and the trailer: CRC and length. */
static int write_end(warplog_writer *w, char *err, size_t errlen)
{
    slot *s = &w->slots[0];
    if (deflate_piece(s, w->level, NULL, 0, 1) != 0) {
        set_err(err, errlen, "cannot write %s: out of memory in zlib", w->path);
        return -1;
    }
    uint8_t tail[8];
    for (int i = 0; i < 4; i++) {
        tail[i] = (uint8_t)(w->crc >> (8 * i));
        tail[4 + i] = (uint8_t)(w->in_bytes >> (8 * i));
    }
    if (write_all(w, s->z, s->zlen, err, errlen) != 0) return -1;
    return write_all(w, tail, sizeof tail, err, errlen);
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
    if (flush_slots(w, err, errlen) != 0 || write_end(w, err, errlen) != 0) {
        warplog_writer_abort(w);
        return -1;
    }
    if (outfile_commit(&w->out, err, errlen) == 0) rc = 0;
    writer_free(w);
    return rc;
}

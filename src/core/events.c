/* The per-packet event log (docs/events.md): records appended by the engines through
 * RS_EVENT (events_hook.h), blocked episodes reduced to their first step, filters on
 * packets, nodes and steps, a size guard ending the log with a truncation marker, and the
 * CSV and binary writers (binary: a 16-byte header, then 16 bytes per record). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/events_hook.h"
#include "routesim/alloc.h"

/* A list of inclusive ranges, sorted and merged; n == 0 with active set: nothing passes. */
struct ev_ranges {
    int active;
    uint32_t n;
    uint32_t (*r)[2];
};

struct rs_events {
    uint32_t (*rec)[4]; /* step, packet, node, port | vc << 16 | kind << 24 (16-bit port, 8-bit
                           vc; all ones = none) */
    uint64_t n, cap, max;
    int truncated;
    uint64_t *blocked; /* one bit per packet: in a blocked episode */
    uint64_t n_packets;
    struct ev_ranges f[3]; /* enum rs_events_filter */
    struct ev_open *ol;    /* open-loop runs: the packet ids (NULL in batch runs) */
};

/* A terminal's ids of packets generated and not started (a ring of cap from head). */
struct ev_fifo {
    uint32_t *v;
    uint32_t head, count, cap;
    uint32_t popped; /* ids taken off so far: the head is the terminal's packet `popped` */
    uint32_t logged; /* packets of the terminal with a `generated` record so far */
};

/* Open-loop runs (docs/events.md, "Open loop"): ids are given at generation, in order of
 * step, then terminal, then the terminal's order; the engines name packets by their slot,
 * bound to an id when the slot takes a terminal's packet. */
struct ev_open {
    uint32_t n_term;
    uint32_t *term_node;   /* [n_term]: the node terminal t injects at */
    struct ev_fifo *fifo;  /* [n_term] */
    uint32_t *slot_id;     /* [slot_cap]: the id of the packet in slot s */
    uint64_t slot_cap;
    uint32_t scratch_id;   /* the id bound to RS_EV_SCRATCH */
    uint64_t next_id;      /* the next id to give */
};

static const char *const kind_names[RS_EV_N_KINDS] = {
    "generated", "injected", "hop", "blocked", "delivered", "dropped", "truncated"};

/* Binary format: magic, then the record size and a reserved word (little-endian). */
static const char bin_magic[8] = {'R', 'S', 'E', 'V', 'E', 'N', 'T', '1'};
#define EV_BIN_HEADER 16u
#define EV_BIN_RECORD 16u

const char *rs_event_kind_name(enum rs_event_kind kind)
{
    return (unsigned)kind < RS_EV_N_KINDS ? kind_names[kind] : NULL;
}

int rs_events_new(struct rs_events **out, uint64_t max_records, struct rs_err *err)
{
    *out = NULL;
    if (max_records > RS_EVENTS_MAX_LIMIT)
        return rs_err_set(err, RS_EINVAL,
                          "--events-max: at most %" PRIu64 " records, got %" PRIu64,
                          RS_EVENTS_MAX_LIMIT, max_records);
    struct rs_events *ev = rs_calloc(1, sizeof *ev);
    if (!ev)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the event log");
    ev->max = max_records ? max_records : RS_EVENTS_MAX_DEFAULT;
    *out = ev;
    return 0;
}

/* The open-loop ids (none: nothing). */
static void ol_free(struct rs_events *ev)
{
    if (!ev->ol)
        return;
    for (uint32_t t = 0; t < ev->ol->n_term; t++)
        rs_free(ev->ol->fifo[t].v);
    rs_free(ev->ol->fifo);
    rs_free(ev->ol->term_node);
    rs_free(ev->ol->slot_id);
    rs_free(ev->ol);
    ev->ol = NULL;
}

void rs_events_free(struct rs_events *ev)
{
    if (!ev)
        return;
    rs_free(ev->rec);
    rs_free(ev->blocked);
    ol_free(ev);
    for (int i = 0; i < 3; i++)
        rs_free(ev->f[i].r);
    rs_free(ev);
}

static int cmp_range(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static const char *const filter_names[3] = {"--events-packets", "--events-nodes",
                                            "--events-steps"};

/* One number of a list at *s (decimal, below 2^32 - 1); advances *s. */
static int parse_num(const char **s, uint32_t *v)
{
    const char *p = *s;
    uint64_t x = 0;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        x = x * 10 + (uint64_t)(*p - '0');
        if (x >= UINT32_MAX)
            return -1;
    }
    *v = (uint32_t)x;
    *s = p;
    return 0;
}

int rs_events_filter(struct rs_events *ev, enum rs_events_filter which, const char *text,
                     struct rs_err *err)
{
    if ((unsigned)which > RS_EVF_STEPS)
        return rs_err_set(err, RS_EINVAL, "unknown event filter %d", (int)which);
    struct ev_ranges *f = &ev->f[which];
    const char *what = filter_names[which];
    size_t n_max = 1;
    for (const char *p = text; *p; p++)
        n_max += *p == ',';
    uint32_t(*r)[2] = rs_malloc(n_max * sizeof *r);
    if (!r)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %s", what);
    uint32_t n = 0;
    const char *p = text;
    for (;;) {
        uint32_t lo, hi;
        if (parse_num(&p, &lo))
            goto bad;
        hi = lo;
        if (*p == '-') {
            p++;
            if (parse_num(&p, &hi) || hi < lo)
                goto bad;
        }
        r[n][0] = lo;
        r[n][1] = hi;
        n++;
        if (*p == '\0')
            break;
        if (*p != ',')
            goto bad;
        p++;
    }
    qsort(r, n, sizeof *r, cmp_range);
    uint32_t k = 0; /* merge overlapping and adjacent ranges */
    for (uint32_t i = 0; i < n; i++) {
        if (k && (uint64_t)r[i][0] <= (uint64_t)r[k - 1][1] + 1) {
            if (r[i][1] > r[k - 1][1])
                r[k - 1][1] = r[i][1];
        } else {
            r[k][0] = r[i][0];
            r[k][1] = r[i][1];
            k++;
        }
    }
    rs_free(f->r);
    f->r = r;
    f->n = k;
    f->active = 1;
    return 0;
bad:
    rs_free(r);
    return rs_err_set(err, RS_EINVAL,
                      "%s: expected numbers and ranges like 3,10-20 (each below 4294967295, "
                      "ranges low-high), got '%s'",
                      what, text);
}

static int in_ranges(const struct ev_ranges *f, uint32_t v)
{
    if (!f->active)
        return 1;
    uint32_t lo = 0, hi = f->n; /* first range with high end >= v */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->r[mid][1] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->n && f->r[lo][0] <= v;
}

int rs__events_start(struct rs_events *ev, uint64_t n_packets, struct rs_err *err)
{
    rs_free(ev->blocked);
    ol_free(ev); /* a log used before by an open-loop run */
    ev->n_packets = n_packets;
    ev->blocked = rs_calloc(n_packets / 64 + 1, sizeof *ev->blocked);
    if (!ev->blocked)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the event log");
    return 0;
}

static void append(struct rs_events *ev, enum rs_event_kind kind, uint32_t step,
                   uint32_t packet, uint32_t node, uint32_t port, uint32_t vc)
{
    if (ev->n == ev->cap) {
        uint64_t cap = ev->cap ? 2 * ev->cap : 1024;
        if (cap > ev->max + 1)
            cap = ev->max + 1; /* room for the marker */
        uint32_t(*rec)[4] = rs_realloc(ev->rec, (size_t)cap * sizeof *rec);
        if (!rec) { /* no memory: the last record kept becomes the marker */
            ev->truncated = 1;
            if (!ev->n)
                return;
            ev->n--;
            kind = RS_EV_TRUNCATED;
            packet = node = port = vc = RS_EV_NONE;
        } else {
            ev->rec = rec;
            ev->cap = cap;
        }
    }
    uint32_t *r = ev->rec[ev->n++];
    r[0] = step;
    r[1] = packet;
    r[2] = node;
    r[3] = (port & 0xffffu) | (vc & 0xffu) << 16 | (uint32_t)kind << 24;
}

/* One record through the blocked bits, the filters and the size guard. */
static void put_one(struct rs_events *ev, enum rs_event_kind kind, uint32_t step,
                    uint32_t packet, uint32_t node, uint32_t port, uint32_t vc)
{
    if (ev->ol && packet != RS_EV_NONE && packet >= ev->n_packets) { /* ids grow: the bits too */
        uint64_t words = ev->n_packets / 64, want = words; /* n_packets: 64 per word */
        while (want * 64 <= packet)
            want *= 2;
        uint64_t *b = rs_realloc(ev->blocked, want * sizeof *b);
        if (b) {
            memset(b + words, 0, (want - words) * sizeof *b);
            ev->blocked = b;
            ev->n_packets = want * 64;
        }
    }
    if (packet < ev->n_packets) { /* blocked episodes: kept at their first step */
        uint64_t bit = 1ull << (packet % 64), *w = &ev->blocked[packet / 64];
        if (kind == RS_EV_BLOCKED) {
            if (*w & bit)
                return;
            *w |= bit;
        } else if (kind != RS_EV_GENERATED) {
            *w &= ~bit;
        }
    }
    if (ev->truncated || !in_ranges(&ev->f[RS_EVF_PACKETS], packet) ||
        !in_ranges(&ev->f[RS_EVF_NODES], node) || !in_ranges(&ev->f[RS_EVF_STEPS], step))
        return;
    if (ev->n >= ev->max) { /* the size guard: a marker, then nothing more */
        ev->truncated = 1;
        append(ev, RS_EV_TRUNCATED, step, RS_EV_NONE, RS_EV_NONE, RS_EV_NONE, RS_EV_NONE);
        return;
    }
    append(ev, kind, step, packet, node, port, vc);
}

void rs__events_put(struct rs_events *ev, enum rs_event_kind kind, uint32_t step,
                    uint32_t packet, uint32_t node, uint32_t port, uint32_t vc)
{
    if (ev->ol) /* the engine's slot: its packet's id */
        packet = packet == RS_EV_SCRATCH     ? ev->ol->scratch_id
                 : packet < ev->ol->slot_cap ? ev->ol->slot_id[packet]
                                             : RS_EV_NONE;
    put_one(ev, kind, step, packet, node, port, vc);
    if (kind == RS_EV_INJECTED && port != RS_EV_NONE) /* its first channel: a hop too */
        put_one(ev, RS_EV_HOP, step, packet, node, port, vc);
}

/* ---- open loop --------------------------------------------------------------------------- */

int rs__events_start_openloop(struct rs_events *ev, uint32_t n_terminals,
                              const uint32_t *term_node, struct rs_err *err)
{
    int rc = rs__events_start(ev, 63, err); /* one word of blocked bits to start with */
    if (rc)
        return rc;
    ev->n_packets = 64;
    struct ev_open *o = rs_calloc(1, sizeof *o);
    if (!o)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the event log");
    ev->ol = o;
    o->n_term = n_terminals;
    o->scratch_id = RS_EV_NONE;
    o->term_node = rs_malloc((size_t)n_terminals * sizeof *o->term_node + 1);
    o->fifo = rs_calloc((size_t)n_terminals + 1, sizeof *o->fifo);
    if (!o->term_node || !o->fifo)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the event log");
    memcpy(o->term_node, term_node, (size_t)n_terminals * sizeof *term_node);
    return 0;
}

/* Out of memory or of ids during an open-loop run: end the log with the marker. */
static void ol_stop(struct rs_events *ev, uint32_t step)
{
    if (ev->truncated)
        return;
    ev->truncated = 1;
    append(ev, RS_EV_TRUNCATED, step, RS_EV_NONE, RS_EV_NONE, RS_EV_NONE, RS_EV_NONE);
}

void rs__events_ol_generated(struct rs_events *ev, uint32_t step, uint32_t t, uint32_t total)
{
    struct ev_open *o = ev->ol;
    struct ev_fifo *q = &o->fifo[t];
    for (; q->logged < total; q->logged++) {
        if (o->next_id >= RS_EV_SCRATCH) { /* ids are 32-bit, two values reserved */
            ol_stop(ev, step);
            return;
        }
        if (q->count == q->cap) { /* grow the ring, unrolled to start at 0 */
            uint32_t cap = q->cap ? 2 * q->cap : 4;
            uint32_t *v = rs_malloc((size_t)cap * sizeof *v);
            if (!v || cap < q->cap) {
                rs_free(v);
                ol_stop(ev, step);
                return;
            }
            for (uint32_t i = 0; i < q->count; i++)
                v[i] = q->v[(q->head + i) % q->cap];
            rs_free(q->v);
            q->v = v;
            q->head = 0;
            q->cap = cap;
        }
        uint32_t id = (uint32_t)o->next_id++;
        q->v[(q->head + q->count++) % q->cap] = id;
        put_one(ev, RS_EV_GENERATED, step, id, o->term_node[t], RS_EV_NONE, RS_EV_NONE);
    }
}

void rs__events_ol_bind(struct rs_events *ev, uint32_t slot, uint32_t t, uint32_t k)
{
    struct ev_open *o = ev->ol;
    struct ev_fifo *q = &o->fifo[t];
    while (q->popped < k && q->count) { /* the packets before k have started */
        q->head = (q->head + 1) % q->cap;
        q->count--;
        q->popped++;
    }
    uint32_t id = q->popped == k && q->count ? q->v[q->head] : RS_EV_NONE;
    if (slot == RS_EV_SCRATCH) {
        o->scratch_id = id;
        return;
    }
    if (slot >= o->slot_cap) {
        uint64_t cap = o->slot_cap ? 2 * o->slot_cap : 1024;
        while (cap <= slot)
            cap *= 2;
        uint32_t *v = rs_realloc(o->slot_id, (size_t)cap * sizeof *v);
        if (!v) {
            ol_stop(ev, 0);
            return;
        }
        for (uint64_t i = o->slot_cap; i < cap; i++)
            v[i] = RS_EV_NONE;
        o->slot_id = v;
        o->slot_cap = cap;
    }
    o->slot_id[slot] = id;
}

uint64_t rs_events_count(const struct rs_events *ev)
{
    return ev->n;
}

int rs_events_truncated(const struct rs_events *ev)
{
    return ev->truncated;
}

/* Record from its packed words. */
static void unpack(const uint32_t w[4], struct rs_event *e)
{
    e->step = w[0];
    e->packet = w[1];
    e->node = w[2];
    e->port = (w[3] & 0xffffu) == 0xffffu ? RS_EV_NONE : (w[3] & 0xffffu);
    e->vc = ((w[3] >> 16) & 0xffu) == 0xffu ? RS_EV_NONE : ((w[3] >> 16) & 0xffu);
    e->kind = (enum rs_event_kind)(w[3] >> 24);
}

void rs_events_get(const struct rs_events *ev, uint64_t i, struct rs_event *e)
{
    unpack(ev->rec[i], e);
}

/* One CSV line of e (fields that do not apply left empty). */
static int csv_line(struct rs_buf *b, const struct rs_event *e)
{
    char f[4][16];
    const uint32_t v[4] = {e->packet, e->node, e->port, e->vc};
    for (int i = 0; i < 4; i++) {
        if (v[i] == RS_EV_NONE)
            f[i][0] = '\0';
        else
            snprintf(f[i], sizeof f[i], "%" PRIu32, v[i]);
    }
    const char *name = rs_event_kind_name(e->kind);
    return rs_buf_printf(b, "%" PRIu32 ",%s,%s,%s,%s,%s\n", e->step, name ? name : "?", f[0],
                         f[1], f[2], f[3]);
}

static void put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int rs_events_write(const struct rs_events *ev, const char *path, int binary,
                    struct rs_err *err)
{
    struct rs_buf b;
    rs_buf_init(&b);
    if (binary) {
        unsigned char h[EV_BIN_HEADER];
        memcpy(h, bin_magic, sizeof bin_magic);
        put_le32(h + 8, EV_BIN_RECORD);
        put_le32(h + 12, 0);
        rs_buf_append(&b, (const char *)h, sizeof h);
        for (uint64_t i = 0; i < ev->n && !b.failed; i++) {
            unsigned char r[EV_BIN_RECORD];
            for (int k = 0; k < 4; k++)
                put_le32(r + 4 * k, ev->rec[i][k]);
            rs_buf_append(&b, (const char *)r, sizeof r);
        }
    } else {
        rs_buf_puts(&b, RS_EVENTS_CSV_HEADER "\n");
        for (uint64_t i = 0; i < ev->n && !b.failed; i++) {
            struct rs_event e;
            unpack(ev->rec[i], &e);
            csv_line(&b, &e);
        }
    }
    int rc = rs_buf_write_file(&b, path, err);
    rs_buf_free(&b);
    return rc;
}

int rs_events_bin_to_csv(const char *data, size_t len, const char *what, struct rs_buf *out,
                         struct rs_err *err)
{
    const unsigned char *p = (const unsigned char *)data;
    if (len < EV_BIN_HEADER || memcmp(p, bin_magic, sizeof bin_magic) ||
        get_le32(p + 8) != EV_BIN_RECORD)
        return rs_err_set(err, RS_EPARSE,
                          "%s: not a routesim event log (written by run --events FILE.bin)",
                          what);
    if ((len - EV_BIN_HEADER) % EV_BIN_RECORD)
        return rs_err_set(err, RS_EPARSE, "%s: truncated record at byte %zu", what,
                          len - (len - EV_BIN_HEADER) % EV_BIN_RECORD);
    rs_buf_puts(out, RS_EVENTS_CSV_HEADER "\n");
    for (size_t off = EV_BIN_HEADER; off < len && !out->failed; off += EV_BIN_RECORD) {
        uint32_t w[4];
        for (int k = 0; k < 4; k++)
            w[k] = get_le32(p + off + 4 * (size_t)k);
        struct rs_event e;
        unpack(w, &e);
        if ((unsigned)e.kind >= RS_EV_N_KINDS)
            return rs_err_set(err, RS_EPARSE, "%s: unknown event kind %u at byte %zu", what,
                              (unsigned)e.kind, off);
        csv_line(out, &e);
    }
    return out->failed ? rs_err_set(err, RS_ENOMEM, "out of memory") : 0;
}

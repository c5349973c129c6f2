/* The per-packet event log of one run (`routesim run ... --events FILE`, docs/events.md):
 * a sink the engines append records to (generated, injected, hop, blocked, delivered,
 * dropped), with filters and a size guard, written at the end as CSV or as a compact
 * binary file, and the binary file read back as CSV. */
#ifndef ROUTESIM_EVENTS_H
#define ROUTESIM_EVENTS_H

#include <stdint.h>

#include "routesim/buf.h"
#include "routesim/error.h"

/* What happened to a packet (message). The numbers are the binary format's kind byte. */
enum rs_event_kind {
    RS_EV_GENERATED = 0, /* released into its source's store (batch: its release step) */
    RS_EV_INJECTED = 1,  /* left its source: its (header's) first channel crossing */
    RS_EV_HOP = 2,       /* (its header) crossed channel (node, port) on VC vc */
    RS_EV_BLOCKED = 3,   /* first step of a blocked episode (docs/events.md) */
    RS_EV_DELIVERED = 4, /* (its tail) arrived at its destination node */
    RS_EV_DROPPED = 5,   /* discarded at node */
    RS_EV_TRUNCATED = 6, /* the size guard stopped the log here (last record) */
    RS_EV_N_KINDS = 7
};

#define RS_EV_NONE UINT32_MAX /* a field that does not apply (port, vc; packet and node of
                                 the truncation marker) */

/* One record (16 bytes in the binary format). UNITS: step in the engine's steps. */
struct rs_event {
    uint32_t step, packet, node;
    uint32_t port, vc; /* RS_EV_NONE when not applicable */
    enum rs_event_kind kind;
};

/* Largest and default --events-max (records). */
#define RS_EVENTS_MAX_LIMIT ((uint64_t)1 << 28)
#define RS_EVENTS_MAX_DEFAULT ((uint64_t)1 << 22)

struct rs_events;

/* A new empty log keeping at most max_records records (1..RS_EVENTS_MAX_LIMIT; 0: the
 * default); the next one that passes the filters ends it with a truncation marker. Returns
 * 0 with *out set (release with rs_events_free), RS_EINVAL or RS_ENOMEM. */
int rs_events_new(struct rs_events **out, uint64_t max_records, struct rs_err *err);
void rs_events_free(struct rs_events *ev);

/* Filters (all must hold for a record to be kept; none: every record). text is a list of
 * numbers and ranges "3,10-20" (ranges inclusive): packets = message ids, nodes = the
 * record's node, steps = the record's step. The truncation marker passes every filter.
 * Returns 0, RS_EINVAL with "--events-WHAT: ..." for a malformed list, or RS_ENOMEM. */
enum rs_events_filter { RS_EVF_PACKETS, RS_EVF_NODES, RS_EVF_STEPS };
int rs_events_filter(struct rs_events *ev, enum rs_events_filter which, const char *text,
                     struct rs_err *err);

/* Records kept (the truncation marker included), and 1 when the size guard truncated. */
uint64_t rs_events_count(const struct rs_events *ev);
int rs_events_truncated(const struct rs_events *ev);

/* Record i (< rs_events_count) into *e. */
void rs_events_get(const struct rs_events *ev, uint64_t i, struct rs_event *e);

/* Write the log to path as rs_buf_write_file does (a regular file atomically), as binary
 * when binary is set, else as CSV (docs/events.md). Returns 0 or RS_E... with err set. */
int rs_events_write(const struct rs_events *ev, const char *path, int binary,
                    struct rs_err *err);

/* Append the CSV form of the binary log data[0..len) (read from the file named what, for
 * messages) to out, header line first. Returns 0, RS_EPARSE "WHAT: not a routesim event
 * log" / "WHAT: truncated record at byte N", or RS_ENOMEM. */
int rs_events_bin_to_csv(const char *data, size_t len, const char *what, struct rs_buf *out,
                         struct rs_err *err);

/* The kind's name in the CSV ("generated", "hop", ...), or NULL out of range. */
const char *rs_event_kind_name(enum rs_event_kind kind);

/* The CSV header line (without newline). */
#define RS_EVENTS_CSV_HEADER "step,event,packet,node,port,vc"

#endif

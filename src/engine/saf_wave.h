/* The leveled store-and-forward kernel for the butterfly (saf_wave.c): the batch engine's
 * FIFO model with input queues, block and a fixed capacity, on topology=butterfly without
 * wrap-around, direct bit-fixing routes, every packet released at step 0. It keeps queue
 * state only for the levels that hold packets (ring buffers of (destination, entry step)
 * records) and gives the general engine's results byte for byte (docs/model-saf.md,
 * "The leveled butterfly kernel"). saf.c chooses it (saf_kernel=auto) when a run is in its
 * domain. */
#ifndef RS_ENGINE_SAF_WAVE_H
#define RS_ENGINE_SAF_WAVE_H

#include <stdint.h>

#include "routesim/driver.h"
#include "routesim/engine.h"

struct saf_wave;

/* Largest queue_size the kernel takes (a queue's count and head share one byte). */
#define SAF_WAVE_MAX_CAP 15

/* Most threads a level's walk uses (the `threads` key's own limit). */
#define SAF_WAVE_MAX_THREADS 1024

/* 1 when the batch run of d with queue capacity cap (queue_size, packets; the caller has
 * checked queue_at=input, protocol=fifo, on_full=block, no queue_threshold) is
 * in the kernel's domain: a butterfly without wrap, plain routing, no plan or release
 * schedule, no event log, no invariant check, 1 <= cap <= SAF_WAVE_MAX_CAP. */
int rs__saf_wave_fits(const struct rs_driver *d, uint32_t cap);

/* Set up the kernel for d's run with capacity cap (packets) into *out; the dense levels'
 * walks use threads threads (1..SAF_WAVE_MAX_THREADS; the output does not depend on it).
 * Over MPI ranks (d->in->exchange with size P > 1) this process holds its rank's share of
 * the rows (saf_wave_dist.c) on one thread, and every step and the collection are
 * collective. Returns 0, RS_ENOMEM or RS_EUNSUPPORTED (N < P) (err set). */
int rs__saf_wave_init(struct saf_wave **out, struct rs_driver *d, uint32_t cap,
                      uint32_t threads, struct rs_err *err);

/* One step (the general engine's steps 1-5 of docs/model-saf.md); sets d->step,
 * d->remaining, d->moved and d->live (over ranks: over every rank). Returns 0, RS_ENOMEM or
 * RS_EIO (the exchange between ranks failed) (err set). */
int rs__saf_wave_step(struct saf_wave *w, struct rs_driver *d, struct rs_err *err);

/* The batch result (the general engine's columns) into res, and congestion and dilation
 * into d->in->paths when asked. Returns 0 or RS_ENOMEM (over ranks also RS_EIO). */
int rs__saf_wave_collect(struct saf_wave *w, struct rs_driver *d, struct rs_result *res);

/* Release everything (w may be NULL). */
void rs__saf_wave_free(struct saf_wave *w);

#endif

/* The waiting cycle of a deadlocked run as data: the channels (node, out-port and virtual
 * channel) that the blocked messages of the cycle wait for, in waiting order. Engines fill
 * it through their lifecycle's deadlock_cycle op (include/routesim/driver.h); `routesim run
 * --svg/--png` draws it on the network (docs/cli.md). */
#ifndef ROUTESIM_DEADLOCK_H
#define ROUTESIM_DEADLOCK_H

#include <stdint.h>

/* One channel of the cycle: channel (node, port) of the network (id node * max_ports +
 * port), virtual channel vc (RS_NONE where the model has none: store-and-forward queues),
 * and the message waiting for it (its id in the run's message set; RS_NONE when it has
 * none, an open-loop packet). Entry i waits for the channel held (or the queue filled) by
 * the message of entry i + 1; the last waits for the first's. */
struct rs_wait_chan {
    uint32_t node, port, vc, msg;
};

/* The cycle: n entries of chan (owned: rs_free through rs_deadlock_free), found at step
 * (UNITS: the engine's steps). n == 0: no cycle recorded (no deadlock, or an engine without
 * the op). */
struct rs_deadlock {
    uint32_t step;
    uint32_t n, cap;
    struct rs_wait_chan *chan;
};

/* An empty cycle (no allocation). */
void rs_deadlock_init(struct rs_deadlock *d);

/* Release what d holds and empty it; safe on an initialised or empty d. */
void rs_deadlock_free(struct rs_deadlock *d);

/* Append one entry. Returns 0 or RS_ENOMEM (d unchanged). */
int rs_deadlock_add(struct rs_deadlock *d, uint32_t node, uint32_t port, uint32_t vc,
                    uint32_t msg);

#endif

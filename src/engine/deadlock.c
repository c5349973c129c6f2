/* The waiting cycle of a deadlock as data (include/routesim/deadlock.h): a growable list
 * of channels that the engines' deadlock_cycle ops fill. */
#include "routesim/deadlock.h"
#include "routesim/alloc.h"
#include "routesim/error.h"

void rs_deadlock_init(struct rs_deadlock *d)
{
    d->step = 0;
    d->n = d->cap = 0;
    d->chan = NULL;
}

void rs_deadlock_free(struct rs_deadlock *d)
{
    rs_free(d->chan);
    rs_deadlock_init(d);
}

int rs_deadlock_add(struct rs_deadlock *d, uint32_t node, uint32_t port, uint32_t vc,
                    uint32_t msg)
{
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? 2 * d->cap : 16;
        struct rs_wait_chan *c = rs_realloc(d->chan, (size_t)cap * sizeof *c);
        if (!c)
            return RS_ENOMEM;
        d->chan = c;
        d->cap = cap;
    }
    d->chan[d->n++] = (struct rs_wait_chan){node, port, vc, msg};
    return 0;
}

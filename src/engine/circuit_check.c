/* Invariant checker of the circuit engine (check=1, and by itself in Debug builds for
 * small runs): capacities, connected circuits, message states and counts after a cycle. */
#include <string.h>

#include "engine/circuit.h"

/* Walk channels ch[0..len) from node `from`: each must leave the node the previous one
 * entered and exist. Returns the node the last one enters, or RS_NONE. *saw_via is set
 * when a channel enters node via (via may be RS_NONE). */
static uint32_t walk(const struct circ *c, uint32_t from, const uint32_t *ch, uint32_t len,
                     uint32_t via, int *saw_via)
{
    uint32_t at = from;
    for (uint32_t k = 0; k < len; k++) {
        uint32_t node = ch[k] / c->P, port = ch[k] % c->P;
        if (node != at)
            return RS_NONE;
        at = c->net->ops->neighbor(c->net, node, port, NULL);
        if (at == RS_NONE)
            return RS_NONE;
        if (at == via)
            *saw_via = 1;
    }
    return at;
}

int rs__circ_check(struct circ *c, uint32_t routed_now, struct rs_err *err)
{
    const struct rs_net *net = c->net;
    int rc = 0;
    /* capacities: every channel locked this cycle, by routed and failed messages alike */
    for (uint32_t p = 0; p < c->n_act && !rc; p++)
        for (uint32_t k = 0; k < c->cplen[p] && !rc; k++) {
            uint32_t ch = c->cpath[(uint64_t)p * c->cp_max + k];
            if (++c->chk[ch] > c->cap)
                rc = rs_err_set(err, RS_EINVARIANT,
                                "cycle %u: channel %u carries %u circuits, more than circuits=%u",
                                c->cycle, ch, c->chk[ch], c->cap);
        }
    for (uint32_t p = 0; p < c->n_act; p++)
        for (uint32_t k = 0; k < c->cplen[p]; k++)
            c->chk[c->cpath[(uint64_t)p * c->cp_max + k]] = 0;
    if (rc)
        return rc;
    /* circuits: connected from the source's node; routed ones end at the destination's */
    for (uint32_t p = 0; p < c->n_act; p++) {
        uint32_t m = c->act[p], s = rs_problem_src(c->pb, m), t = c->pb->dst[m];
        const uint32_t *path = &c->cpath[(uint64_t)p * c->cp_max];
        uint32_t len = c->cplen[p], via = c->via ? c->via[m] : RS_NONE;
        int saw_via = via == RS_NONE || s == t;
        if (c->mode != CIRC_MODE_LCAN && !c->fail[p]) { /* it locked its whole fixed path */
            if (len != c->off[m + 1] - c->off[m])
                return rs_err_set(err, RS_EINVARIANT,
                                  "cycle %u: message %u is routed with %u of its %llu channels",
                                  c->cycle, m, len,
                                  (unsigned long long)(c->off[m + 1] - c->off[m]));
            path = &c->hop[c->off[m]];
        }
        if (c->fail[p] && c->mode == CIRC_MODE_ALL_AT_ONCE)
            continue; /* it locked some of its channels, in no particular order */
        uint32_t end = walk(c, net->ops->src_node(net, s), path, len, via, &saw_via);
        if (end == RS_NONE)
            return rs_err_set(err, RS_EINVARIANT,
                              "cycle %u: the circuit of message %u (%u -> %u) is not a connected "
                              "path from its source",
                              c->cycle, m, s, t);
        if (c->fail[p])
            continue;
        if (end != net->ops->dst_node(net, t) || !saw_via)
            return rs_err_set(err, RS_EINVARIANT,
                              "cycle %u: the circuit of routed message %u (%u -> %u) ends at node "
                              "%u%s",
                              c->cycle, m, s, t, end, saw_via ? "" : " without its via switch");
        if (c->state && c->state[m] != CIRC_ROUTED)
            return rs_err_set(err, RS_EINVARIANT, "cycle %u: message %u routed but in state %u",
                              c->cycle, m, c->state[m]);
    }
    if (c->open) /* open loop: windows and the module's counts */
        return rs__circ_open_check(c, err);
    /* states and counts: delivered (each once), pending, dropped add up */
    uint64_t n_state[3] = {0, 0, 0}, sum = 0;
    for (uint32_t m = 0; m < c->n; m++) {
        if (c->state[m] > CIRC_DROPPED)
            return rs_err_set(err, RS_EINVARIANT, "message %u in state %u", m, c->state[m]);
        n_state[c->state[m]]++;
    }
    for (uint32_t k = 0; k < c->cycle; k++)
        sum += c->per_cycle[k];
    if (n_state[CIRC_ROUTED] != c->delivered || sum != c->delivered ||
        n_state[CIRC_DROPPED] != c->dropped || c->per_cycle[c->cycle - 1] != routed_now ||
        n_state[CIRC_PENDING] + routed_now != c->n_pend + c->unreleased)
        return rs_err_set(err, RS_EINVARIANT,
                          "cycle %u: counts disagree: %llu routed (%llu counted, %llu per "
                          "cycle), %llu dropped (%llu), %llu pending + %u just routed vs %u",
                          c->cycle, (unsigned long long)n_state[CIRC_ROUTED],
                          (unsigned long long)c->delivered, (unsigned long long)sum,
                          (unsigned long long)n_state[CIRC_DROPPED],
                          (unsigned long long)c->dropped,
                          (unsigned long long)n_state[CIRC_PENDING], routed_now,
                          c->n_pend + c->unreleased);
    return 0;
}

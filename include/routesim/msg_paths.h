/* Explicit message paths carried by a network (topology=graph with paths_file, and
 * topology=cms_lower_bound): message m starts at node start[m] and takes, hop by hop, the
 * out-ports port[off[m] .. off[m+1]); traffic=paths turns them into the message set. */
#ifndef ROUTESIM_MSG_PATHS_H
#define ROUTESIM_MSG_PATHS_H

#include <stdint.h>

/* Message m (0 .. n_msgs-1) has off[m+1] - off[m] >= 1 hops. Hop i (off[m] <= i <
 * off[m+1]) leaves its tail node (start[m] for the first hop, else head[i-1]) by out-port
 * port[i] and reaches head[i], so its channel id is tail * net->max_ports + port[i]. Paths
 * are edge-simple (no channel twice in one path; nodes may repeat). Owned by the network
 * (freed with it); read-only for everyone else. */
struct rs_msg_paths {
    uint64_t n_msgs;
    uint64_t *off;   /* [n_msgs + 1], off[0] = 0 */
    uint32_t *start; /* [n_msgs] first node */
    uint32_t *head;  /* [off[n_msgs]] node reached by each hop */
    uint32_t *port;  /* [off[n_msgs]] out-port taken by each hop */
};

/* Number of hops of message m. */
static inline uint64_t rs_msg_paths_len(const struct rs_msg_paths *mp, uint64_t m)
{
    return mp->off[m + 1] - mp->off[m];
}

/* Last node of message m (where it is delivered). */
static inline uint32_t rs_msg_paths_end(const struct rs_msg_paths *mp, uint64_t m)
{
    return mp->head[mp->off[m + 1] - 1];
}

#endif

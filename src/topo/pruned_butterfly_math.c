/* Arithmetic of the fat-tree view and of the pruned butterfly's vertices (000 §2, §3.1):
 * capacities, level offsets, decoding vertex ids, the fat-tree channel of a network
 * channel. Contracts: include/routesim/pruned_butterfly.h. */
#include "routesim/pruned_butterfly.h"

const struct rs__ftree *rs__ftree_of(const struct rs_net *net)
{
    return net && (net->caps & RS_CAP_FAT_TREE) ? net->priv : NULL;
}

const struct rs__pb *rs__pb_of(const struct rs_net *net)
{
    return net && (net->caps & RS_CAP_PRUNED_BUTTERFLY) ? net->priv : NULL;
}

void rs__ftree_init_area_universal(struct rs__ftree *ft, uint32_t n)
{
    RS_ASSERT(ft != NULL && n >= 1 && n <= RS_FT_MAX_LOG2N);
    ft->n = n;
    ft->N = 1u << n;
    for (uint32_t i = 0; i <= RS_FT_MAX_LOG2N; i++)
        ft->cap[i] = i >= 1 && i <= n ? 1u << ((n - i + 2) / 2) : 0; /* 2^ceil((n-i+1)/2) */
}

void rs__pb_init(struct rs__pb *pb, uint32_t n)
{
    RS_ASSERT(pb != NULL && n >= 2 && n <= RS_FT_MAX_LOG2N && n % 2 == 0);
    rs__ftree_init_area_universal(&pb->ft, n);
    uint32_t at = 0;
    for (uint32_t i = 0; i <= RS_FT_MAX_LOG2N + 1; i++) {
        pb->first[i] = at;
        if (i <= n)
            at += (1u << i) * rs__pb_width(n, i);
    }
    for (uint32_t i = 1; i <= n; i++) /* |E_ij| = W(i-1) is the area-universal capacity */
        RS_ASSERT(pb->ft.cap[i] == rs__pb_cap(n, i));
}

void rs__pb_decode(const struct rs__pb *pb, uint32_t v, uint32_t *i, uint32_t *j, uint32_t *k)
{
    uint32_t n = pb->ft.n, lv = 0;
    RS_ASSERT(v < pb->first[n + 1]);
    while (lv < n && v >= pb->first[lv + 1])
        lv++;
    uint32_t off = v - pb->first[lv], w = rs__pb_width(n, lv);
    *i = lv;
    *j = off / w;
    *k = off % w;
}

int rs__pb_channel_of(const struct rs__pb *pb, uint32_t v, uint32_t port, uint32_t *chan,
                      uint32_t *wire, int *up)
{
    uint32_t i, j, k, n = pb->ft.n;
    rs__pb_decode(pb, v, &i, &j, &k);
    if (port < RS_PB_UP) { /* down into child c: channel (i+1, 2j+c), wire = our k */
        if (i == n)
            return -1;
        *chan = rs__ft_node(i + 1, 2 * j + port);
        *wire = k;
        *up = 0;
        return 0;
    }
    uint32_t b = port - RS_PB_UP;
    if (i == 0 || b > 1 || (b == 1 && i % 2))
        return -1;
    *chan = rs__ft_node(i, j); /* up to <i-1, j/2, k + b W(i)>: wire = its k */
    *wire = k + b * rs__pb_width(n, i);
    *up = 1;
    return 0;
}

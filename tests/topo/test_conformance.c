/* Conformance of EVERY registered topology on small instances: node and channel counts
 * against closed formulas, channel heads and in-slots, out- and in-degrees, levels,
 * terminals, labels, routes (direct, Valiant and Ranade) that arrive within the diameter
 * on existing channels, and partition orders that are bijections; plus the registry itself
 * and the build errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "routesim/msg_paths.h"
#include "routesim/net.h"
#include "routesim/params.h"
#include "routesim/route.h"
#include "rs_test.h"

/* Parameters of an instance, as the formulas below read them. Networks given by data
 * (graph, cms_lower_bound) list their counts and degrees instead, worked by hand. */
struct inst {
    const char *kv; /* space-separated KEY=VALUE, topology first; "@/" is $RS_TEST_DATA/ */
    uint32_t N;     /* butterfly, benes: inputs */
    uint32_t k, n;  /* mesh, torus: k-ary n-dimensional; chain, ring: k nodes (n = 1) */
    int wrap;
    /* LCAN family: levels l, downers d[i] and uppers u[i] of level i, tree = T-LCAN */
    uint32_t l, d[4], u[4];
    int tree;
    /* data networks: nodes, channels, max_ports, diameter (the dilation when the network
     * carries paths), and the out- and in-degree of node v as digit v of the strings */
    uint32_t nodes, channels, max_ports, diameter;
    const char *outdeg, *indeg;
};

static const struct inst instances[] = {
    {"topology=butterfly N=2", 2, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=butterfly N=8", 8, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=butterfly N=16 wrap=1", 16, 0, 0, 1, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=butterfly N=2 wrap=1", 2, 0, 0, 1, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=benes N=2", 2, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=benes N=8", 8, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=benes N=16", 16, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=mesh k=4 n=2", 0, 4, 2, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=mesh k=3 n=3", 0, 3, 3, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=mesh k=5 n=1", 0, 5, 1, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=torus k=4 n=2", 0, 4, 2, 1, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=torus k=3 n=3", 0, 3, 3, 1, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=torus k=2 n=3", 0, 2, 3, 1, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=chain k=2", 0, 2, 1, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=chain k=7", 0, 7, 1, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=ring k=2", 0, 2, 1, 1, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=ring k=6", 0, 6, 1, 1, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=ring k=7", 0, 7, 1, 1, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=hypercube n=1", 0, 2, 1, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=hypercube n=4", 0, 2, 4, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=lcan N=27 d=3 u=2", 27, 0, 0, 0, 3, {3, 3, 3}, {2, 2, 2}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=lcan N=16 d=4 u=4", 16, 0, 0, 0, 2, {4, 4}, {4, 4}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=lcan N=8 d=2 u=3", 8, 0, 0, 0, 3, {2, 2, 2}, {3, 3, 3}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=lcan N=64 d=4,4,4 u=2,2,4", 64, 0, 0, 0, 3, {4, 4, 4}, {2, 2, 4}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=lcan N=16 d=4 u=2 pi=tree", 16, 0, 0, 0, 3, {4, 4, 4}, {2, 2, 2}, 1, 0, 0, 0, 0, NULL, NULL},
    {"topology=lcan N=16 d=4,4,4 u=2,2,4 pi=tree", 16, 0, 0, 0, 3, {4, 4, 4}, {2, 2, 4}, 1, 0, 0, 0, 0, NULL, NULL},
    {"topology=lcan N=6 d=6 u=3 pi=tree", 6, 0, 0, 0, 1, {6}, {3}, 1, 0, 0, 0, 0, NULL, NULL},
    {"topology=baseline N=16", 16, 0, 0, 0, 4, {2, 2, 2, 2}, {2, 2, 2, 2}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=baseline N=2", 2, 0, 0, 0, 1, {2}, {2}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=swbanyan N=27 f=3 s=3", 27, 0, 0, 0, 3, {3, 3, 3}, {3, 3, 3}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=swbanyan N=16 f=4 s=1", 16, 0, 0, 0, 2, {4, 4}, {1, 1}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=trac N=27", 27, 0, 0, 0, 3, {3, 3, 3}, {2, 2, 2}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=trac N=9", 9, 0, 0, 0, 2, {3, 3}, {2, 2}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=cm5 N=256", 256, 0, 0, 0, 4, {4, 4, 4, 4}, {2, 2, 4, 4}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=cm5 N=16", 16, 0, 0, 0, 2, {4, 4}, {2, 2}, 0, 0, 0, 0, 0, NULL, NULL},
    /* graph_small.txt: the ring 0..5 plus chords 0->3, 3->0, 1->4. Out: 0{1,3} 1{2,4} 2{3}
     * 3{4,0} 4{5} 5{0}; in: 0{5,3} 1{0} 2{1} 3{2,0} 4{3,1} 5{4}. Shortest paths: the
     * farthest pair is 4 -> 2 (4 5 0 1 2), 4 hops; every other pair is within 3. With its
     * paths file the routes are the 5 paths, dilation 4. */
    {"topology=graph graph_file=@/graph_small.txt", 0, 0, 0, 0, 0, {0}, {0}, 0, 6, 9, 2, 4, "221211", "211221"},
    {"topology=graph graph_file=@/graph_small.txt paths_file=@/graph_small_paths.txt", 0, 0, 0,
     0, 0, {0}, {0}, 0, 6, 9, 2, 4, "221211", "211221"},
    /* B=1 D=5: M'=4 (2*3-1 = 5 <= 5 < 2*4-1), primary edges p = {0,1} {0,2} {0,3} {1,2}
     * {1,3} {2,3}, tail 2p, head 2p+1. Base message i crosses the sets holding i in this
     * order: 0: p0 p1 p2; 1: p0 p3 p4; 2: p1 p3 p5; 3: p2 p4 p5. Secondary edges h0->t1,
     * h1->t2, h0->t3, h3->t4, h1->t3, h3->t5, h2->t4, h4->t5: 6 + 8 = 14 channels,
     * paths of 2*3-1 = 5 hops. C=2: one copy each (C/(B+1) = 1). */
    {"topology=cms_lower_bound B=1 C=2 D=5 L=6", 0, 0, 0, 0, 0, {0}, {0}, 0, 12, 14, 2, 5, "121211121110",
     "011111212121"},
    /* D=6: the same M'=4 and one padding node per base message (12+i) after its last
     * head: h2 (message 0), h4 (1), h5 (2 and 3). 18 channels. */
    {"topology=cms_lower_bound B=1 C=4 D=6 L=8", 0, 0, 0, 0, 0, {0}, {0}, 0, 16, 18, 2, 6, "1212121212120000",
     "0111112121211111"},
    /* B=2 D=5: M'=4 (2*binom(3,2)-1 = 5), 4 primary edges (the 3-sets of 4), paths of
     * 5 hops; secondary=all: every head to the 3 other tails, 4 + 12 = 16 channels. */
    {"topology=cms_lower_bound B=2 C=3 D=5 L=6 secondary=all", 0, 0, 0, 0, 0, {0}, {0}, 0, 8, 16, 3, 5,
     "13131313", "31313131"},
    /* pruned butterfly (000 §3.1): N; fat_tree: N and the capacities by height in d[] */
    {"topology=pruned_butterfly N=4", 4, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=pruned_butterfly N=16", 16, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=pruned_butterfly N=64", 64, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=fat_tree N=16", 16, 0, 0, 0, 0, {2, 2, 4, 4}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=fat_tree N=8 capacity=full", 8, 0, 0, 0, 0, {1, 2, 4}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=fat_tree N=16 capacity=constant cap=3", 16, 0, 0, 0, 0, {3, 3, 3, 3}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=fat_tree N=16 capacity=list caps=1,3,2,5", 16, 0, 0, 0, 0, {1, 3, 2, 5}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=fat_tree N=2", 2, 0, 0, 0, 0, {2}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    /* sorting fat-tree (000 §4.2): N and the mesh side in k (0: the smallest power of 2
     * >= log2 N); one mesh of 4 x 4, two meshes of 8 x 8, 16 meshes of 2 x 2 */
    {"topology=sorting_fat_tree N=16", 16, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=sorting_fat_tree N=128", 128, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=sorting_fat_tree N=64 side=2", 64, 2, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    /* k-ary n-fly: k, n (N = k^n terminals), wrap */
    {"topology=kary_nfly k=2 n=3", 0, 2, 3, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=kary_nfly k=4 n=2", 0, 4, 2, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=kary_nfly k=3 n=3 wrap=1", 0, 3, 3, 1, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=kary_nfly k=2 n=1", 0, 2, 1, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    /* k-ary n-tree: k, n */
    {"topology=kary_ntree k=2 n=2", 0, 2, 2, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=kary_ntree k=3 n=3", 0, 3, 3, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=kary_ntree k=4 n=1", 0, 4, 1, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    /* dragonfly: g groups in N, p terminals per router in k, a routers per group in n, h
     * global links per router in l */
    {"topology=dragonfly p=1 a=2 h=1", 3, 1, 2, 0, 1, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=dragonfly p=2 a=4 h=2 g=5 arrangement=relative", 5, 2, 4, 0, 2, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=dragonfly p=2 arrangement=circulant", 9, 2, 4, 0, 2, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    /* HyperX with S = k in each of n dimensions and T = l terminals per router; the k-ary
     * m-flat as the HyperX of n = m-1 dimensions of k routers, T = l = k (c = 0) */
    {"topology=hyperx S=4,4 T=2", 0, 4, 2, 0, 2, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=hyperx S=3,3,3", 0, 3, 3, 0, 1, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=flattened_butterfly k=4 n=3", 0, 4, 2, 0, 4, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=flattened_butterfly k=2 n=4 c=3", 0, 2, 3, 0, 3, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    /* Slim Fly: q in k, p terminals per router in l; radix (3q - delta)/2 in n */
    {"topology=slimfly q=3", 0, 3, 5, 0, 3, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=slimfly q=4 p=2", 0, 4, 6, 0, 2, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {"topology=slimfly q=5 p=1", 0, 5, 7, 0, 1, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL},
    {NULL, 0, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, 0, 0, NULL, NULL}};

static uint32_t ilog2(uint32_t x);

/* Fat-tree families: wires of a level-i channel (i = 1..n) of instance in; the pruned
 * butterfly's are the widths of its parent nodes, 2^ceil((n-i+1)/2), fat_tree's by height
 * h = n-i+1 in d[h-1]. */
static uint32_t ft_cap(const char *name, const struct inst *in, uint32_t i)
{
    uint32_t n = ilog2(in->N);
    if (i < 1 || i > n)
        return 0;
    return strcmp(name, "pruned_butterfly") ? in->d[n - i] : 1u << ((n - i + 2) / 2);
}

/* Vertices of a level-i node: 1 for fat_tree, W(i) = 2^ceil((n-i)/2) for the pruned
 * butterfly. */
static uint32_t ft_width(const char *name, const struct inst *in, uint32_t i)
{
    uint32_t n = ilog2(in->N);
    return strcmp(name, "pruned_butterfly") ? 1 : 1u << ((n - i + 1) / 2);
}

static int tree_family(const char *name)
{
    return !strcmp(name, "pruned_butterfly") || !strcmp(name, "fat_tree");
}

/* Sorting fat-tree of instance in: mesh side m, tree levels H above the meshes, and the
 * wires of a level-i channel 2^ceil((n-i)/2) (i = 1..H; 0 outside). */
static void sft_shape(const struct inst *in, uint32_t *m, uint32_t *H)
{
    uint32_t n = ilog2(in->N);
    *m = in->k ? in->k : 1u << ilog2(n);
    *H = n - 2 * ilog2(*m);
}

static uint32_t sft_cap(const struct inst *in, uint32_t i)
{
    uint32_t m, H, n = ilog2(in->N);
    sft_shape(in, &m, &H);
    return i >= 1 && i <= H ? 1u << ((n - i + 1) / 2) : 0;
}

static int data_family(const char *name)
{
    return !strcmp(name, "graph") || !strcmp(name, "cms_lower_bound");
}

static uint32_t ilog2(uint32_t x)
{
    uint32_t l = 0;
    while ((1u << l) < x)
        l++;
    return l;
}

static uint32_t ipow(uint32_t k, uint32_t n)
{
    uint32_t r = 1;
    while (n--)
        r *= k;
    return r;
}

/* Closed formulas per topology name. */
struct expect {
    uint32_t nodes, max_ports, terminals, levels, diameter;
    uint64_t channels;
};

static int grid_family(const char *name)
{
    return !strcmp(name, "mesh") || !strcmp(name, "torus") || !strcmp(name, "chain") ||
           !strcmp(name, "ring") || !strcmp(name, "hypercube");
}

static int lcan_family(const char *name)
{
    return !strcmp(name, "lcan") || !strcmp(name, "baseline") || !strcmp(name, "swbanyan") ||
           !strcmp(name, "trac") || !strcmp(name, "cm5");
}

/* Switches of level i of an LCAN (002 eq. 1 per level): S_0 = N/d_0,
 * S_{i+1} = S_i u_i / d_{i+1}. */
static uint32_t lcan_switches(const struct inst *in, uint32_t i)
{
    uint64_t S = in->N / in->d[0];
    for (uint32_t j = 0; j < i; j++)
        S = S * in->u[j] / in->d[j + 1];
    return (uint32_t)S;
}

static int expected(const char *name, const struct inst *in, struct expect *e)
{
    memset(e, 0, sizeof *e);
    if (lcan_family(name)) {
        /* N PEs + the switches; every wire (PE-level 0, and level i-level i+1 uppers) is
         * two channels; a switch has d_i + u_i ports (top: d only); LCA routes have at most
         * 2l hops (up l-1 levels, down again, plus the PE links) */
        e->nodes = in->N;
        e->channels = 2ull * in->N;
        e->max_ports = 1;
        for (uint32_t i = 0; i < in->l; i++) {
            uint32_t S = lcan_switches(in, i), ports = in->d[i] + (i + 1 < in->l ? in->u[i] : 0);
            e->nodes += S;
            if (i + 1 < in->l)
                e->channels += 2ull * S * in->u[i];
            if (ports > e->max_ports)
                e->max_ports = ports;
        }
        e->terminals = in->N;
        e->levels = 0; /* channels go both up and down: not leveled */
        e->diameter = 2 * in->l;
        return 1;
    }
    if (!strcmp(name, "butterfly")) {
        uint32_t n = ilog2(in->N);
        e->levels = in->wrap ? n : n + 1;      /* wrap: level n is level 0 */
        e->nodes = e->levels * in->N;          /* (n+1)N, wrap nN */
        e->channels = 2ull * n * in->N;        /* 2 out of every node of levels 0..n-1 */
        e->max_ports = 2;
        e->terminals = in->N;
        e->diameter = n;
        return 1;
    }
    if (!strcmp(name, "benes")) {
        uint32_t n = ilog2(in->N);
        e->levels = 2 * n + 1;
        e->nodes = (2 * n + 1) * in->N;
        e->channels = 4ull * n * in->N;        /* 2 out of every node of levels 0..2n-1 */
        e->max_ports = 2;
        e->terminals = in->N;
        e->diameter = 2 * n;
        return 1;
    }
    if (grid_family(name)) {
        uint32_t kn = ipow(in->k, in->n);
        e->nodes = kn;
        e->terminals = kn;
        e->max_ports = 2 * in->n;
        e->levels = 0;
        if (in->wrap) {                        /* torus, ring: 2n out of every node */
            e->channels = 2ull * in->n * kn;
            e->diameter = in->n * (in->k / 2);
        } else {                               /* mesh, chain: k-1 links per line, 2 ways */
            e->channels = 2ull * in->n * (kn / in->k) * (in->k - 1);
            e->diameter = in->n * (in->k - 1);
        }
        return 1;
    }
    if (tree_family(name)) {
        /* vertices node by node; every wire two channels; a fat_tree node has 2 cap(i+1)
         * ports down and cap(i) up, a pruned butterfly vertex 2 down and 2 or 1 up (even or
         * odd level); leaf to leaf through the root is 2n channels */
        uint32_t n = ilog2(in->N);
        e->nodes = 0;
        e->channels = 0;
        e->max_ports = !strcmp(name, "fat_tree") ? 0 : 4;
        for (uint32_t i = 0; i <= n; i++) {
            e->nodes += (1u << i) * ft_width(name, in, i);
            e->channels += 2ull * (1u << i) * ft_cap(name, in, i);
            if (!strcmp(name, "fat_tree") && 2 * ft_cap(name, in, i + 1) + ft_cap(name, in, i) > e->max_ports)
                e->max_ports = 2 * ft_cap(name, in, i + 1) + ft_cap(name, in, i);
        }
        e->terminals = in->N;
        e->levels = 0;
        e->diameter = 2 * n;
        return 1;
    }
    if (!strcmp(name, "sorting_fat_tree")) {
        /* N terminals in 2^H meshes (2 m (m-1) links, two channels each) plus 2^H - 1 tree
         * nodes; a level-i channel has 2^ceil((n-i)/2) wires, two channels each; a tree node
         * has 2 cap(i+1) + cap(i) ports, a terminal at most 4 + UP; the farthest pair goes
         * up m-1 rows, up and down H levels, down m-1 rows */
        uint32_t m, H;
        sft_shape(in, &m, &H);
        e->nodes = in->N + (1u << H) - 1;
        e->channels = (1ull << H) * 4 * m * (m - 1);
        e->max_ports = H ? 5 : 4;
        for (uint32_t i = 0; i < H; i++) {
            e->channels += 2ull * (2u << i) * sft_cap(in, i + 1);
            if (2 * sft_cap(in, i + 1) + sft_cap(in, i) > e->max_ports)
                e->max_ports = 2 * sft_cap(in, i + 1) + sft_cap(in, i);
        }
        e->terminals = in->N;
        e->levels = 0;
        e->diameter = 2 * (m - 1) + 2 * H;
        return 1;
    }
    if (!strcmp(name, "kary_nfly")) {
        /* n stages of R = k^(n-1) routers; k channels out of every router but the last
         * stage's (wrap: one return channel each); route n-1 hops (Valiant 2n-1, within
         * twice the diameter counted as n with wrap) */
        uint32_t R = ipow(in->k, in->n - 1);
        e->levels = in->n;
        e->nodes = in->n * R;
        e->channels = (uint64_t)(in->n - 1) * R * in->k + (in->wrap ? R : 0);
        e->max_ports = in->k + (in->wrap ? 1 : 0);
        e->terminals = R * in->k;
        e->diameter = in->n - 1 + (in->wrap ? 1 : 0);
        return 1;
    }
    if (!strcmp(name, "kary_ntree")) {
        /* n levels of R = k^(n-1) switches, k links between each switch and the level below,
         * both ways; k down and k up ports; up to the roots and down: 2(n-1) */
        uint32_t R = ipow(in->k, in->n - 1);
        e->levels = 0; /* channels go up and down */
        e->nodes = in->n * R;
        e->channels = 2ull * (in->n - 1) * R * in->k;
        e->max_ports = 2 * in->k;
        e->terminals = R * in->k;
        e->diameter = 2 * (in->n - 1);
        return 1;
    }
    if (!strcmp(name, "hyperx") || !strcmp(name, "flattened_butterfly")) {
        /* k^n routers, each joined to the k-1 others of each of its n lines; T = l each */
        uint32_t R = ipow(in->k, in->n);
        e->levels = 0;
        e->nodes = R;
        e->max_ports = in->n * (in->k - 1);
        e->channels = (uint64_t)R * e->max_ports;
        e->terminals = R * in->l;
        e->diameter = in->n;
        return 1;
    }
    if (!strcmp(name, "slimfly")) {
        /* 2q^2 routers of k' ports each, p terminals each; diameter 2 */
        e->levels = 0;
        e->nodes = 2 * in->k * in->k;
        e->max_ports = in->n;
        e->channels = (uint64_t)e->nodes * in->n;
        e->terminals = e->nodes * in->l;
        e->diameter = 2;
        return 1;
    }
    if (!strcmp(name, "dragonfly")) {
        /* p a g terminals and a g routers; terminal links both ways, a complete graph of a
         * routers per group, a h global channels per group; minimal routes: terminal, local,
         * global, local, terminal */
        uint32_t p = in->k, a = in->n, h = in->l, g = in->N;
        e->nodes = p * a * g + a * g;
        e->channels = 2ull * p * a * g + (uint64_t)g * a * (a - 1) + (uint64_t)g * a * h;
        e->max_ports = p + a - 1 + h;
        e->terminals = p * a * g;
        e->levels = 0;
        e->diameter = 5;
        return 1;
    }
    if (data_family(name)) {
        e->nodes = in->nodes;
        e->channels = in->channels;
        e->max_ports = in->max_ports;
        e->terminals = in->nodes; /* every node is a terminal */
        e->levels = 0;
        e->diameter = in->diameter;
        return 1;
    }
    return 0;
}

/* Out- and in-degree of node by formula. */
static void expected_degree(const char *name, const struct inst *in, const struct rs_net *net,
                            uint32_t node, uint32_t *out, uint32_t *inn)
{
    if (data_family(name)) {
        *out = (uint32_t)(in->outdeg[node] - '0');
        *inn = (uint32_t)(in->indeg[node] - '0');
        return;
    }
    if (tree_family(name)) { /* the node's level i from the vertex counts of the levels */
        uint32_t n = ilog2(in->N), i = 0, first = 0;
        while (node >= first + (1u << i) * ft_width(name, in, i)) {
            first += (1u << i) * ft_width(name, in, i);
            i++;
        }
        if (!strcmp(name, "fat_tree")) {
            *out = *inn = 2 * ft_cap(name, in, i + 1) + ft_cap(name, in, i);
        } else {
            *out = *inn = (i < n ? 2 : 0) + (i == 0 ? 0 : i % 2 ? 1 : 2);
        }
        return;
    }
    if (!strcmp(name, "hyperx") || !strcmp(name, "flattened_butterfly")) {
        *out = *inn = in->n * (in->k - 1);
        return;
    }
    if (!strcmp(name, "slimfly")) {
        *out = *inn = in->n;
        return;
    }
    if (!strcmp(name, "dragonfly")) { /* a terminal: its router; a router: p + a-1 + h */
        *out = *inn = node < in->k * in->n * in->N ? 1 : in->k + in->n - 1 + in->l;
        return;
    }
    if (!strcmp(name, "sorting_fat_tree")) { /* mesh neighbours (+ UP in row 0), tree node */
        uint32_t m, H;
        sft_shape(in, &m, &H);
        if (node < in->N) {
            uint32_t r = (node / m) % m, c = node % m;
            *out = (uint32_t)(r > 0) + (uint32_t)(r + 1 < m) + (uint32_t)(c > 0) +
                   (uint32_t)(c + 1 < m) + (uint32_t)(r == 0 && H > 0);
        } else {
            uint32_t i = ilog2(node - in->N + 2) - 1; /* node N + 2^i - 1 + j */
            *out = 2 * sft_cap(in, i + 1) + sft_cap(in, i);
        }
        *inn = *out;
        return;
    }
    if (lcan_family(name)) { /* PE: one wire; switch of level i: d_i + u_i (top: d) */
        uint32_t first = in->N;
        if (node < in->N) {
            *out = *inn = 1;
            return;
        }
        for (uint32_t i = 0; i < in->l; i++) {
            uint32_t S = lcan_switches(in, i);
            if (node < first + S) {
                *out = *inn = in->d[i] + (i + 1 < in->l ? in->u[i] : 0);
                return;
            }
            first += S;
        }
        fail();
    }
    if (!strcmp(name, "kary_nfly")) { /* k out but the last stage, k in but the first; wrap:
                                          * the return channel, last stage to first */
        uint32_t s = node / ipow(in->k, in->n - 1);
        *out = (s + 1 < in->n ? in->k : 0) + (in->wrap && s + 1 == in->n);
        *inn = (s > 0 ? in->k : 0) + (in->wrap && s == 0);
        return;
    }
    if (!strcmp(name, "kary_ntree")) { /* k down but the leaves, k up but the roots */
        uint32_t l = node / ipow(in->k, in->n - 1);
        *out = *inn = (l + 1 < in->n ? in->k : 0) + (l > 0 ? in->k : 0);
        return;
    }
    if (!strcmp(name, "butterfly") || !strcmp(name, "benes")) {
        uint32_t l = node / in->N, last = net->n_levels - 1;
        if (in->wrap) {
            *out = *inn = 2;
        } else {
            *out = l < last ? 2 : 0;
            *inn = l > 0 ? 2 : 0;
        }
        return;
    }
    /* grid: in each dimension one neighbour per side that exists (torus: always both) */
    uint32_t d = 0;
    for (uint32_t i = 0; i < in->n; i++) {
        uint32_t x = node % in->k;
        node /= in->k;
        d += in->wrap ? 2 : (uint32_t)(x > 0) + (uint32_t)(x + 1 < in->k);
    }
    *out = *inn = d;
}

static void build(struct rs_net *net, struct rs_params *p, const char *kv)
{
    char buf[1024], *save = NULL;
    struct rs_err err;
    rs_params_init(p);
    rs_test_with_data(kv, buf, sizeof buf);
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        assert_non_null(eq);
        *eq = '\0';
        assert_int_equal(rs_params_set(p, w, eq + 1, NULL, 0, &err), 0);
    }
    int rc = rs_net_build(net, p, &err);
    if (rc) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
}

static const char *topo_of(const char *kv, char *name, size_t n)
{
    snprintf(name, n, "%s", kv + strlen("topology="));
    name[strcspn(name, " ")] = '\0';
    return name;
}

static void test_every_topology_has_instances_and_formulas(void **state)
{
    for (int i = 0; rs_topologies[i]; i++) {
        int found = 0, formula = 0;
        struct expect e;
        for (int j = 0; instances[j].kv; j++) {
            char name[32];
            if (!strcmp(topo_of(instances[j].kv, name, sizeof name), rs_topologies[i]->name)) {
                found++;
                formula = expected(name, &instances[j], &e);
            }
        }
        if (found < 2 || !formula) {
            print_error("topology '%s' needs >= 2 instances and formulas in this test\n",
                        rs_topologies[i]->name);
            fail();
        }
    }
}

static void test_counts(void **state)
{
    for (int j = 0; instances[j].kv; j++) {
        struct rs_params p;
        struct rs_net net;
        struct expect e;
        char name[32];
        build(&net, &p, instances[j].kv);
        assert_true(expected(topo_of(instances[j].kv, name, sizeof name), &instances[j], &e));
        assert_string_equal(net.name, name);
        assert_string_equal(net.ops->name, name);
        assert_int_equal(net.n_nodes, e.nodes);
        assert_int_equal(net.n_channels, e.channels);
        assert_int_equal(net.max_ports, e.max_ports);
        assert_int_equal(net.n_terminals, e.terminals);
        assert_int_equal(net.n_levels, e.levels);
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

/* Every channel's head exists, has an in-slot < max_ports, and no two channels share
 * (head, in-slot); degrees match the formula; levels advance by one per channel. */
static void test_channels_and_degrees(void **state)
{
    for (int j = 0; instances[j].kv; j++) {
        struct rs_params p;
        struct rs_net net;
        char name[32];
        const struct inst *in = &instances[j];
        build(&net, &p, in->kv);
        topo_of(in->kv, name, sizeof name);
        uint32_t P = net.max_ports;
        uint8_t *used = calloc((size_t)net.n_nodes * P, 1);
        uint32_t *indeg = calloc(net.n_nodes, sizeof *indeg);
        assert_non_null(used);
        assert_non_null(indeg);
        uint64_t channels = 0;
        for (uint32_t v = 0; v < net.n_nodes; v++) {
            uint32_t outdeg = 0;
            for (uint32_t port = 0; port < P; port++) {
                uint32_t slot = UINT32_MAX;
                uint32_t w = net.ops->neighbor(&net, v, port, &slot);
                assert_int_equal(net.ops->neighbor(&net, v, port, NULL), w);
                if (w == RS_NONE)
                    continue;
                outdeg++;
                channels++;
                assert_true(w < net.n_nodes);
                assert_true(slot < P);
                assert_int_equal(used[(size_t)w * P + slot], 0);
                used[(size_t)w * P + slot] = 1;
                indeg[w]++;
                int lv = net.ops->level(&net, v), lw = net.ops->level(&net, w);
                if (net.n_levels) {
                    assert_true(lv >= 0 && lv < (int)net.n_levels);
                    assert_int_equal(lw, (lv + 1) % (int)net.n_levels);
                } else {
                    assert_int_equal(lv, -1);
                }
            }
            /* ports past max_ports have no channel */
            assert_int_equal(net.ops->neighbor(&net, v, P, NULL), RS_NONE);
            uint32_t want_out, want_in;
            expected_degree(name, in, &net, v, &want_out, &want_in);
            assert_int_equal(outdeg, want_out);
        }
        for (uint32_t v = 0; v < net.n_nodes; v++) {
            uint32_t want_out, want_in;
            expected_degree(name, in, &net, v, &want_out, &want_in);
            assert_int_equal(indeg[v], want_in);
        }
        assert_int_equal(channels, net.n_channels);
        free(used);
        free(indeg);
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

/* Terminals map to distinct existing nodes (the k-ary n-fly: k per first- and last-stage
 * router, BookSim's concentration; HyperX: T per router); labels are distinct and nonempty. */
static void test_terminals_and_labels(void **state)
{
    for (int j = 0; instances[j].kv; j++) {
        struct rs_params p;
        struct rs_net net;
        char name[32];
        build(&net, &p, instances[j].kv);
        int fly = !strcmp(topo_of(instances[j].kv, name, sizeof name), "kary_nfly");
        uint32_t conc = fly || !strcmp(name, "kary_ntree") ? instances[j].k : 1;
        if (!strcmp(name, "hyperx") || !strcmp(name, "flattened_butterfly") ||
            !strcmp(name, "slimfly"))
            conc = instances[j].l; /* T (p) terminals per router */
        uint8_t *src = calloc(net.n_nodes, 1), *dst = calloc(net.n_nodes, 1);
        assert_non_null(src);
        assert_non_null(dst);
        for (uint32_t t = 0; t < net.n_terminals; t++) {
            uint32_t s = net.ops->src_node(&net, t), d = net.ops->dst_node(&net, t);
            assert_true(s < net.n_nodes && d < net.n_nodes);
            assert_true(src[s]++ < conc);
            assert_true(dst[d]++ < conc);
            if (net.n_levels) { /* inputs on level 0, outputs on the last level */
                assert_int_equal(net.ops->level(&net, s), 0);
                assert_int_equal(net.ops->level(&net, d),
                                 net.wrap && !fly ? 0 : (int)net.n_levels - 1);
            }
        }
        char (*labels)[64] = calloc(net.n_nodes, sizeof *labels);
        assert_non_null(labels);
        for (uint32_t v = 0; v < net.n_nodes; v++) {
            net.ops->label(&net, v, labels[v], sizeof labels[v]);
            assert_true(strlen(labels[v]) > 0);
            for (uint32_t u = 0; u < v; u++)
                assert_string_not_equal(labels[u], labels[v]);
        }
        free(labels);
        free(src);
        free(dst);
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

/* Expand st and check: arrives at dst_node(dst), within max hops, every channel exists,
 * consecutive channels are joined head to tail, and the first leaves src_node(src). */
static void check_route(const struct rs_net *net, const struct rs_route_state *st,
                        uint32_t max, const char *kv)
{
    uint64_t chans[256];
    uint32_t end = RS_NONE;
    int64_t h = rs_route_expand(net, st, chans, 256, 256, &end);
    if (h < 0 || h > max || end != net->ops->dst_node(net, st->dst)) {
        print_error("%s: route %u -> %u via %d: %lld hops (max %u), ends at %u\n", kv, st->src,
                    st->dst, (int)st->mid, (long long)h, max, end);
        fail();
    }
    uint32_t at = net->ops->src_node(net, st->src);
    for (int64_t i = 0; i < h; i++) {
        uint32_t v = (uint32_t)(chans[i] / net->max_ports), port = (uint32_t)(chans[i] % net->max_ports);
        assert_int_equal(v, at);
        at = net->ops->neighbor(net, v, port, NULL);
        assert_int_not_equal(at, RS_NONE);
    }
    assert_int_equal(at, end);
}

static void test_routes_arrive(void **state)
{
    for (int j = 0; instances[j].kv; j++) {
        struct rs_params p;
        struct rs_net net;
        struct rs_err err;
        struct expect e;
        char name[32];
        build(&net, &p, instances[j].kv);
        assert_true(expected(topo_of(instances[j].kv, name, sizeof name), &instances[j], &e));
        int valiant = !net.ops->valiant_ok || net.ops->valiant_ok(&net, &err) == 0;
        uint32_t N = net.n_terminals;
        if (net.paths) { /* explicit paths: every message, from its start to its end */
            for (uint64_t m = 0; m < net.paths->n_msgs; m++) {
                struct rs_route_state st = {net.paths->start[m], rs_msg_paths_end(net.paths, m),
                                            RS_NONE, 0, (uint32_t)m};
                check_route(&net, &st, e.diameter, instances[j].kv);
            }
            N = 0;
        }
        for (uint32_t s = 0; s < N; s++)
            for (uint32_t d = 0; d < N; d++) {
                struct rs_route_state st = {s, d, RS_NONE, 0, 0};
                check_route(&net, &st, e.diameter, instances[j].kv);
                /* every intermediate on small instances, every 31st above 64 terminals */
                for (uint32_t m = 0; valiant && m < N; m += N > 64 ? 31 : 1) {
                    st.mid = m;
                    /* Valiant is two routes of at most the diameter each (Beneš: one pass
                     * through both halves, again 2n = the diameter) */
                    check_route(&net, &st, 2 * e.diameter, instances[j].kv);
                }
            }
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

static void test_valiant_ok(void **state)
{
    struct rs_err err;
    for (int j = 0; instances[j].kv; j++) {
        struct rs_params p;
        struct rs_net net;
        char name[32];
        build(&net, &p, instances[j].kv);
        topo_of(instances[j].kv, name, sizeof name);
        int rc = net.ops->valiant_ok ? net.ops->valiant_ok(&net, &err) : 0;
        if (!strcmp(name, "butterfly") && !instances[j].wrap) {
            assert_int_equal(rc, RS_EUNSUPPORTED);
            assert_string_equal(err.msg, "routing=valiant on a butterfly needs wrap=1 "
                                         "(004 §2.2) or topology=benes");
        } else if (!strcmp(name, "kary_nfly") && !instances[j].wrap) {
            assert_int_equal(rc, RS_EUNSUPPORTED);
            assert_non_null(strstr(err.msg, "needs wrap=1"));
        } else if (net.paths) { /* every message follows its own path */
            assert_int_equal(rc, RS_EUNSUPPORTED);
            assert_non_null(strstr(err.msg, "explicit paths"));
        } else {
            assert_int_equal(rc, 0);
        }
        /* only Beneš (a middle-level row), the k-ary n-fly (its return channel: the packet
         * is not ejected at mid) and the dragonfly (one pass through the intermediate's
         * group) join Valiant's halves elsewhere than at a terminal */
        assert_int_equal(net.ops->valiant_via_terminal, strcmp(name, "benes") != 0 &&
                                                            strcmp(name, "kary_nfly") != 0 &&
                                                            strcmp(name, "dragonfly") != 0);
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

/* routing=ranade: a topology either refuses it with one line naming itself, or gives every
 * terminal an intermediate such that the N intermediates form a permutation (for any seed)
 * and the routes through them arrive within twice the diameter. */
static void test_ranade_mid(void **state)
{
    for (int j = 0; instances[j].kv; j++) {
        struct rs_params p;
        struct rs_net net;
        struct rs_err err;
        struct expect e;
        char name[32], want[256];
        build(&net, &p, instances[j].kv);
        assert_true(expected(topo_of(instances[j].kv, name, sizeof name), &instances[j], &e));
        int rc = rs_route_check(&net, RS_ROUTING_RANADE, &err);
        if (!net.ops->ranade_mid) {
            snprintf(want, sizeof want,
                     "routing=ranade is not available on topology=%s (Ranade's first stage "
                     "needs back-to-back butterflies: topology=benes, 004 §5)",
                     name);
            assert_int_equal(rc, RS_EUNSUPPORTED);
            assert_string_equal(err.msg, want);
        } else {
            uint32_t N = net.n_terminals;
            uint8_t *hit = calloc(N, 1);
            assert_int_equal(rc, 0);
            assert_non_null(hit);
            for (uint64_t seed = 1; seed <= 20; seed++) {
                memset(hit, 0, N);
                for (uint32_t t = 0; t < N; t++) {
                    uint32_t m = rs_route_mid_for(&net, RS_ROUTING_RANADE, seed, t, t, 0);
                    assert_true(m < N);
                    assert_int_equal(hit[m]++, 0);
                    struct rs_route_state st = {t, (t * 5 + 3) % N, m, 0, t};
                    check_route(&net, &st, 2 * e.diameter, instances[j].kv);
                }
            }
            free(hit);
        }
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

/* A partition order (rs_topo_ops.part_pos, for the engines' split into parts) is a
 * bijection of the node ids whose inverse is part_node. */
static void test_part_order(void **state)
{
    for (int j = 0; instances[j].kv; j++) {
        struct rs_params p;
        struct rs_net net;
        build(&net, &p, instances[j].kv);
        if (net.ops->part_pos) {
            uint8_t *seen = calloc(net.n_nodes, 1);
            assert_non_null(seen);
            for (uint32_t v = 0; v < net.n_nodes; v++) {
                uint32_t pos = net.ops->part_pos(&net, v);
                assert_true(pos < net.n_nodes);
                assert_int_equal(seen[pos]++, 0);
                assert_int_equal(net.ops->part_node(&net, pos), v);
            }
            free(seen);
        }
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

static void test_registry(void **state)
{
    static const char *const order[] = {"butterfly", "benes", "mesh", "torus",    "chain",
                                        "ring",      "hypercube", "lcan",  "baseline", "swbanyan", "trac",
                                        "cm5",       "graph", "cms_lower_bound", "pruned_butterfly",
                                        "fat_tree", "sorting_fat_tree", "kary_nfly",
                                        "kary_ntree", "dragonfly", "hyperx",
                                        "flattened_butterfly", "slimfly", NULL};
    int i = 0;
    for (; order[i]; i++) {
        assert_non_null(rs_topologies[i]);
        assert_string_equal(rs_topologies[i]->name, order[i]);
        assert_ptr_equal(rs_topo_find(order[i]), rs_topologies[i]);
        assert_non_null(rs_topologies[i]->options);
        assert_non_null(rs_topologies[i]->summary);
        assert_non_null(rs_topologies[i]->build);
        assert_non_null(rs_topologies[i]->neighbor);
        assert_non_null(rs_topologies[i]->route);
        assert_non_null(rs_topologies[i]->label);
        assert_non_null(rs_topologies[i]->level);
        assert_non_null(rs_topologies[i]->src_node);
        assert_non_null(rs_topologies[i]->dst_node);
    }
    assert_null(rs_topologies[i]);
    assert_null(rs_topo_find("butterfy"));
    assert_null(rs_topo_find(""));
    /* the `topology` key: a choice of the registry's names, default butterfly */
    assert_string_equal(rs_net_options[0].name, "topology");
    assert_int_equal(rs_net_options[0].type, RS_OPT_CHOICE);
    assert_string_equal(rs_net_options[0].def, "butterfly");
    assert_string_equal(rs_net_options[0].help, "network to build");
    for (i = 0; order[i]; i++)
        assert_string_equal(rs_net_options[0].choices[i], order[i]);
    assert_null(rs_net_options[0].choices[i]);
    assert_null(rs_net_options[1].name);
}

static void test_default_is_butterfly_8(void **state)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    rs_params_init(&p);
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    assert_string_equal(net.name, "butterfly");
    assert_int_equal(net.N, 8);
    assert_int_equal(net.n_nodes, 32);
    assert_int_equal(net.wrap, 0);
    assert_int_equal(net.shape_k, 2);
    assert_int_equal(net.shape_n, 3);
    rs_net_free(&net);
    assert_null(net.ops);
    assert_int_equal(net.n_nodes, 0);
    rs_net_free(&net); /* safe on a zeroed net */
    rs_params_free(&p);
}

/* Bad parameters: the code, the exact message where this file owns it, and an empty net. */
static void expect_error(const char *kv, int code, const char *msg_or_part, int exact)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    char buf[256], *save = NULL;
    rs_params_init(&p);
    snprintf(buf, sizeof buf, "%s", kv);
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        *eq = '\0';
        assert_int_equal(rs_params_set(&p, w, eq + 1, NULL, 0, &err), 0);
    }
    memset(&net, 0x5a, sizeof net);
    int rc = rs_net_build(&net, &p, &err);
    if (rc != code || (exact ? strcmp(err.msg, msg_or_part) != 0
                             : strstr(err.msg, msg_or_part) == NULL)) {
        print_error("%s: got %d '%s', want %d '%s'\n", kv, rc, err.msg, code, msg_or_part);
        fail();
    }
    assert_null(net.ops);
    assert_null(net.priv);
    assert_int_equal(net.n_nodes, 0);
    assert_int_equal(net.n_channels, 0);
    assert_string_equal(net.name, "");
    rs_params_free(&p);
}

static void test_build_errors(void **state)
{
    expect_error("topology=butterfly N=12", RS_ECONSTRAINT,
                 "topology=butterfly needs N a power of two (got N=12)", 1);
    expect_error("topology=benes N=6", RS_ECONSTRAINT,
                 "topology=benes needs N a power of two (got N=6)", 1);
    expect_error("topology=butterfly N=1", RS_ECONSTRAINT, "key 'N'", 0);
    expect_error("topology=butterfly N=2^27", RS_ECONSTRAINT, "key 'N'", 0);
    expect_error("topology=benes N=2^26", RS_ECONSTRAINT, "key 'N'", 0);
    expect_error("topology=butterfly wrap=maybe", RS_EINVAL, "key 'wrap'", 0);
    expect_error("topology=mesh k=1", RS_ECONSTRAINT, "key 'k'", 0);
    expect_error("topology=torus n=0", RS_ECONSTRAINT, "key 'n'", 0);
    expect_error("topology=ring k=1", RS_ECONSTRAINT, "key 'k'", 0);
    expect_error("topology=mesh k=8193 n=2", RS_ECONSTRAINT,
                 "topology=mesh needs k^n <= 2^26 nodes (got k=8193 n=2)", 1);
    expect_error("topology=torus k=5 n=12", RS_ECONSTRAINT,
                 "topology=torus needs k^n <= 2^26 nodes (got k=5 n=12)", 1);
    expect_error("topology=butterfy", RS_EUNKNOWN, "did you mean 'butterfly'?", 0);
    /* LCANs: Theorem 1 and Corollaries 1-2 of 002 §2.1, each error naming its rule */
    expect_error("topology=lcan N=10 d=4 u=2", RS_ECONSTRAINT,
                 "topology=lcan with N=10 d=4: level 0 would have N/d = 10/4 switches, not a "
                 "whole number (Theorem 1 of 002 §2.1)", 1);
    expect_error("topology=lcan N=64 d=4 u=2 l=6", RS_ECONSTRAINT,
                 "topology=lcan with N=64 d=4 u=2 has at most l_max=5 levels (Theorem 1 of 002 "
                 "§2.1: level 5 would have 2/4 switches), got l=6", 1);
    expect_error("topology=lcan N=32 d=4 u=4", RS_ECONSTRAINT,
                 "topology=lcan pi=cb needs N a power of d, N = d^l (Corollary 1 of 002 §2.1); "
                 "got N=32 d=4", 1);
    expect_error("topology=lcan N=64 d=4 u=2 l=4", RS_ECONSTRAINT,
                 "topology=lcan pi=cb with 4 levels of d=4 needs N = 256 (Corollary 1 of 002 "
                 "§2.1: N = d^l), got N=64", 1);
    expect_error("topology=lcan N=24 d=4 u=2 pi=tree", RS_ECONSTRAINT,
                 "topology=lcan pi=tree needs N = d^l / u^(l-1) (Corollary 2 of 002 §2.1); got "
                 "N=24 d=4 u=2", 1);
    expect_error("topology=lcan N=32 d=4,4,4 u=2 pi=tree", RS_ECONSTRAINT,
                 "topology=lcan pi=tree with 3 levels of d=4 u=2 needs N = 16 (Corollary 2 of "
                 "002 §2.1: one switch on the top level), got N=32", 1);
    expect_error("topology=lcan N=16 d=4 u=4 pi=tree", RS_ECONSTRAINT,
                 "topology=lcan pi=tree needs d a multiple of u with d > u, each switch having "
                 "d/u children ((d/u)-ary tree, 002 §2.1); got d=4 above u=4", 1);
    expect_error("topology=lcan N=16 d=4,4 u=2,2,2", RS_EINVAL,
                 "topology=lcan: the lists d (2 levels) and u (3 levels) differ in length", 1);
    expect_error("topology=lcan N=16 d=4,4 l=3", RS_EINVAL,
                 "topology=lcan: key 'l' (3) disagrees with the 2 levels of the d/u lists", 1);
    expect_error("topology=lcan d=4,x", RS_EINVAL,
                 "command line: key 'd': expected an integer 2..1024 or a list of at most 26 "
                 "of them (4,4,4 or 4/4/4), got '4,x'", 1);
    expect_error("topology=lcan u=0", RS_EINVAL, "key 'u': expected an integer 1..1024", 0);
    expect_error("topology=trac N=16", RS_ECONSTRAINT,
                 "topology=trac with N=16 d=3: level 0 would have N/d = 16/3 switches", 0);
    expect_error("topology=cm5 N=32", RS_ECONSTRAINT,
                 "topology=cm5 with 3 levels of d=4 needs N = 64 (Corollary 1", 0);
    expect_error("topology=swbanyan N=16 f=3", RS_ECONSTRAINT, "Theorem 1", 0);
    expect_error("topology=lcan N=2^26 d=2 u=4", RS_ECONSTRAINT,
                 "topology=lcan with N=67108864 is too large (more than 2^28 switches and PEs)",
                 1);
}

static void test_largest_sizes_build(void **state)
{
    /* the limits themselves are accepted (nothing is allocated per node) */
    static const char *const kv[] = {"topology=butterfly N=2^26", "topology=benes N=2^25",
                                     "topology=mesh k=8192 n=2", "topology=chain k=2^26",
                                     "topology=torus k=2 n=12", NULL};
    for (int j = 0; kv[j]; j++) {
        struct rs_params p;
        struct rs_net net;
        build(&net, &p, kv[j]);
        assert_true(net.n_nodes <= UINT32_MAX / 2);
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_topology_has_instances_and_formulas),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_channels_and_degrees),
        cmocka_unit_test(test_terminals_and_labels),
        cmocka_unit_test(test_routes_arrive),
        cmocka_unit_test(test_valiant_ok),
        cmocka_unit_test(test_ranade_mid),
        cmocka_unit_test(test_part_order),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_default_is_butterfly_8),
        cmocka_unit_test(test_build_errors),
        cmocka_unit_test(test_largest_sizes_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Least Common Ancestor Networks (Scherson & Chien, paper 002 §2): CB-LCAN (complete
 * bipartite level interconnect, labelled exactly as in §2.1) and T-LCAN ((d/u)-ary tree),
 * with per-level (d,u) lists, the validity rules of Theorem 1 and Corollaries 1-2, and the
 * named instances baseline, swbanyan, trac and cm5. Numbering: src/topo/lcan.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/net.h"
#include "routesim/lcan.h"
#include "topo/topo_util.h"

#define LCAN_MAX_N 67108864u /* 2^26 PEs */
#define LCAN_MAX_DU 1024     /* largest d or u */

static const char *const pi_names[] = {"cb", "tree", NULL};

static const struct rs_optdef lcan_options[] = {
    {"N", RS_OPT_INT, "16", 2, LCAN_MAX_N, NULL, "PEs (network inputs/outputs)", "terminals"},
    {"d", RS_OPT_LIST, "2", 0, 0, NULL,
     "downers per switch (2..1024): one value, or one per level from level 0 (4,4,4 or 4/4/4)",
     "ports"},
    {"u", RS_OPT_LIST, "2", 0, 0, NULL,
     "uppers per switch (1..1024): one value, or one per level from level 0 (2,2,4 or 2/2/4)",
     "ports"},
    {"pi", RS_OPT_CHOICE, "cb", 0, 0, pi_names,
     "level interconnect: cb (complete bipartite, CB-LCAN) or tree ((d/u)-ary tree, T-LCAN)", "-"},
    {"l", RS_OPT_INT, "0", 0, RS_LCAN_MAX_LEVELS, NULL,
     "levels (0 = from Corollary 1 or 2, or the length of the d/u lists)", "levels"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef n_only_options[] = {
    {"N", RS_OPT_INT, "16", 2, LCAN_MAX_N, NULL, "PEs (network inputs/outputs)", "terminals"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef trac_options[] = {
    {"N", RS_OPT_INT, "27", 3, LCAN_MAX_N, NULL, "PEs, a power of 3", "terminals"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef swbanyan_options[] = {
    {"N", RS_OPT_INT, "16", 2, LCAN_MAX_N, NULL, "PEs, a power of f", "terminals"},
    {"f", RS_OPT_INT, "2", 2, LCAN_MAX_DU, NULL, "fanout (downers per switch)", "ports"},
    {"s", RS_OPT_INT, "2", 1, LCAN_MAX_DU, NULL, "spread (uppers per switch)", "ports"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const struct rs_optdef cm5_options[] = {
    {"N", RS_OPT_INT, "64", 4, LCAN_MAX_N, NULL, "PEs, a power of 4", "terminals"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* What a build reads before the rules are checked. */
struct lcan_spec {
    const char *topo; /* registry name, for messages */
    uint64_t N;
    uint32_t d[RS_LCAN_MAX_LEVELS], u[RS_LCAN_MAX_LEVELS];
    uint32_t nd, nu; /* list lengths (1 = one value for every level) */
    int tree;
    uint32_t l; /* 0 = derive */
};

/* ---- parsing the d and u lists --------------------------------------------------- */

static int parse_list(const struct rs_params *p, const char *key, uint32_t lo, uint32_t *out,
                      uint32_t *n, struct rs_err *err)
{
    return rs__topo_read_list(p, lcan_options, key, lo, LCAN_MAX_DU, RS_LCAN_MAX_LEVELS, out, n,
                              err);
}

/* Write "4" or "4,4,2" for the first n entries of v (all equal: one value). */
static void format_list(char *buf, size_t size, const uint32_t *v, uint32_t n)
{
    int same = 1;
    for (uint32_t i = 1; i < n; i++)
        same &= v[i] == v[0];
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < (same ? 1 : n) && used + 12 < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%u", i ? "," : "", v[i]);
}

/* ---- the rules ---------------------------------------------------------------------- */

/* Per-level values, the single value broadcast to every level. */
static uint32_t at(const uint32_t *v, uint32_t n, uint32_t i)
{
    return n == 1 ? v[0] : v[i];
}

/* Theorem 1: S_0 = N/d_0 and S_{i+1} = S_i u_i / d_{i+1} must be whole numbers of
 * switches on every level below l (levels = 0: only S_0 is checked). Returns 0 or
 * RS_ECONSTRAINT naming the first level that fails and l_max. */
static int theorem1(const struct lcan_spec *s, uint32_t levels, struct rs_err *err)
{
    char dl[160], ul[160];
    format_list(dl, sizeof dl, s->d, s->nd);
    format_list(ul, sizeof ul, s->u, s->nu);
    if (s->N % s->d[0])
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=%s with N=%llu d=%s: level 0 would have N/d = %llu/%u "
                          "switches, not a whole number (Theorem 1 of 002 §2.1)",
                          s->topo, (unsigned long long)s->N, dl, (unsigned long long)s->N,
                          s->d[0]);
    uint64_t S = s->N / s->d[0];
    for (uint32_t i = 0; i + 1 < levels; i++) {
        uint64_t up = S * at(s->u, s->nu, i), dn = at(s->d, s->nd, i + 1);
        if (up % dn)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "topology=%s with N=%llu d=%s u=%s has at most l_max=%u levels "
                              "(Theorem 1 of 002 §2.1: level %u would have %llu/%llu switches), "
                              "got l=%u",
                              s->topo, (unsigned long long)s->N, dl, ul, i + 1, i + 1,
                              (unsigned long long)up, (unsigned long long)dn, levels);
        S = up / dn;
    }
    return 0;
}

/* Tree structure: every level above 0 has d_i a multiple of u_{i-1} with d_i > u_{i-1}
 * (002 §2.1: "d is a multiple of u"; "d cannot equal u"), unless u = 1 everywhere below. */
static int tree_shape(const struct lcan_spec *s, uint32_t levels, struct rs_err *err)
{
    uint32_t n = levels > 1 ? levels : 2;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t d = at(s->d, s->nd, i), u = at(s->u, s->nu, i - 1);
        if (d % u || d == u)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "topology=%s pi=tree needs d a multiple of u with d > u, each "
                              "switch having d/u children ((d/u)-ary tree, 002 §2.1); got d=%u "
                              "above u=%u",
                              s->topo, d, u);
    }
    return 0;
}

/* Corollary 1 (CB: N = d_0 d_1 ... d_{l-1}, l = log_d N) and Corollary 2 (T: S_{l-1} = 1,
 * N = d^l / u^(l-1)). With levels == 0 the number of levels is derived (one value of d and
 * u); *l gets it. */
static int corollary(const struct lcan_spec *s, uint32_t levels, uint32_t *l, struct rs_err *err)
{
    char dl[160], ul[160];
    format_list(dl, sizeof dl, s->d, s->nd);
    format_list(ul, sizeof ul, s->u, s->nu);
    if (!s->tree) {
        uint64_t prod = 1;
        uint32_t i = 0;
        for (; levels ? i < levels : prod < s->N; i++)
            prod *= at(s->d, s->nd, i);
        if (prod == s->N) {
            *l = i;
            return 0;
        }
        const char *pi = strcmp(s->topo, "lcan") ? "" : " pi=cb";
        if (!levels)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "topology=%s%s needs N a power of d, N = d^l (Corollary 1 of "
                              "002 §2.1); got N=%llu d=%s",
                              s->topo, pi, (unsigned long long)s->N, dl);
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=%s%s with %u levels of d=%s needs N = %llu (Corollary 1 "
                          "of 002 §2.1: N = d^l), got N=%llu",
                          s->topo, pi, levels, dl, (unsigned long long)prod,
                          (unsigned long long)s->N);
    }
    /* T-LCAN: N = d_0 a_1 ... a_{l-1}, a_i = d_i / u_{i-1} */
    uint64_t prod = s->d[0];
    uint32_t i = 1;
    for (; levels ? i < levels : prod < s->N; i++)
        prod *= at(s->d, s->nd, i) / at(s->u, s->nu, i - 1);
    if (prod == s->N) {
        *l = i;
        return 0;
    }
    if (!levels)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=%s pi=tree needs N = d^l / u^(l-1) (Corollary 2 of 002 "
                          "§2.1); got N=%llu d=%s u=%s",
                          s->topo, (unsigned long long)s->N, dl, ul);
    return rs_err_set(err, RS_ECONSTRAINT,
                      "topology=%s pi=tree with %u levels of d=%s u=%s needs N = %llu "
                      "(Corollary 2 of 002 §2.1: one switch on the top level), got N=%llu",
                      s->topo, levels, dl, ul, (unsigned long long)prod,
                      (unsigned long long)s->N);
}

/* Check every rule and fill net and its rs_lcan. */
static int lcan_setup(struct rs_net *net, const struct lcan_spec *s, struct rs_err *err)
{
    int rc;
    uint32_t levels = s->l, l = 0;
    uint32_t list = s->nd > 1 ? s->nd : s->nu > 1 ? s->nu : 0;
    if (s->nd > 1 && s->nu > 1 && s->nd != s->nu)
        return rs_err_set(err, RS_EINVAL,
                          "topology=%s: the lists d (%u levels) and u (%u levels) differ in "
                          "length",
                          s->topo, s->nd, s->nu);
    if (list && levels && levels != list)
        return rs_err_set(err, RS_EINVAL,
                          "topology=%s: key 'l' (%u) disagrees with the %u levels of the d/u "
                          "lists",
                          s->topo, levels, list);
    if (list)
        levels = list;
    if ((rc = theorem1(s, levels, err)))
        return rc;
    if (s->tree && (rc = tree_shape(s, levels, err)))
        return rc;
    if ((rc = corollary(s, levels, &l, err)))
        return rc;
    if (l > RS_LCAN_MAX_LEVELS)
        return rs_err_set(err, RS_ECONSTRAINT, "topology=%s: more than %d levels", s->topo,
                          RS_LCAN_MAX_LEVELS);

    struct rs_lcan *lc = rs_calloc(1, sizeof *lc);
    if (!lc)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    lc->N = (uint32_t)s->N;
    lc->l = l;
    lc->tree = s->tree;
    uint64_t nodes = s->N, wires = s->N, span = 1, U = 1;
    uint32_t max_ports = 1;
    for (uint32_t i = 0; i < l; i++) {
        lc->d[i] = at(s->d, s->nd, i);
        lc->u[i] = at(s->u, s->nu, i);
    }
    for (uint32_t i = 0; i < l; i++) {
        uint64_t S;
        if (s->tree) {
            lc->a[i] = i ? lc->d[i] / lc->u[i - 1] : 0;
            span = i ? span * lc->a[i] : lc->d[0];
            S = s->N / span;
        } else {
            span *= lc->d[i];
            S = (s->N / span) * U;
        }
        if (nodes + S >= (1u << 28)) {
            rs_free(lc);
            return rs_err_set(err, RS_ECONSTRAINT,
                              "topology=%s with N=%llu is too large (more than 2^28 switches "
                              "and PEs)",
                              s->topo, (unsigned long long)s->N);
        }
        lc->S[i] = (uint32_t)S;
        lc->U[i] = (uint32_t)U;
        lc->span[i] = (uint32_t)span;
        lc->first[i] = (uint32_t)nodes;
        nodes += S;
        uint32_t ports = lc->d[i] + (i + 1 < l ? lc->u[i] : 0);
        if (ports > max_ports)
            max_ports = ports;
        if (i + 1 < l)
            wires += S * lc->u[i];
        U *= lc->u[i];
    }
    if (nodes * max_ports >= UINT32_MAX) {
        rs_free(lc);
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=%s with N=%llu is too large (2^32 channel ids or more)",
                          s->topo, (unsigned long long)s->N);
    }
    lc->groups = l < 2 ? 1 : s->tree ? lc->a[l - 1] : lc->d[l - 1];
    net->priv = lc;
    net->N = lc->N;
    net->n_nodes = (uint32_t)nodes;
    net->max_ports = max_ports;
    net->n_terminals = lc->N;
    net->n_channels = 2 * wires;
    net->n_levels = 0; /* channels go up and down: not leveled in the sense of net.h */
    /* Terminal addresses as digits when every level has the same radix. */
    int same = 1;
    for (uint32_t i = 1; i < l; i++)
        same &= s->tree ? lc->a[i] == lc->d[0] : lc->d[i] == lc->d[0];
    net->shape_k = same ? lc->d[0] : 0;
    net->shape_n = same ? l : 0;
    net->k = lc->d[0];
    net->dims = l;
    return 0;
}

/* ---- builds of the five registry entries ----------------------------------------- */

static int lcan_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    struct lcan_spec s = {.topo = "lcan"};
    int64_t N, l;
    int pi, rc;
    if ((rc = rs_opt_int(p, lcan_options, "N", &N, err)) ||
        (rc = rs_opt_int(p, lcan_options, "l", &l, err)) ||
        (rc = rs_opt_choice(p, lcan_options, "pi", &pi, err)) ||
        (rc = parse_list(p, "d", 2, s.d, &s.nd, err)) ||
        (rc = parse_list(p, "u", 1, s.u, &s.nu, err)))
        return rc;
    s.N = (uint64_t)N;
    s.l = (uint32_t)l;
    s.tree = pi == 1;
    return lcan_setup(net, &s, err);
}

static int cb_build(struct rs_net *net, const struct rs_params *p, const struct rs_optdef *opts,
                    const char *topo, uint32_t d, uint32_t u, struct rs_err *err)
{
    struct lcan_spec s = {.topo = topo, .nd = 1, .nu = 1};
    int64_t N;
    int rc = rs_opt_int(p, opts, "N", &N, err);
    if (rc)
        return rc;
    s.N = (uint64_t)N;
    s.d[0] = d;
    s.u[0] = u;
    return lcan_setup(net, &s, err);
}

static int baseline_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    return cb_build(net, p, n_only_options, "baseline", 2, 2, err);
}

static int trac_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    return cb_build(net, p, trac_options, "trac", 3, 2, err);
}

static int swbanyan_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int64_t f, s;
    int rc;
    if ((rc = rs_opt_int(p, swbanyan_options, "f", &f, err)) ||
        (rc = rs_opt_int(p, swbanyan_options, "s", &s, err)))
        return rc;
    return cb_build(net, p, swbanyan_options, "swbanyan", (uint32_t)f, (uint32_t)s, err);
}

/* CM-5 (002 §2.2): d = 4 everywhere, u = 2 on levels 0 and 1, u = 4 above. */
static int cm5_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    struct lcan_spec s = {.topo = "cm5"};
    int64_t N;
    int rc = rs_opt_int(p, cm5_options, "N", &N, err);
    if (rc)
        return rc;
    s.N = (uint64_t)N;
    s.d[0] = 4;
    s.nd = 1;
    uint32_t l = 0;
    for (uint64_t v = 1; v < s.N && l < RS_LCAN_MAX_LEVELS; v *= 4)
        l++;
    s.nu = l > 1 ? l : 1;
    for (uint32_t i = 0; i < s.nu; i++)
        s.u[i] = i < 2 ? 2 : 4;
    if (l < 2) /* one level: the list would be read as a single value */
        s.u[0] = 2;
    return lcan_setup(net, &s, err);
}

static void lcan_destroy(struct rs_net *net)
{
    rs_free(net->priv);
    net->priv = NULL;
}

/* ---- the graph ---------------------------------------------------------------------- */

static uint32_t lcan_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                              uint32_t *in_slot)
{
    const struct rs_lcan *lc = net->priv;
    uint32_t slot, head;
    if (node >= net->n_nodes)
        return RS_NONE;
    int lv = rs__lcan_level(lc, node);
    if (lv < 0) {
        if (port != 0)
            return RS_NONE;
        head = rs__lcan_switch(lc, 0, rs__lcan_pe_switch(lc, node, &slot));
    } else {
        uint32_t i = (uint32_t)lv, x = node - lc->first[i];
        if (port < lc->d[i]) {
            if (i == 0) {
                head = x * lc->d[0] + port;
                slot = 0;
            } else {
                uint32_t k;
                head = rs__lcan_switch(lc, i - 1, rs__lcan_down(lc, i, x, port, &k));
                slot = lc->d[i - 1] + k;
            }
        } else if (i + 1 < lc->l && port < lc->d[i] + lc->u[i]) {
            head = rs__lcan_switch(lc, i + 1, rs__lcan_up(lc, i, x, port - lc->d[i], &slot));
        } else {
            return RS_NONE;
        }
    }
    if (in_slot)
        *in_slot = slot;
    return head;
}

static uint32_t lcan_node_of_pe(const struct rs_net *net, uint32_t t)
{
    return t;
}

static int lcan_level_op(const struct rs_net *net, uint32_t node)
{
    return -1;
}

/* Append digit v to buf at *len: a character when every radix is at most 10, else the
 * number followed by '.' separators. */
static void put_digit(char *buf, size_t n, size_t *len, uint32_t v, int wide, int first)
{
    int w = wide ? snprintf(buf + *len, n - *len, "%s%u", first ? "" : ".", v)
                 : snprintf(buf + *len, n - *len, "%u", v);
    if (w > 0 && *len + (size_t)w < n)
        *len += (size_t)w;
}

/* PE p: its digits most significant first (CB: p_{l-1} .. p_0 in base d; T: the child
 * index at each level from the top, then the downer). Switch x of level i: "L<i>:" and
 * its label (CB: the l-1-i base-d digits, then the i base-u digits k_0 .. k_{i-1}; T:
 * the child indices from the top; "-" for an empty label). */
static void lcan_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    const struct rs_lcan *lc = net->priv;
    uint32_t radix[2 * RS_LCAN_MAX_LEVELS], digit[2 * RS_LCAN_MAX_LEVELS], nd = 0, value;
    int lv = rs__lcan_level(lc, node), wide = 0;
    size_t len = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    if (lv < 0) { /* radices from least significant: d_0, then d_1.. (CB) or a_1.. (T) */
        value = node;
        for (uint32_t j = 0; j < lc->l; j++)
            radix[nd++] = j == 0 ? lc->d[0] : lc->tree ? lc->a[j] : lc->d[j];
    } else {
        uint32_t i = (uint32_t)lv;
        value = node - lc->first[i];
        int w = snprintf(buf, n, "L%u:", i);
        len = w > 0 && (size_t)w < n ? (size_t)w : 0;
        if (!lc->tree)
            for (uint32_t j = i; j-- > 0;) /* k_{i-1} least significant */
                radix[nd++] = lc->u[j];
        for (uint32_t j = i + 1; j < lc->l; j++)
            radix[nd++] = lc->tree ? lc->a[j] : lc->d[j];
    }
    for (uint32_t j = 0; j < nd; j++) {
        digit[j] = value % radix[j];
        value /= radix[j];
        wide |= radix[j] > 10;
    }
    for (uint32_t j = nd; j-- > 0;)
        put_digit(buf, n, &len, digit[j], wide, j + 1 == nd);
    if (nd == 0 && len + 2 <= n) {
        buf[len++] = '-';
        buf[len] = '\0';
    }
}

/* The up choice of the oblivious route: the upper a message from PE s takes at level i,
 * downer j mod u_i where j is the downer it arrived on (what up=fixed gives a message that
 * meets no other at that switch). CB: j = s_i, the i-th digit of s. T: the downer depends
 * on the uppers taken below, so the walk from level 0 is repeated. */
static uint32_t fixed_upper(const struct rs_lcan *lc, uint32_t s, uint32_t i)
{
    uint32_t j;
    if (!lc->tree) {
        j = (s / (i ? lc->span[i - 1] : 1)) % lc->d[i];
        return j % lc->u[i];
    }
    uint32_t x = rs__lcan_pe_switch(lc, s, &j);
    for (uint32_t lv = 0; lv < i; lv++)
        x = rs__lcan_up(lc, lv, x, j % lc->u[lv], &j);
    return j % lc->u[i];
}

/* LCA routing from PE s to PE t (002 §2.3) at node: up while the switch is not above t
 * (the up choice of fixed_upper), then down by t's digits; on a T-LCAN bundle the wire
 * t mod u. RS_ROUTE_DONE at PE t. */
static uint32_t route_pair(const struct rs_lcan *lc, uint32_t node, uint32_t s, uint32_t t)
{
    int lv = rs__lcan_level(lc, node);
    if (lv < 0)
        return node == t ? RS_ROUTE_DONE : 0;
    uint32_t i = (uint32_t)lv, x = node - lc->first[i], wires;
    if (!rs__lcan_above(lc, i, x, t))
        return lc->d[i] + fixed_upper(lc, s, i);
    uint32_t j = rs__lcan_downer_to(lc, i, t, &wires);
    return j + t % wires;
}

/* Hops of the LCA route from s to t: 2(L+1) for LCA level L, 0 when s == t. */
static uint32_t pair_length(const struct rs_lcan *lc, uint32_t s, uint32_t t)
{
    return s == t ? 0 : 2 * (rs__lcan_lca_level(lc, s, t) + 1);
}

/* The LCA route from src to dst (Valiant's legs are the routing layer's). */
static uint32_t lcan_route(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    return route_pair(net->priv, node, st->src, st->dst);
}

static uint32_t lcan_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    return pair_length(net->priv, st->src, st->dst);
}

const struct rs_lcan *rs__lcan_of(const struct rs_net *net)
{
    return net && (net->caps & RS_CAP_LCA) ? net->priv : NULL;
}

#define LCAN_OPS(ident, nm, sum, opts, bld)                                                     \
    const struct rs_topo_ops ident = {                                                         \
        .name = nm,                                                                            \
        .summary = sum,                                                                        \
        .options = opts,                                                                       \
        .caps = RS_CAP_LCA,                                                                    \
        .build = bld,                                                                          \
        .destroy = lcan_destroy,                                                               \
        .neighbor = lcan_neighbor,                                                             \
        .src_node = lcan_node_of_pe,                                                           \
        .dst_node = lcan_node_of_pe,                                                           \
        .level = lcan_level_op,                                                                \
        .label = lcan_label,                                                                   \
        .route = lcan_route,                                                                   \
        .valiant_ok = NULL,                                                                    \
        .valiant_via_terminal = 1,                                                             \
        .path_length = lcan_path_length,                                                       \
    }

LCAN_OPS(rs_topo_lcan, "lcan",
         "LCAN(N,d,u,l,pi): CB-LCAN or T-LCAN, per-level d,u lists (002 §2)", lcan_options,
         lcan_build);
LCAN_OPS(rs_topo_baseline, "baseline", "bi-directional baseline network, CB-LCAN(N,2,2) (002 §2.2)",
         n_only_options, baseline_build);
LCAN_OPS(rs_topo_swbanyan, "swbanyan",
         "SW-banyan with fanout f and spread s, CB-LCAN(N,f,s) (002 §2.2)", swbanyan_options,
         swbanyan_build);
LCAN_OPS(rs_topo_trac, "trac", "TRAC router network, CB-LCAN(N,3,2) (002 §2.2)", trac_options,
         trac_build);
LCAN_OPS(rs_topo_cm5, "cm5",
         "CM-5 router network: CB-LCAN with d=4, u=2 on levels 0-1 and u=4 above (002 §2.2)",
         cm5_options, cm5_build);

/* BookSim 2 configuration files: the tokenizer of its `key = value;` syntax and the
 * table that maps each BookSim key onto routesim's parameters (or says why it cannot be
 * honoured). Contracts in include/routesim/booksim_config.h; the table in
 * docs/booksim-config.md. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/booksim_config.h"
#include "routesim/options.h"

/* Largest BookSim file read (bytes). */
#define BS_MAX_FILE (16u << 20)
/* Longest key and value kept. */
#define BS_MAX_KEY 64
#define BS_MAX_VALUE 4096

/* One `key = value;` statement. */
struct bs_stmt {
    char key[BS_MAX_KEY];
    char value[BS_MAX_VALUE];
    int line;
    int is_list; /* the value was {a, b, ...}: value holds "a,b,..." */
    int n_items; /* items of the list */
};

/* How a BookSim key reaches routesim. */
enum bs_how {
    BS_MAP,      /* value passes to the routesim key rs (after check, when given) */
    BS_SPECIAL,  /* handled with the other keys of its group (topology, routing, ...) */
    BS_DEFAULT   /* honoured only at BookSim's default value: why says what else would be */
};

struct bs_key {
    const char *name; /* BookSim's key */
    const char *def;  /* BookSim's default, as text */
    enum bs_how how;
    const char *rs;   /* routesim key (BS_MAP) */
    const char *const *values; /* BS_MAP: accepted values (NULL: any; routesim checks) */
    const char *why;  /* BS_DEFAULT: the reason another value cannot be honoured */
};

static const char *const alloc_names[] = {"separable_input_first", "separable_output_first",
                                          "islip", NULL};
static const char *const sim_types[] = {"latency", "throughput", NULL};
static const char *const routers[] = {"iq", NULL};

#define WHY_OUT "it only controls BookSim's own printed or traced output; routesim writes its " \
                "record (--format, -o)"
#define WHY_CLASS "routesim has one traffic class and no request/reply transactions"
#define WHY_BUF "routesim's routers have private buffers of vc_buf_size flits per VC"
#define WHY_SPEC "routesim's speculative switch allocation gives non-speculative requests " \
                 "priority (BookSim's defaults) and has no other variant"

/* Every key BookSim 2 declares (booksim_config.cpp at the commit in docs/booksim.md). */
static const struct bs_key bs_keys[] = {
    {"topology", "torus", BS_SPECIAL, NULL, NULL, NULL},
    {"k", "8", BS_SPECIAL, NULL, NULL, NULL},
    {"n", "2", BS_SPECIAL, NULL, NULL, NULL},
    {"c", "1", BS_DEFAULT, NULL, NULL, "BookSim's mesh, torus and fly ignore c (only its cmesh "
                                       "and flatfly concentrate); set routesim's key c on "
                                       "topology=mesh|torus instead"},
    {"routing_function", "none", BS_SPECIAL, NULL, NULL, NULL},
    {"router", "iq", BS_MAP, "router", routers, NULL},
    {"vct", "0", BS_SPECIAL, NULL, NULL, NULL},
    {"num_vcs", "16", BS_MAP, "vcs", NULL, NULL},
    {"vc_buf_size", "8", BS_MAP, "vc_depth", NULL, NULL},
    {"packet_size", "1", BS_SPECIAL, NULL, NULL, NULL},
    {"routing_delay", "1", BS_MAP, "routing_delay", NULL, NULL},
    {"vc_alloc_delay", "1", BS_MAP, "vc_alloc_delay", NULL, NULL},
    {"sw_alloc_delay", "1", BS_MAP, "sw_alloc_delay", NULL, NULL},
    {"st_prepare_delay", "0", BS_MAP, "st_prepare_delay", NULL, NULL},
    {"st_final_delay", "1", BS_MAP, "st_final_delay", NULL, NULL},
    {"credit_delay", "0", BS_MAP, "credit_delay", NULL, NULL},
    {"input_speedup", "1", BS_MAP, "input_speedup", NULL, NULL},
    {"output_speedup", "1", BS_MAP, "output_speedup", NULL, NULL},
    {"internal_speedup", "1.0", BS_DEFAULT, NULL, NULL, "routesim's iq router has no internal "
                                                       "speedup (its crossbar runs at the "
                                                       "channel rate)"},
    {"vc_allocator", "islip", BS_MAP, "vc_allocator", alloc_names, NULL},
    {"sw_allocator", "islip", BS_MAP, "sw_allocator", alloc_names, NULL},
    {"alloc_iters", "1", BS_MAP, "alloc_iters", NULL, NULL},
    {"speculative", "0", BS_MAP, "speculative", NULL, NULL},
    {"wait_for_tail_credit", "0", BS_MAP, "wait_for_tail_credit", NULL, NULL},
    {"hold_switch_for_packet", "0", BS_MAP, "hold_switch_for_packet", NULL, NULL},
    {"traffic", "uniform", BS_SPECIAL, NULL, NULL, NULL},
    {"injection_process", "bernoulli", BS_SPECIAL, NULL, NULL, NULL},
    {"injection_rate", "0.1", BS_MAP, "injection_rate", NULL, NULL},
    {"injection_rate_uses_flits", "0", BS_MAP, "injection_rate_uses_flits", NULL, NULL},
    {"sim_type", "latency", BS_MAP, "sim_type", sim_types, NULL},
    {"warmup_periods", "3", BS_MAP, "warmup_periods", NULL, NULL},
    {"sample_period", "1000", BS_MAP, "sample_period", NULL, NULL},
    {"max_samples", "10", BS_MAP, "max_samples", NULL, NULL},
    {"latency_thres", "500.0", BS_MAP, "latency_thres", NULL, NULL},
    {"warmup_thres", "0.05", BS_MAP, "warmup_thres", NULL, NULL},
    {"acc_warmup_thres", "0.05", BS_MAP, "acc_warmup_thres", NULL, NULL},
    {"stopping_thres", "0.05", BS_MAP, "stopping_thres", NULL, NULL},
    {"acc_stopping_thres", "0.05", BS_MAP, "acc_stopping_thres", NULL, NULL},
    {"seed", "0", BS_SPECIAL, NULL, NULL, NULL},
    /* honoured at BookSim's default only */
    {"subnets", "1", BS_DEFAULT, NULL, NULL, "routesim simulates one network (no subnets)"},
    {"classes", "1", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"channel_file", "", BS_DEFAULT, NULL, NULL, "topology=anynet is not available"},
    {"use_noc_latency", "1", BS_SPECIAL, NULL, NULL, NULL},
    {"x", "8", BS_DEFAULT, NULL, NULL, "it applies to cmesh and flatfly only"},
    {"y", "8", BS_DEFAULT, NULL, NULL, "it applies to cmesh and flatfly only"},
    {"xr", "1", BS_DEFAULT, NULL, NULL, "it applies to cmesh and flatfly only"},
    {"yr", "1", BS_DEFAULT, NULL, NULL, "it applies to cmesh and flatfly only"},
    {"link_failures", "0", BS_DEFAULT, NULL, NULL, "routesim has no link failures"},
    {"fail_seed", "0", BS_DEFAULT, NULL, NULL, "routesim has no link failures"},
    {"in_ports", "5", BS_DEFAULT, NULL, NULL, "the port count follows the topology"},
    {"out_ports", "5", BS_DEFAULT, NULL, NULL, "the port count follows the topology"},
    {"output_delay", "0", BS_DEFAULT, NULL, NULL, "routesim's iq router has no output delay"},
    {"output_buffer_size", "-1", BS_DEFAULT, NULL, NULL, "output buffers are unbounded"},
    {"noq", "0", BS_DEFAULT, NULL, NULL, "routesim has no next-hop output queueing"},
    {"spec_check_elig", "1", BS_DEFAULT, NULL, NULL, WHY_SPEC},
    {"spec_check_cred", "1", BS_DEFAULT, NULL, NULL, WHY_SPEC},
    {"spec_mask_by_reqs", "0", BS_DEFAULT, NULL, NULL, WHY_SPEC},
    {"spec_sw_allocator", "prio", BS_DEFAULT, NULL, NULL, WHY_SPEC},
    {"buf_size", "-1", BS_DEFAULT, NULL, NULL, WHY_BUF},
    {"buffer_policy", "private", BS_DEFAULT, NULL, NULL, WHY_BUF},
    {"private_bufs", "-1", BS_DEFAULT, NULL, NULL, WHY_BUF},
    {"private_buf_size", "1", BS_DEFAULT, NULL, NULL, WHY_BUF},
    {"private_buf_start_vc", "-1", BS_DEFAULT, NULL, NULL, WHY_BUF},
    {"private_buf_end_vc", "-1", BS_DEFAULT, NULL, NULL, WHY_BUF},
    {"max_held_slots", "-1", BS_DEFAULT, NULL, NULL, WHY_BUF},
    {"feedback_aging_scale", "1", BS_DEFAULT, NULL, NULL, WHY_BUF},
    {"feedback_offset", "0", BS_DEFAULT, NULL, NULL, WHY_BUF},
    {"vc_busy_when_full", "0", BS_MAP, "vc_busy_when_full", NULL, NULL},
    {"vc_prioritize_empty", "0", BS_DEFAULT, NULL, NULL, "VC selection is BookSim's default"},
    {"vc_priority_donation", "0", BS_DEFAULT, NULL, NULL, "packets have no priorities"},
    {"vc_shuffle_requests", "0", BS_DEFAULT, NULL, NULL, "VC selection is BookSim's default"},
    {"arb_type", "round_robin", BS_DEFAULT, NULL, NULL, "routesim's arbiters are round-robin"},
    {"class_priority", "0", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"perm_seed", "0", BS_DEFAULT, NULL, NULL, "traffic=randperm draws its permutation from "
                                               "seed"},
    {"packet_size_rate", "1", BS_SPECIAL, NULL, NULL, NULL},
    {"burst_alpha", "0.5", BS_SPECIAL, NULL, NULL, NULL},
    {"burst_beta", "0.5", BS_SPECIAL, NULL, NULL, NULL},
    {"burst_r1", "-1.0", BS_SPECIAL, NULL, NULL, NULL},
    {"priority", "none", BS_DEFAULT, NULL, NULL, "packets have no priorities"},
    {"batch_size", "1000", BS_DEFAULT, NULL, NULL, "sim_type=batch is not available"},
    {"batch_count", "1", BS_DEFAULT, NULL, NULL, "sim_type=batch is not available"},
    {"max_outstanding_requests", "0", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"use_read_write", "0", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"write_fraction", "0.5", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"read_request_begin_vc", "0", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"read_request_end_vc", "5", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"write_request_begin_vc", "2", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"write_request_end_vc", "7", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"read_reply_begin_vc", "8", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"read_reply_end_vc", "13", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"write_reply_begin_vc", "10", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"write_reply_end_vc", "15", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"read_request_subnet", "0", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"read_reply_subnet", "0", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"write_request_subnet", "0", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"write_reply_subnet", "0", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"read_request_size", "1", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"write_request_size", "1", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"read_reply_size", "1", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"write_reply_size", "1", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"measure_stats", "1", BS_DEFAULT, NULL, NULL, WHY_CLASS},
    {"pair_stats", "0", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"sim_count", "1", BS_DEFAULT, NULL, NULL, "one run per invocation: use routesim sweep "
                                               "with replications"},
    {"include_queuing", "1", BS_DEFAULT, NULL, NULL, "routesim's latency always includes "
                                                     "the source queue"},
    {"print_activity", "0", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"print_csv_results", "0", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"deadlock_warn_timeout", "256", BS_DEFAULT, NULL, NULL, "routesim detects deadlock "
                                                             "exactly (the waiting cycle)"},
    {"viewer_trace", "0", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"watch_file", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"watch_flits", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"watch_packets", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"watch_transactions", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"watch_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"stats_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"injected_flits_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"received_flits_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"stored_flits_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"sent_flits_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"outstanding_credits_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"ejected_flits_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"active_packets_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"used_credits_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"free_credits_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"max_credits_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {"sent_packets_out", "", BS_DEFAULT, NULL, NULL, WHY_OUT},
    {NULL, NULL, BS_MAP, NULL, NULL, NULL}};

/* BookSim's traffic names and routesim's. */
static const char *const traffic_map[][2] = {
    {"uniform", "uniform"},     {"transpose", "transpose"}, {"bitrev", "bitrev"},
    {"tornado", "tornado"},     {"neighbor", "neighbor"},   {"bitcomp", "bitcomp"},
    {"shuffle", "shuffle"},     {"randperm", "randperm"},   {"diagonal", "diagonal"},
    {"asymmetric", "asymmetric"}, {"hotspot", "hotspot"},   {NULL, NULL}};

/* BookSim keys routesim calls otherwise: the did-you-mean of a BookSim name given to
 * routesim directly. */
static const char *const aliases[][2] = {
    {"num_vcs", "vcs"},           {"vc_buf_size", "vc_depth"}, {"packet_size", "length"},
    {"routing_function", "routing"}, {"vct", "switching"},  {NULL, NULL}};

const char *rs_booksim_alias(const char *key)
{
    for (int i = 0; aliases[i][0]; i++)
        if (!strcmp(aliases[i][0], key))
            return aliases[i][1];
    return NULL;
}

static const struct bs_key *find_key(const char *name)
{
    for (const struct bs_key *k = bs_keys; k->name; k++)
        if (!strcmp(k->name, name))
            return k;
    return NULL;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

int rs_booksim_detect(const char *path, const char *text, size_t len)
{
    if (path && ends_with(path, ".ini"))
        return 0;
    size_t i = 0;
    for (;;) { /* the first line that is not blank */
        size_t start = i;
        while (i < len && text[i] != '\n')
            i++;
        size_t a = start, b = i;
        while (a < b && isspace((unsigned char)text[a]))
            a++;
        while (b > a && isspace((unsigned char)text[b - 1]))
            b--;
        if (a < b)
            return (b - a >= 2 && text[a] == '/' && (text[a + 1] == '/' || text[a + 1] == '*')) ||
                   text[b - 1] == ';';
        if (i >= len)
            return 0;
        i++;
    }
}

/* ---- tokenizer ---- */

struct lexer {
    const char *s;
    size_t len, pos;
    int line;
    const char *origin;
    struct rs_err *err;
};

/* Skip blanks and comments. Returns 0 or RS_EPARSE (an unterminated comment). */
static int skip_space(struct lexer *lx)
{
    while (lx->pos < lx->len) {
        char c = lx->s[lx->pos];
        if (c == '\n') {
            lx->line++;
            lx->pos++;
        } else if (isspace((unsigned char)c)) {
            lx->pos++;
        } else if (c == '/' && lx->pos + 1 < lx->len && lx->s[lx->pos + 1] == '/') {
            while (lx->pos < lx->len && lx->s[lx->pos] != '\n')
                lx->pos++;
        } else if (c == '/' && lx->pos + 1 < lx->len && lx->s[lx->pos + 1] == '*') {
            int start = lx->line;
            lx->pos += 2;
            while (lx->pos + 1 < lx->len && !(lx->s[lx->pos] == '*' && lx->s[lx->pos + 1] == '/')) {
                if (lx->s[lx->pos] == '\n')
                    lx->line++;
                lx->pos++;
            }
            if (lx->pos + 1 >= lx->len)
                return rs_err_set(lx->err, RS_EPARSE, "%s:%d: unterminated /* comment",
                                  lx->origin, start);
            lx->pos += 2;
        } else {
            return 0;
        }
    }
    return 0;
}

static int is_key_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* A bare value: BookSim's string and number characters. */
static int is_bare_char(char c)
{
    return isalnum((unsigned char)c) || strchr("_-+./()", c) != NULL;
}

/* Append item (trimmed) to st->value, comma-separated. */
static int add_item(struct lexer *lx, struct bs_stmt *st, const char *a, size_t n)
{
    while (n && isspace((unsigned char)*a))
        a++, n--;
    while (n && isspace((unsigned char)a[n - 1]))
        n--;
    if (!n)
        return rs_err_set(lx->err, RS_EPARSE, "%s:%d: empty item in the list of '%s'",
                          lx->origin, st->line, st->key);
    size_t have = strlen(st->value);
    if (have + n + 2 > sizeof st->value)
        return rs_err_set(lx->err, RS_EPARSE, "%s:%d: the value of '%s' is too long",
                          lx->origin, st->line, st->key);
    if (have)
        st->value[have++] = ',';
    memcpy(st->value + have, a, n);
    st->value[have + n] = '\0';
    st->n_items++;
    return 0;
}

/* Read one statement; *got is 0 at the end of the text. */
static int read_stmt(struct lexer *lx, struct bs_stmt *st, int *got)
{
    int rc;
    *got = 0;
    memset(st, 0, sizeof *st);
    if ((rc = skip_space(lx)))
        return rc;
    if (lx->pos >= lx->len)
        return 0;
    st->line = lx->line;
    size_t a = lx->pos;
    while (lx->pos < lx->len && is_key_char(lx->s[lx->pos]))
        lx->pos++;
    size_t n = lx->pos - a;
    if (!n) {
        char c = lx->s[lx->pos];
        if (isprint((unsigned char)c))
            return rs_err_set(lx->err, RS_EPARSE, "%s:%d: expected a key, got '%c'", lx->origin,
                              lx->line, c);
        return rs_err_set(lx->err, RS_EPARSE, "%s:%d: expected a key, got byte 0x%02x",
                          lx->origin, lx->line, (unsigned char)c);
    }
    if (n >= sizeof st->key)
        return rs_err_set(lx->err, RS_EPARSE, "%s:%d: key too long", lx->origin, lx->line);
    memcpy(st->key, lx->s + a, n);
    if ((rc = skip_space(lx)))
        return rc;
    if (lx->pos >= lx->len || lx->s[lx->pos] != '=')
        return rs_err_set(lx->err, RS_EPARSE, "%s:%d: expected '=' after '%s'", lx->origin,
                          lx->line, st->key);
    lx->pos++;
    if ((rc = skip_space(lx)))
        return rc;
    char c = lx->pos < lx->len ? lx->s[lx->pos] : '\0';
    if (c == '"') { /* quoted string: to the closing quote on the same line */
        size_t b = ++lx->pos;
        while (lx->pos < lx->len && lx->s[lx->pos] != '"' && lx->s[lx->pos] != '\n')
            lx->pos++;
        if (lx->pos >= lx->len || lx->s[lx->pos] != '"')
            return rs_err_set(lx->err, RS_EPARSE, "%s:%d: unterminated string in the value of "
                              "'%s'", lx->origin, st->line, st->key);
        if (lx->pos - b + 1 > sizeof st->value)
            return rs_err_set(lx->err, RS_EPARSE, "%s:%d: the value of '%s' is too long",
                              lx->origin, st->line, st->key);
        memcpy(st->value, lx->s + b, lx->pos - b);
        lx->pos++;
    } else if (c == '{') { /* list of bare items */
        lx->pos++;
        st->is_list = 1;
        size_t b = lx->pos;
        for (;;) {
            if (lx->pos >= lx->len)
                return rs_err_set(lx->err, RS_EPARSE, "%s:%d: unterminated list '{' in the "
                                  "value of '%s'", lx->origin, st->line, st->key);
            char d = lx->s[lx->pos];
            if (d == ',' || d == '}') {
                if ((rc = add_item(lx, st, lx->s + b, lx->pos - b)))
                    return rc;
                lx->pos++;
                if (d == '}')
                    break;
                b = lx->pos;
            } else if (d == '\n') {
                lx->line++;
                lx->pos++;
            } else if (is_bare_char(d) || d == ' ' || d == '\t' || d == '\r') {
                lx->pos++;
            } else {
                return rs_err_set(lx->err, RS_EPARSE, "%s:%d: unexpected '%c' in the list of "
                                  "'%s'", lx->origin, lx->line, isprint((unsigned char)d) ? d : '?',
                                  st->key);
            }
        }
    } else {
        size_t b = lx->pos;
        while (lx->pos < lx->len && is_bare_char(lx->s[lx->pos]) &&
               !(lx->s[lx->pos] == '/' && lx->pos + 1 < lx->len &&
                 (lx->s[lx->pos + 1] == '/' || lx->s[lx->pos + 1] == '*')))
            lx->pos++;
        if (lx->pos == b)
            return rs_err_set(lx->err, RS_EPARSE, "%s:%d: expected a value after '%s ='",
                              lx->origin, st->line, st->key);
        if (lx->pos - b + 1 > sizeof st->value)
            return rs_err_set(lx->err, RS_EPARSE, "%s:%d: the value of '%s' is too long",
                              lx->origin, st->line, st->key);
        memcpy(st->value, lx->s + b, lx->pos - b);
    }
    if ((rc = skip_space(lx)))
        return rc;
    if (lx->pos >= lx->len || lx->s[lx->pos] != ';')
        return rs_err_set(lx->err, RS_EPARSE, "%s:%d: expected ';' after the value of '%s'",
                          lx->origin, st->line, st->key);
    lx->pos++;
    *got = 1;
    return 0;
}

/* ---- mapping ---- */

struct mapper {
    const char *origin;
    struct rs_params *p;
    struct rs_err *err;
    struct bs_stmt *given; /* [n_keys]: the last statement of each table key (line 0: none) */
    char def_origin[1024];
};

static int n_keys(void)
{
    int n = 0;
    while (bs_keys[n].name)
        n++;
    return n;
}

/* The value of table key name (given, or BookSim's default) and its line (-1: default). */
static const char *value_of(const struct mapper *m, const char *name, int *line)
{
    const struct bs_key *k = find_key(name);
    const struct bs_stmt *st = &m->given[k - bs_keys];
    *line = st->line ? st->line : -1;
    return st->line ? st->value : k->def;
}

static int put(struct mapper *m, const char *key, const char *value, int line)
{
    const char *origin = line > 0 ? m->origin : m->def_origin;
    if (rs_params_set(m->p, key, value, origin, line > 0 ? line : -1, m->err))
        return rs_err_set(m->err, RS_ENOMEM, "out of memory for the parameters");
    return 0;
}

/* "FILE:LINE" or "FILE (BookSim's default)". */
static void where(const struct mapper *m, int line, char *buf, size_t n)
{
    if (line > 0)
        snprintf(buf, n, "%s:%d", m->origin, line);
    else
        snprintf(buf, n, "%s", m->def_origin);
}

static int same_value(const char *a, const char *b)
{
    char *ea, *eb;
    double x = strtod(a, &ea), y = strtod(b, &eb);
    if (*a && *b && !*ea && !*eb)
        return x == y;
    return !strcmp(a, b);
}

static int refuse(struct mapper *m, int line, const char *key, const char *value,
                  const char *why)
{
    char w[1100];
    where(m, line, w, sizeof w);
    return rs_err_set(m->err, RS_EUNSUPPORTED, "%s: BookSim key '%s = %s' cannot be honoured: %s",
                      w, key, value, why);
}

static int map_topology(struct mapper *m)
{
    int lt, lk, ln, lr;
    const char *t = value_of(m, "topology", &lt), *k = value_of(m, "k", &lk);
    const char *n = value_of(m, "n", &ln), *r = value_of(m, "routing_function", &lr);
    int rc;
    char *end;
    long kv = strtol(k, &end, 10), nv;
    if (*end || end == k) {
        char w[1100];
        where(m, lk, w, sizeof w);
        return rs_err_set(m->err, RS_EINVAL, "%s: BookSim key 'k': expected an integer, got '%s'",
                          w, k);
    }
    nv = strtol(n, &end, 10);
    if (*end || end == n) {
        char w[1100];
        where(m, ln, w, sizeof w);
        return rs_err_set(m->err, RS_EINVAL, "%s: BookSim key 'n': expected an integer, got '%s'",
                          w, n);
    }
    const char *routing = NULL;
    const char *classes = NULL; /* vc_classes for a torus */
    int bs_set = 0;             /* adaptive_set=booksim */
    if (!strcmp(t, "mesh") || !strcmp(t, "torus")) {
        int torus = t[0] == 't';
        int lu;
        const char *u = value_of(m, "use_noc_latency", &lu);
        if (!same_value(u, "0") && !same_value(u, "1"))
            return refuse(m, lu, "use_noc_latency", u, "expected 0 or 1");
        /* BookSim's k-ary n-cube: a torus channel takes 2 cycles with use_noc_latency=1 (the
         * wrap-around is longer), every other channel 1 */
        int two = torus && same_value(u, "1");
        if ((rc = put(m, "topology", t, lt)) || (rc = put(m, "k", k, lk)) ||
            (rc = put(m, "n", n, ln)) ||
            (rc = put(m, "channel_latency", two ? "2" : "1", two ? lu : lt)))
            return rc;
        if ((!strcmp(r, "dor") && !torus) || !strcmp(r, "dim_order"))
            routing = "direct", classes = torus ? "partition" : NULL;
        else if (!strcmp(r, "min_adapt"))
            routing = "min_adaptive", bs_set = 1; /* BookSim's route set: docs/model-iq.md */
        else if (!strcmp(r, "valiant"))
            routing = "valiant", classes = torus ? "dateline" : NULL;
    } else if (!strcmp(t, "fly")) {
        /* routesim's kary_nfly is BookSim's fly, router for router (docs/topologies.md); it
         * checks k^n <= 2^26 itself */
        if (kv < 2 || kv > 256)
            return refuse(m, lk, "k", k, "topology=fly needs 2 <= k <= 256");
        if (nv < 1 || nv > 26)
            return refuse(m, ln, "n", n, "topology=fly needs 1 <= n <= 26");
        if ((rc = put(m, "topology", "kary_nfly", lt)) || (rc = put(m, "k", k, lk)) ||
            (rc = put(m, "n", n, ln)) ||
            (rc = put(m, "channel_latency", "1", lt))) /* BookSim's fly: 1 cycle */
            return rc;
        if (!strcmp(r, "dest_tag"))
            routing = "direct";
    } else {
        return refuse(m, lt, "topology", t, "routesim reads BookSim's mesh, torus and fly "
                      "topologies");
    }
    if (!routing) {
        char why[256];
        if (!strcmp(r, "none"))
            snprintf(why, sizeof why, "BookSim needs a routing_function (none is its default)");
        else
            snprintf(why, sizeof why, "BookSim's %s_%s has no routesim counterpart (mesh: dor, "
                     "dim_order, min_adapt, valiant; torus: dim_order, min_adapt, valiant; fly: "
                     "dest_tag)", r, t);
        return refuse(m, lr, "routing_function", r, why);
    }
    if ((rc = put(m, "routing", routing, lr)))
        return rc;
    /* BookSim's dimension order on a torus uses the upper half of the VCs for a dimension whose
     * route wraps around (routesim's vc_classes=partition, docs/model-iq.md) */
    if (classes && (rc = put(m, "vc_classes", classes, lr)))
        return rc;
    if (bs_set && (rc = put(m, "adaptive_set", "booksim", lr)))
        return rc;
    return 0;
}

static int map_special(struct mapper *m)
{
    int line, rc;
    const char *v;
    if ((rc = map_topology(m)))
        return rc;
    v = value_of(m, "vct", &line);
    if (!same_value(v, "0") && !same_value(v, "1"))
        return refuse(m, line, "vct", v, "expected 0 or 1");
    if ((rc = put(m, "switching", same_value(v, "1") ? "virtual_cut_through" : "wormhole", line)))
        return rc;
    return 0;
}

/* BookSim's hotspot({n1,n2,...},{r1,r2,...}) (the value quoted: traffic =
 * "hotspot({3,5},{3,1})"): hotspot_nodes and hotspot_rates. */
static int map_hotspot(struct mapper *m, const char *v, int line)
{
    char nodes[BS_MAX_VALUE], rates[BS_MAX_VALUE] = "";
    const char *a = strchr(v, '{'), *b = a ? strchr(a, '}') : NULL;
    int rc;
    if (!strcmp(v, "hotspot"))
        return 0; /* BookSim: one random hot node; routesim: hotspot_nodes' default */
    if (!a || !b || strncmp(v, "hotspot({", 9) != 0)
        return refuse(m, line, "traffic", v, "expected hotspot({NODES}) or "
                      "hotspot({NODES},{RATES}), quoted");
    snprintf(nodes, sizeof nodes, "%.*s", (int)(b - a - 1), a + 1);
    const char *c = strchr(b, '{'), *d = c ? strchr(c, '}') : NULL;
    if (c && d)
        snprintf(rates, sizeof rates, "%.*s", (int)(d - c - 1), c + 1);
    if ((rc = put(m, "hotspot_nodes", nodes, line)))
        return rc;
    return rates[0] ? put(m, "hotspot_rates", rates, line) : 0;
}

/* injection_process = on_off: arrivals=on_off with BookSim's burst_alpha, burst_beta and
 * burst_r1 (a negative value: derived, as BookSim). */
static int map_bursts(struct mapper *m)
{
    static const char *const keys[] = {"burst_alpha", "burst_beta", "burst_r1"};
    int line, rc;
    if ((rc = put(m, "arrivals", "on_off", -1)))
        return rc;
    for (int i = 0; i < 3; i++) {
        const char *v = value_of(m, keys[i], &line);
        if (strtod(v, NULL) >= 0 && (rc = put(m, keys[i], v, line)))
            return rc;
    }
    return 0;
}

/* packet_size = {a,b,...} (BookSim's {{a,b,...}} of one class) with packet_size_rate:
 * packet_sizes and packet_size_rates, the last rate repeated to one per size (BookSim's
 * rule). A single packet_size is `length` and needs packet_size_rate at its default. */
static int map_sizes(struct mapper *m)
{
    int line, rline, rc;
    const char *v = value_of(m, "packet_size", &line);
    const char *r = value_of(m, "packet_size_rate", &rline);
    if (!strchr(v, ',')) {
        if (strchr(r, ','))
            return refuse(m, rline, "packet_size_rate", r, "it needs a list packet_size");
        return put(m, "length", v, line);
    }
    char rates[BS_MAX_VALUE];
    size_t nv = 1, nr = 1, u;
    for (const char *c = v; *c; c++)
        nv += *c == ',';
    for (const char *c = r; *c; c++)
        nr += *c == ',';
    if (nr > nv)
        return refuse(m, rline, "packet_size_rate", r, "more rates than packet sizes");
    const char *last = strrchr(r, ',');
    last = last ? last + 1 : r;
    u = (size_t)snprintf(rates, sizeof rates, "%s", r);
    for (size_t i = nr; i < nv && u < sizeof rates; i++)
        u += (size_t)snprintf(rates + u, sizeof rates - u, ",%s", last);
    if ((rc = put(m, "packet_sizes", v, line)))
        return rc;
    return put(m, "packet_size_rates", rates, rline);
}

static int map_traffic(struct mapper *m)
{
    int line, rc;
    const char *v = value_of(m, "traffic", &line);
    const char *rs = NULL;
    for (int i = 0; traffic_map[i][0] && !rs; i++)
        if (!strcmp(traffic_map[i][0], v))
            rs = traffic_map[i][1];
    if (!strncmp(v, "hotspot(", 8))
        rs = "hotspot";
    if (!rs)
        return refuse(m, line, "traffic", v, "routesim reads BookSim's uniform, transpose, "
                      "bitrev, tornado, neighbor, bitcomp, shuffle, randperm, diagonal, "
                      "asymmetric and hotspot");
    if ((rc = put(m, "traffic", rs, line)))
        return rc;
    if (!strcmp(rs, "hotspot") && (rc = map_hotspot(m, v, line)))
        return rc;
    v = value_of(m, "injection_process", &line);
    if (strcmp(v, "bernoulli") && strcmp(v, "on_off"))
        return refuse(m, line, "injection_process", v, "routesim's open-loop injection is "
                      "bernoulli or on_off");
    if ((rc = put(m, "injection_process", "bernoulli", line)))
        return rc;
    if (!strcmp(v, "on_off") && (rc = map_bursts(m)))
        return rc;
    if ((rc = map_sizes(m)))
        return rc;
    v = value_of(m, "seed", &line);
    char *end;
    long long s = strtoll(v, &end, 10);
    if (*end || end == v || s < 0)
        return refuse(m, line, "seed", v, "routesim needs a fixed non-negative integer seed "
                      "(runs are reproducible; 'time' is not)");
    return put(m, "seed", v, line);
}

/* Keys mapped one to one, in table order. */
static int map_plain(struct mapper *m)
{
    for (const struct bs_key *k = bs_keys; k->name; k++) {
        int line, rc;
        const char *v = value_of(m, k->name, &line);
        if (k->how == BS_DEFAULT) {
            if (!same_value(v, k->def))
                return refuse(m, line, k->name, v, k->why);
            continue;
        }
        if (k->how != BS_MAP)
            continue;
        if (k->values) {
            int ok = 0;
            for (int i = 0; k->values[i] && !ok; i++)
                ok = !strcmp(k->values[i], v);
            if (!ok) {
                char why[256];
                size_t u = (size_t)snprintf(why, sizeof why, "routesim has");
                for (int i = 0; k->values[i] && u < sizeof why; i++)
                    u += (size_t)snprintf(why + u, sizeof why - u, "%s %s", i ? "," : "",
                                          k->values[i]);
                return refuse(m, line, k->name, v, why);
            }
        }
        if ((rc = put(m, k->rs, v, line)))
            return rc;
        if (!strcmp(k->name, "router") && (rc = map_special(m)))
            return rc; /* topology and switching right after the router */
        if (!strcmp(k->name, "hold_switch_for_packet") && (rc = map_traffic(m)))
            return rc;
    }
    return 0;
}

static int unknown(struct mapper *m, const struct bs_stmt *st)
{
    int n = n_keys();
    const char **names = rs_malloc((size_t)n * sizeof *names);
    if (!names)
        return rs_err_set(m->err, RS_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        names[i] = bs_keys[i].name;
    const char *near = rs_suggest(st->key, names, n);
    int rc = near ? rs_err_set(m->err, RS_EUNKNOWN, "%s:%d: unknown BookSim key '%s' (did you "
                               "mean '%s'?)", m->origin, st->line, st->key, near)
                  : rs_err_set(m->err, RS_EUNKNOWN, "%s:%d: unknown BookSim key '%s' (see "
                               "docs/booksim-config.md)", m->origin, st->line, st->key);
    rs_free(names);
    return rc;
}

int rs_booksim_parse(struct rs_params *p, const char *text, size_t len, const char *origin,
                     struct rs_err *err)
{
    struct lexer lx = {text, len, 0, 1, origin, err};
    struct mapper m = {origin, p, err, NULL, ""};
    struct bs_stmt st;
    int rc = 0, got;
    snprintf(m.def_origin, sizeof m.def_origin, "%s%s", origin, RS_BOOKSIM_DEFAULT_ORIGIN);
    if (!(m.given = rs_calloc((size_t)n_keys(), sizeof *m.given)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for a BookSim file");
    for (;;) {
        if ((rc = read_stmt(&lx, &st, &got)) || !got)
            break;
        const struct bs_key *k = find_key(st.key);
        if (!k) {
            rc = unknown(&m, &st);
            break;
        }
        if (st.is_list && st.n_items != 1 && strcmp(st.key, "packet_size") != 0 &&
            strcmp(st.key, "packet_size_rate") != 0) {
            rc = rs_err_set(err, RS_EUNSUPPORTED, "%s:%d: BookSim key '%s = {%s}' cannot be "
                            "honoured: a list gives one value per traffic class, and %s",
                            origin, st.line, st.key, st.value, WHY_CLASS);
            break;
        }
        m.given[k - bs_keys] = st;
    }
    if (!rc)
        rc = map_plain(&m);
    rs_free(m.given);
    return rc;
}

int rs_params_load_config(struct rs_params *p, const char *path, struct rs_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return rs_err_set(err, RS_EIO, "cannot open '%s': %s", path, strerror(errno));
    char *buf = rs_malloc(BS_MAX_FILE + 1);
    if (!buf) {
        fclose(f);
        return rs_err_set(err, RS_ENOMEM, "out of memory reading '%s'", path);
    }
    size_t len = fread(buf, 1, BS_MAX_FILE + 1, f);
    int bad = ferror(f);
    fclose(f);
    int rc;
    if (bad)
        rc = rs_err_set(err, RS_EIO, "cannot read '%s'", path);
    else if (!rs_booksim_detect(path, buf, len))
        rc = rs_params_load_ini(p, path, err);
    else if (len > BS_MAX_FILE)
        rc = rs_err_set(err, RS_EPARSE, "%s: a BookSim file of more than %u bytes", path,
                        BS_MAX_FILE);
    else if (memchr(buf, '\0', len))
        rc = rs_err_set(err, RS_EPARSE, "%s: a NUL byte in a BookSim file", path);
    else
        rc = rs_booksim_parse(p, buf, len, path, err);
    rs_free(buf);
    return rc;
}

int rs_params_write_ini(const struct rs_params *p, const char *source, struct rs_buf *out)
{
    if (rs_buf_printf(out, "# routesim configuration from %s\n", source))
        return RS_ENOMEM;
    for (size_t i = 0; i < p->n; i++) {
        const struct rs_param *q = &p->v[i];
        char w[1100];
        if (strchr(q->key, '.'))
            continue;
        rs_param_where(q, w, sizeof w);
        if (rs_buf_printf(out, "# from %s\n%s = %s\n", w, q->key, q->value))
            return RS_ENOMEM;
    }
    return 0;
}

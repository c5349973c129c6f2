/* Two sides of a claim (compare, factor, difference): rows of side A paired with the row
 * of side B that agrees on every match column (see claim.h). */
#include <stdio.h>
#include <string.h>

#include "report/claim.h"

static int in_filter(const struct rs__claim_filter *f, long col)
{
    for (int k = 0; k < f->n; k++)
        if (f->col[k] == col)
            return 1;
    return 0;
}

int rs__claim_sides_parse(const struct rs__claim *c, const struct rs_optdef *table,
                          struct rs__claim_sides *s)
{
    const char *a, *b;
    int rc = rs__claim_require(c, table, "a", &a);
    rc = rc ? rc : rs__claim_require(c, table, "b", &b);
    rc = rc ? rc : rs__claim_filter_parse(c, "a", a, &s->a);
    rc = rc ? rc : rs__claim_filter_parse(c, "b", b, &s->b);
    if (rc)
        return rc;
    if (!s->a.n || !s->b.n)
        return rs_err_set(c->err, RS_EINVAL, "claim '%s': key '%s' names no KEY=VALUE", c->name,
                          s->a.n ? "b" : "a");
    s->nmatch = 0;
    const char *match = rs__claim_text(c, table, "match");
    if (!match || !*match) { /* every parameter but the seed and the sides' own columns */
        for (long k = 0; k < c->nparams && s->nmatch < 64; k++)
            if (strcmp(c->t.names[k], "seed") && !in_filter(&s->a, k) && !in_filter(&s->b, k))
                s->match[s->nmatch++] = k;
        return 0;
    }
    char item[RS__CLAIM_ITEM];
    for (const char *p = match; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && *p == ' ') {
            p++;
            len--;
        }
        while (len && p[len - 1] == ' ')
            len--;
        if (len >= sizeof item || s->nmatch == 64)
            return rs_err_set(c->err, RS_EINVAL, "claim '%s': key 'match': item too long or "
                                                 "too many items",
                              c->name);
        if (len) {
            memcpy(item, p, len);
            item[len] = '\0';
            rc = rs__claim_col(c, item, &s->match[s->nmatch]);
            if (rc)
                return rc;
            s->nmatch++;
        }
        p = e ? e + 1 : NULL;
    }
    return 0;
}

static int same_match(const struct rs__claim *c, const struct rs__claim_sides *s, size_t r,
                      size_t q)
{
    for (int k = 0; k < s->nmatch; k++)
        if (strcmp(c->t.rows[r][s->match[k]], c->t.rows[q][s->match[k]]))
            return 0;
    return 1;
}

int rs__claim_pairs(const struct rs__claim *c, const struct rs__claim_sides *s,
                    const struct rs__claim_group *g, size_t *pa, size_t *pb, size_t *np,
                    size_t side[2], size_t *unmatched)
{
    *np = 0;
    *unmatched = 0;
    side[0] = side[1] = 0;
    for (size_t i = 0; i < g->n; i++)
        side[1] += rs__claim_filter_match(c, &s->b, g->rows[i]);
    for (size_t i = 0; i < g->n; i++) {
        size_t ra = g->rows[i], found = 0, rb = 0;
        if (!rs__claim_filter_match(c, &s->a, ra))
            continue;
        side[0]++;
        for (size_t j = 0; j < g->n; j++) {
            size_t q = g->rows[j];
            if (q == ra || !rs__claim_filter_match(c, &s->b, q) || !same_match(c, s, ra, q))
                continue;
            if (found) { /* two partners: name a column in which they differ */
                const char *col = "?";
                for (long k = 0; k < c->nparams; k++)
                    if (strcmp(c->t.rows[rb][k], c->t.rows[q][k]) && strcmp(c->t.names[k], "seed")) {
                        col = c->t.names[k];
                        break;
                    }
                return rs_err_set(c->err, RS_EINVAL,
                                  "claim '%s': a row of side a has several partners in side b "
                                  "(they differ in '%s'): add it to key 'match' or 'filter'",
                                  c->name, col);
            }
            found = 1;
            rb = q;
        }
        if (found) {
            pa[*np] = ra;
            pb[*np] = rb;
            (*np)++;
        } else {
            (*unmatched)++;
        }
    }
    for (size_t j = 0; j < g->n; j++) { /* side B rows nobody paired with */
        size_t q = g->rows[j], used = 0;
        if (!rs__claim_filter_match(c, &s->b, q))
            continue;
        for (size_t k = 0; k < *np && !used; k++)
            used = pb[k] == q;
        *unmatched += !used;
    }
    return 0;
}

void rs__claim_sides_describe(const struct rs__claim *c, const struct rs__claim_sides *s)
{
    rs_buf_printf(c->md, "side A: rows with `%s`; side B: rows with `%s`",
                  rs__claim_text(c, NULL, "a"), rs__claim_text(c, NULL, "b"));
    int n = 0;
    for (int k = 0; k < s->nmatch; k++)
        for (int j = 0; j < c->nshow; j++)
            if (c->show[j] == s->match[k])
                rs_buf_printf(c->md, "%s%s", n++ ? ", " : "; paired by equal ",
                              c->t.names[s->match[k]]);
}

void rs__claim_pair_label(const struct rs__claim *c, const struct rs__claim_sides *s,
                          size_t row, char *buf, size_t n)
{
    size_t len = 0;
    int k = 0;
    buf[0] = '\0';
    for (int j = 0; j < c->nshow && len < n; j++)
        if (!in_filter(&s->a, c->show[j]) && !in_filter(&s->b, c->show[j]))
            len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", k++ ? ", " : "",
                                    c->t.names[c->show[j]], c->t.rows[row][c->show[j]]);
    if (!k) /* nothing else varies: name the pair by its sides */
        snprintf(buf, n, "%s against %s", rs__claim_text(c, NULL, "a"),
                 rs__claim_text(c, NULL, "b"));
}

void rs__claim_no_pair(const struct rs__claim *c, const size_t side[2], char *why, size_t wn)
{
    if (!side[0] || !side[1])
        snprintf(why, wn, "no pair of rows: no row with `%s` in this group (a quick run may "
                          "not reach that point)",
                 rs__claim_text(c, NULL, side[0] ? "b" : "a"));
    else
        snprintf(why, wn, "no pair of rows: the %zu rows of side A and %zu of side B never agree "
                          "on the match columns",
                 side[0], side[1]);
}

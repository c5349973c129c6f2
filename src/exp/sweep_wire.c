/* Bytes of a sweep's tasks and replies between processes (sweep_wire.h): integers as 8
 * little-endian bytes, doubles as their 8 IEEE bytes (exact), texts as a length and bytes.
 * The processes run the same build, so a record read back writes the same CSV bytes. */
#include <stdio.h>
#include <string.h>

#include "exp/sweep_wire.h"
#include "routesim/alloc.h"
#include "routesim/run.h"

static int put_u64(struct rs_buf *b, uint64_t v)
{
    unsigned char x[8];
    for (int k = 0; k < 8; k++)
        x[k] = (unsigned char)(v >> (8 * k));
    return rs_buf_append(b, (const char *)x, 8);
}

/* NULL is written as length UINT64_MAX. */
static int put_str(struct rs_buf *b, const char *s)
{
    if (!s)
        return put_u64(b, UINT64_MAX);
    size_t n = strlen(s);
    return put_u64(b, n) || (n && rs_buf_append(b, s, n)) ? RS_ENOMEM : 0;
}

struct rd {
    const unsigned char *p, *end;
    int bad;
};

static uint64_t get_u64(struct rd *r)
{
    if (r->bad || r->end - r->p < 8) {
        r->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v |= (uint64_t)r->p[k] << (8 * k);
    r->p += 8;
    return v;
}

/* A copy of the next text (rs_free), NULL for a NULL text; *nomem on allocation failure. */
static char *get_str(struct rd *r, int *nomem)
{
    uint64_t n = get_u64(r);
    if (r->bad || n == UINT64_MAX)
        return NULL;
    if ((uint64_t)(r->end - r->p) < n) {
        r->bad = 1;
        return NULL;
    }
    char *s = rs_malloc(n + 1);
    if (!s) {
        *nomem = 1;
        return NULL;
    }
    memcpy(s, r->p, n);
    s[n] = 0;
    r->p += n;
    return s;
}

int rs__wire_task(struct rs_buf *out, uint64_t t, const struct rs_params *p)
{
    int rc = put_u64(out, t) || put_u64(out, p->n);
    for (size_t i = 0; i < p->n && !rc; i++)
        rc = put_str(out, p->v[i].key) || put_str(out, p->v[i].value) ||
             put_str(out, p->v[i].origin) || put_u64(out, (uint64_t)(int64_t)p->v[i].line);
    return rc ? RS_ENOMEM : 0;
}

int rs__wire_task_read(const void *msg, size_t len, uint64_t *t, struct rs_params *p)
{
    struct rd r = {msg, (const unsigned char *)msg + len, 0};
    int nomem = 0, rc = 0;
    rs_params_init(p);
    *t = get_u64(&r);
    uint64_t n = get_u64(&r);
    for (uint64_t i = 0; i < n && !r.bad && !nomem && !rc; i++) {
        char *key = get_str(&r, &nomem), *value = get_str(&r, &nomem);
        char *origin = get_str(&r, &nomem);
        int line = (int)(int64_t)get_u64(&r);
        if (!r.bad && !nomem && (!key || !value))
            r.bad = 1;
        if (!r.bad && !nomem)
            rc = rs_params_set(p, key, value, origin, line, NULL);
        rs_free(key);
        rs_free(value);
        rs_free(origin);
    }
    if (nomem || rc == RS_ENOMEM)
        return RS_ENOMEM;
    return r.bad || rc || r.p != r.end ? RS_EINVAL : 0;
}

int rs__wire_serve(const void *msg, size_t len, struct rs_buf *out)
{
    uint64_t t;
    struct rs_params p;
    struct rs_record rec;
    struct rs_err err;
    rs_err_clear(&err);
    rs_record_init(&rec);
    int rc = rs__wire_task_read(msg, len, &t, &p);
    if (rc) {
        rs_params_free(&p);
        return rc;
    }
    int run_rc = rs_run(&p, &rec, NULL, 0, &err);
    rs_params_free(&p);
    int bad = put_u64(out, t) || put_u64(out, (uint64_t)(int64_t)run_rc) ||
              put_u64(out, (uint64_t)(int64_t)err.code) || put_str(out, err.msg);
    if (!bad && !run_rc) {
        bad = put_u64(out, rec.n) || put_u64(out, rec.n_params);
        for (size_t k = 0; k < rec.n && !bad; k++) {
            const struct rs_field *f = &rec.f[k];
            uint64_t d;
            memcpy(&d, &f->d, sizeof d);
            bad = put_str(out, f->name) || put_u64(out, (uint64_t)f->type);
            if (!bad && f->type == RS_VAL_INT)
                bad = put_u64(out, (uint64_t)f->i);
            else if (!bad && f->type == RS_VAL_DOUBLE)
                bad = put_u64(out, d);
            else if (!bad)
                bad = put_str(out, f->s ? f->s : "");
        }
    }
    rs_record_free(&rec);
    return bad ? RS_ENOMEM : 0;
}

int rs__wire_reply_read(const void *msg, size_t len, uint64_t *t, int *run_rc,
                        struct rs_err *run_err, struct rs_record *rec)
{
    struct rd r = {msg, (const unsigned char *)msg + len, 0};
    int nomem = 0, rc = 0;
    *t = get_u64(&r);
    *run_rc = (int)(int64_t)get_u64(&r);
    rs_err_clear(run_err);
    run_err->code = (int)(int64_t)get_u64(&r);
    char *text = get_str(&r, &nomem);
    if (text)
        snprintf(run_err->msg, sizeof run_err->msg, "%s", text);
    rs_free(text);
    if (r.bad || nomem || *run_rc)
        return nomem ? RS_ENOMEM : r.bad ? RS_EINVAL : 0;
    uint64_t n = get_u64(&r), n_params = get_u64(&r);
    for (uint64_t k = 0; k < n && !r.bad && !nomem && !rc; k++) {
        char *name = get_str(&r, &nomem);
        uint64_t type = get_u64(&r);
        if (!name || r.bad || nomem) {
            r.bad |= !nomem;
            rs_free(name);
            break;
        }
        if (type == RS_VAL_INT) {
            rc = rs_record_int(rec, name, (int64_t)get_u64(&r));
        } else if (type == RS_VAL_DOUBLE) {
            uint64_t bits = get_u64(&r);
            double d;
            memcpy(&d, &bits, sizeof d);
            rc = rs_record_double(rec, name, d);
        } else if (type == RS_VAL_STRING) {
            char *s = get_str(&r, &nomem);
            rc = s ? rs_record_string(rec, name, s) : 0;
            r.bad |= !s && !nomem;
            rs_free(s);
        } else {
            r.bad = 1;
        }
        rs_free(name);
    }
    if (nomem || rc == RS_ENOMEM)
        return RS_ENOMEM;
    if (r.bad || rc || r.p != r.end || n_params > rec->n)
        return RS_EINVAL;
    rec->n_params = (size_t)n_params;
    return 0;
}

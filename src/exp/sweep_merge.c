/* Merging the files of a sweep's shards into the whole sweep's file (rs_sweep_merge,
 * sweep.h): every row is matched to its point (or run) by its identity cells, as resume
 * matches them, and the rows are written in grid order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/sweep_resume.h"
#include "routesim/alloc.h"
#include "routesim/outpath.h"
#include "routesim/sweep.h"

struct ident {
    uint64_t hash, index;
    const char *text; /* the identity cells (into the identity buffer) */
    size_t len;
};

struct slot {
    const char *row; /* the row in its part, with its newline; NULL until seen */
    size_t len;
    size_t part, line; /* where it was seen (line 1-based) */
};

static int cmp_ident(const void *a, const void *b)
{
    const struct ident *x = a, *y = b;
    if (x->hash != y->hash)
        return (x->hash > y->hash) - (x->hash < y->hash);
    return (x->index > y->index) - (x->index < y->index);
}

/* Length of the first k cells of line (without the comma after them), quotes respected. */
static size_t prefix_len(const char *line, size_t len, size_t k)
{
    int quoted = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted && --k == 0)
            return i;
    }
    return len;
}

/* The index of the identity text[0..len) among ids (sorted), or -1. */
static int64_t find(const struct ident *ids, uint64_t n, const char *text, size_t len)
{
    uint64_t h = rs__fnv1a(text, len), lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ids[mid].hash < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && ids[lo].hash == h; lo++)
        if (ids[lo].len == len && !memcmp(ids[lo].text, text, len))
            return (int64_t)ids[lo].index;
    return -1;
}

static int read_all(const char *path, struct rs_buf *b, struct rs_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return rs_err_set(err, RS_EIO, "cannot read '%s': %s", path, strerror(errno));
    char chunk[65536];
    size_t n;
    int rc = 0;
    while (!rc && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rc = rs_buf_append(b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (rc)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    return bad ? rs_err_set(err, RS_EIO, "cannot read '%s'", path) : 0;
}

int rs_sweep_merge(const struct rs_grid *g, const char *out, const char *const *parts, size_t n,
                   struct rs_err *err)
{
    struct rs_buf sid, rid, sp, rp, res;
    struct rs_buf *files = rs_calloc(n ? n : 1, sizeof *files);
    struct ident *ids = NULL;
    struct slot *slots = NULL;
    size_t n_id = 0;
    uint64_t n_rows = 0;
    int per_run = 0;
    rs_buf_init(&sid);
    rs_buf_init(&rid);
    rs_buf_init(&sp);
    rs_buf_init(&rp);
    rs_buf_init(&res);
    int rc = files ? 0 : rs_err_set(err, RS_ENOMEM, "out of memory");
    if (!rc && !n)
        rc = rs_err_set(err, RS_EINVAL, "merge: no files to merge");
    for (size_t k = 0; k < n && !rc; k++) {
        rs_buf_init(&files[k]);
        if (rs_path_same(out, parts[k]))
            rc = rs_err_set(err, RS_EINVAL,
                            "merge: the output '%s' is the same file as the part '%s' "
                            "(refusing to overwrite it)",
                            out, parts[k]);
        for (size_t j = 0; j < k && !rc; j++)
            if (rs_path_same(parts[j], parts[k]))
                rc = rs_err_set(err, RS_EINVAL, "merge: '%s' is given twice", parts[k]);
    }
    rc = rc ? rc : rs_out_check(out, err);
    rc = rc ? rc : rs__sweep_identities(g, &sid, &rid, &sp, &rp, &n_id, err);
    for (size_t k = 0; k < n && !rc; k++)
        rc = read_all(parts[k], &files[k], err);
    /* the headers: all the same, of this grid's statistics or per-run file */
    const char *head0 = NULL;
    size_t head_len = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        const char *d = files[k].data ? files[k].data : "";
        const char *nl = memchr(d, '\n', files[k].len);
        if (!nl) {
            rc = rs_err_set(err, RS_EINVAL, "%s: no header line (not a file of a sweep)",
                            parts[k]);
            break;
        }
        size_t hl = (size_t)(nl - d) + 1;
        if (!k) {
            head0 = d;
            head_len = hl;
            if (hl > rp.len && !memcmp(d, rp.data, rp.len))
                per_run = 1;
            else if (!(hl > sp.len && !memcmp(d, sp.data, sp.len)))
                rc = rs_err_set(err, RS_EINVAL,
                                "%s:1: not a file of this experiment (its columns differ from "
                                "this grid's)",
                                parts[k]);
        } else if (hl != head_len || memcmp(d, head0, hl)) {
            rc = rs_err_set(err, RS_EINVAL,
                            "%s:1: its header differs from that of '%s' (parts of one sweep "
                            "have the same columns; a statistics file and a per-run file are "
                            "merged apart)",
                            parts[k], parts[0]);
        }
        if (!rc && files[k].len && files[k].data[files[k].len - 1] != '\n')
            rc = rs_err_set(err, RS_EINVAL,
                            "%s: its last line is torn (no newline): finish that shard with "
                            "`routesim sweep --shard I/N --resume` first",
                            parts[k]);
    }
    /* every expected identity, sorted by hash */
    const struct rs_buf *idb = per_run ? &rid : &sid;
    n_rows = per_run ? g->n_points * g->runs : g->n_points;
    if (!rc) {
        ids = rs_malloc((n_rows ? n_rows : 1) * sizeof *ids);
        slots = rs_calloc(n_rows ? n_rows : 1, sizeof *slots);
        if (!ids || !slots)
            rc = rs_err_set(err, RS_ENOMEM, "out of memory");
    }
    const char *p = idb->data;
    for (uint64_t i = 0; i < n_rows && !rc; i++) {
        const char *e = memchr(p, '\n', idb->len - (size_t)(p - idb->data));
        size_t len = prefix_len(p, (size_t)(e - p), n_id);
        ids[i] = (struct ident){rs__fnv1a(p, len), i, p, len};
        p = e + 1;
    }
    if (!rc)
        qsort(ids, n_rows, sizeof *ids, cmp_ident);
    for (size_t k = 0; k < n && !rc; k++) {
        const char *d = files[k].data, *end = d + files[k].len;
        const char *row = memchr(d, '\n', files[k].len) + 1;
        for (size_t line = 2; row < end && !rc; line++) {
            const char *e = memchr(row, '\n', (size_t)(end - row));
            size_t len = (size_t)(e - row);
            int64_t i = find(ids, n_rows, row, prefix_len(row, len, n_id));
            if (i < 0)
                rc = rs_err_set(err, RS_EINVAL,
                                "%s:%zu: a row of another grid or experiment (its %s differ "
                                "from every %s of this sweep)",
                                parts[k], line, "parameters", per_run ? "run" : "point");
            else if (slots[i].row)
                rc = rs_err_set(err, RS_EINVAL, "%s:%zu: the same %s as %s:%zu (shards overlap)",
                                parts[k], line, per_run ? "run" : "point",
                                parts[slots[i].part], slots[i].line);
            else
                slots[i] = (struct slot){row, len + 1, k, line};
            row = e + 1;
        }
    }
    for (uint64_t i = 0; i < n_rows && !rc; i++)
        if (!slots[i].row) {
            uint64_t point = per_run ? i / g->runs : i;
            const char *q = idb->data;
            for (uint64_t j = 0; j < i; j++)
                q = strchr(q, '\n') + 1;
            rc = rs_err_set(err, RS_EINVAL,
                            "merge: no part holds %s %llu of %llu (point %llu: %.*s); run its "
                            "shard (or resume it) and merge again",
                            per_run ? "run" : "point", (unsigned long long)i + 1,
                            (unsigned long long)n_rows, (unsigned long long)point + 1,
                            (int)prefix_len(q, strcspn(q, "\n"), n_id), q);
        }
    if (!rc && rs_buf_append(&res, head0, head_len))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory");
    for (uint64_t i = 0; i < n_rows && !rc; i++)
        if (rs_buf_append(&res, slots[i].row, slots[i].len))
            rc = rs_err_set(err, RS_ENOMEM, "out of memory");
    rc = rc ? rc : rs_buf_write_file(&res, out, err);
    for (size_t k = 0; files && k < n; k++)
        rs_buf_free(&files[k]);
    rs_free(files);
    rs_free(ids);
    rs_free(slots);
    rs_buf_free(&sid);
    rs_buf_free(&rid);
    rs_buf_free(&sp);
    rs_buf_free(&rp);
    rs_buf_free(&res);
    return rc;
}

/* Resume of a sweep: every row already in the statistics and per-run files is matched to a
 * point of the grid by its identity cells (parameters, runs or replication, seed), found by
 * their hash and compared as text; foreign
 * rows are refused, the per-run file is reconciled with the statistics file (see
 * sweep_resume.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp/sweep_resume.h"
#include "routesim/alloc.h"

/* One file read whole: its bytes, the length up to its last newline, and its lines. */
struct file {
    const char *path;
    int exists;
    struct rs_buf all;
    size_t complete;   /* bytes up to and including the last '\n' */
    size_t *off;       /* [n_lines + 1] start of every complete line, then `complete` */
    size_t n_lines;    /* complete lines (the header included) */
};

/* A row identity: its hash sorts and finds it; its text (off, len in the keys' text
 * buffer) decides, so that two identities whose hashes collide stay apart. */
struct key {
    uint64_t hash;
    uint64_t id; /* point (statistics) or task point * runs + replication (per run) */
    size_t off, len;
};

/* The hash of row identities: in->hash, or FNV-1a. */
static uint64_t key_hash(const struct rs__resume_in *in, const char *s, size_t n)
{
    return in->hash ? in->hash(s, n) : rs__fnv1a(s, n);
}

static int cmp_key(const void *a, const void *b)
{
    const struct key *x = a, *y = b;
    if (x->hash != y->hash)
        return (x->hash > y->hash) - (x->hash < y->hash);
    return (x->id > y->id) - (x->id < y->id);
}

/* Offsets of the CSV cells of line[0..len): cell c spans start[c] .. start[c+1]-1 (the
 * separator excluded); returns the number of cells. start has room for max + 1 entries;
 * cells past max are counted but not recorded. */
static size_t csv_cells(const char *line, size_t len, size_t *start, size_t max)
{
    int quoted = 0;
    size_t n = 1;
    if (max)
        start[0] = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted) {
            if (max && n <= max)
                start[n] = i + 1;
            n++;
        }
    }
    if (max && n <= max)
        start[n] = len + 1;
    return n;
}

/* Length of the first k cells of line (up to, not including, the k-th separator). */
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

static const char *line_at(const struct file *f, size_t l, size_t *len)
{
    *len = f->off[l + 1] - f->off[l] - 1;
    return f->all.data + f->off[l];
}

static int read_file(struct file *f, const char *path, struct rs_err *err)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    rs_buf_init(&f->all);
    FILE *in = fopen(path, "r");
    if (!in)
        return errno == ENOENT ? 0
                               : rs_err_set(err, RS_EIO, "cannot open '%s': %s", path,
                                            strerror(errno));
    f->exists = 1;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, in)) > 0)
        if (rs_buf_append(&f->all, chunk, got)) {
            fclose(in);
            return rs_err_set(err, RS_ENOMEM, "out of memory reading '%s'", path);
        }
    int bad = ferror(in);
    fclose(in);
    if (bad)
        return rs_err_set(err, RS_EIO, "cannot read '%s'", path);
    for (size_t i = f->all.len; i > 0 && !f->complete; i--)
        if (f->all.data[i - 1] == '\n')
            f->complete = i;
    size_t n = 0;
    for (size_t i = 0; i < f->complete; i++)
        n += f->all.data[i] == '\n';
    if (!(f->off = rs_malloc((n + 1) * sizeof *f->off)))
        return rs_err_set(err, RS_ENOMEM, "out of memory reading '%s'", path);
    f->off[0] = 0;
    for (size_t i = 0; i < f->complete; i++)
        if (f->all.data[i] == '\n')
            f->off[++f->n_lines] = i + 1;
    return 0;
}

static void file_free(struct file *f)
{
    rs_buf_free(&f->all);
    rs_free(f->off);
}

/* Identity keys of every point (stats) and of every run (runs, when not NULL), their
 * texts appended to text (stats_text, runs_text). */
static int build_keys(const struct rs__resume_in *in, struct key *stats, struct key *runs,
                      struct rs_buf *stats_text, struct rs_buf *runs_text, struct rs_err *err)
{
    struct rs_buf s, r;
    int rc = 0;
    rs_buf_init(&s);
    rs_buf_init(&r);
    for (uint64_t i = 0; i < in->n_points && !rc; i++) {
        s.len = r.len = 0;
        if ((rc = in->ident(in->ctx, i, &s, runs ? &r : NULL, err)))
            break;
        stats[i].hash = key_hash(in, s.data ? s.data : "", s.len);
        stats[i].id = i;
        stats[i].off = stats_text->len;
        stats[i].len = s.len;
        if (s.len && rs_buf_append(stats_text, s.data, s.len))
            rc = rs_err_set(err, RS_ENOMEM, "out of memory");
        const char *p = r.data;
        for (uint32_t k = 0; runs && k < in->runs && !rc; k++) {
            const char *e = strchr(p, '\n');
            struct key *kk = &runs[i * in->runs + k];
            kk->hash = key_hash(in, p, (size_t)(e - p));
            kk->id = i * in->runs + k;
            kk->off = runs_text->len;
            kk->len = (size_t)(e - p);
            if (kk->len && rs_buf_append(runs_text, p, kk->len))
                rc = rs_err_set(err, RS_ENOMEM, "out of memory");
            p = e + 1;
        }
    }
    rs_buf_free(&s);
    rs_buf_free(&r);
    qsort(stats, in->n_points, sizeof *stats, cmp_key);
    if (runs)
        qsort(runs, in->n_points * in->runs, sizeof *runs, cmp_key);
    return rc;
}

/* The id of the key whose text is row[0..len) in keys[0..n) (sorted by hash; texts in
 * text), or -1: found by the hash, decided by the text. */
static int64_t find_key(const struct rs__resume_in *in, const struct key *keys, uint64_t n,
                        const struct rs_buf *text, const char *row, size_t len)
{
    uint64_t hash = key_hash(in, row, len), lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (keys[mid].hash < hash)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && keys[lo].hash == hash; lo++)
        if (rs__resume_same(text->data + keys[lo].off, keys[lo].len, row, len))
            return (int64_t)keys[lo].id;
    return -1;
}

int rs__resume_same(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && (alen == 0 || !memcmp(a, b, alen));
}

#define MAX_ID_CELLS 256

/* Error for a row (line l of f) that matches no point: names up to three identity cells in
 * which it differs from the nearest point (or run) of the sweep. */
static int foreign_row(const struct rs__resume_in *in, const struct file *f, size_t l,
                       int per_run, struct rs_err *err)
{
    size_t hlen, len, n_id = in->n_id < MAX_ID_CELLS ? in->n_id : MAX_ID_CELLS;
    const char *head = line_at(f, 0, &hlen), *line = line_at(f, l, &len);
    size_t hs[MAX_ID_CELLS + 1], ls[MAX_ID_CELLS + 1], ps[MAX_ID_CELLS + 1];
    csv_cells(head, hlen, hs, n_id);
    csv_cells(line, len, ls, n_id);
    struct rs_buf s, r, best;
    rs_buf_init(&s);
    rs_buf_init(&r);
    rs_buf_init(&best);
    size_t best_diff = (size_t)-1;
    int rc = 0;
    for (uint64_t i = 0; i < in->n_points && !rc && best_diff > 1; i++) {
        s.len = r.len = 0;
        if ((rc = in->ident(in->ctx, i, &s, per_run ? &r : NULL, err)))
            break;
        const char *p = per_run ? r.data : s.data;
        for (uint32_t k = 0; k < (per_run ? in->runs : 1); k++) {
            const char *e = per_run ? strchr(p, '\n') : p + s.len;
            size_t plen = (size_t)(e - p), diff = 0;
            csv_cells(p, plen, ps, n_id);
            for (size_t c = 0; c < n_id; c++)
                diff += ps[c + 1] - ps[c] != ls[c + 1] - ls[c] ||
                        memcmp(p + ps[c], line + ls[c], ps[c + 1] - ps[c]);
            if (diff < best_diff) {
                best_diff = diff;
                best.len = 0;
                rc = rs_buf_append(&best, p, plen);
            }
            p = e + 1;
        }
    }
    char what[320] = "";
    size_t wl = 0;
    if (!rc && best.data) {
        csv_cells(best.data, best.len, ps, n_id);
        int shown = 0;
        for (size_t c = 0; c < n_id && shown < 3 && wl < sizeof what; c++) {
            size_t a = ls[c + 1] - ls[c] - 1, b = ps[c + 1] - ps[c] - 1;
            if (a == b && !memcmp(best.data + ps[c], line + ls[c], a))
                continue;
            wl += (size_t)snprintf(what + wl, sizeof what - wl, "%s%.*s is %.*s (this sweep: %.*s)",
                                   shown++ ? ", " : ": ", (int)(hs[c + 1] - hs[c] - 1),
                                   head + hs[c], (int)a, line + ls[c], (int)b,
                                   best.data + ps[c]);
        }
    }
    rs_buf_free(&s);
    rs_buf_free(&r);
    rs_buf_free(&best);
    if (rc)
        return rc;
    return rs_err_set(err, RS_EINVAL,
                      "%s:%zu: a row of another grid or experiment%s; remove the file or write "
                      "elsewhere",
                      f->path, l + 1, what);
}

/* Header and cell counts of a file with rows: the header begins with prefix, every row
 * has as many cells as the header. */
static int check_shape(const struct file *f, const char *prefix, const char *what,
                       struct rs_err *err)
{
    size_t len, n_head;
    const char *head = line_at(f, 0, &len);
    size_t plen = strlen(prefix);
    if (len < plen || memcmp(head, prefix, plen))
        return rs_err_set(err, RS_EINVAL,
                          "'%s' holds %s of another experiment (its columns differ); remove it "
                          "or write elsewhere",
                          f->path, what);
    n_head = csv_cells(head, len, NULL, 0);
    for (size_t l = 1; l < f->n_lines; l++) {
        const char *line = line_at(f, l, &len);
        size_t n = csv_cells(line, len, NULL, 0);
        if (n != n_head)
            return rs_err_set(err, RS_EINVAL,
                              "%s:%zu: a damaged row (%zu cells; the header has %zu); remove "
                              "the file or cut it before this line",
                              f->path, l + 1, n, n_head);
    }
    return 0;
}

static int cut(const struct file *f, size_t len, struct rs_err *err)
{
    if (len == f->all.len)
        return 0;
    if (truncate(f->path, (off_t)len))
        return rs_err_set(err, RS_EIO, "cannot truncate '%s': %s", f->path, strerror(errno));
    return 0;
}

static void note(struct rs__resume_out *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(struct rs__resume_out *out, const char *fmt, ...)
{
    size_t len = strlen(out->note);
    if (len + 2 >= sizeof out->note)
        return;
    if (len)
        len += (size_t)snprintf(out->note + len, sizeof out->note - len, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->note + len, sizeof out->note - len, fmt, ap);
    va_end(ap);
}

int rs__sweep_resume(const struct rs__resume_in *in, struct rs__resume_out *out,
                     struct rs_err *err)
{
    struct file s, r;
    struct key *ks = NULL, *kr = NULL;
    uint8_t *have = NULL;
    uint64_t *line_of = NULL; /* statistics line of each kept point */
    size_t r_keep = 0;        /* bytes of the per-run file kept */
    struct rs_buf ks_text, kr_text; /* the identities' texts (struct key's off, len) */
    rs_buf_init(&ks_text);
    rs_buf_init(&kr_text);
    uint64_t cut_rows = 0, cut_points = 0;
    int rc = read_file(&s, in->out_path, err);
    memset(&r, 0, sizeof r);
    rs_buf_init(&r.all);
    if (!rc && in->per_run_path)
        rc = read_file(&r, in->per_run_path, err);
    int s_rows = !rc && s.n_lines > 1;
    if (s_rows)
        rc = check_shape(&s, in->stats_prefix, "results", err);
    /* identities of every point: needed as soon as a file has rows to match */
    if (!rc && s_rows) {
        ks = rs_malloc((in->n_points + 1) * sizeof *ks);
        kr = in->per_run_path ? rs_malloc((in->n_points * in->runs + 1) * sizeof *kr) : NULL;
        line_of = rs_calloc(in->n_points + 1, sizeof *line_of);
        have = in->per_run_path ? rs_calloc(in->n_points * in->runs + 1, 1) : NULL;
        if (!ks || !line_of || (in->per_run_path && (!kr || !have)))
            rc = rs_err_set(err, RS_ENOMEM, "out of memory");
        rc = rc ? rc : build_keys(in, ks, kr, &ks_text, &kr_text, err);
    }
    for (size_t l = 1; s_rows && !rc && l < s.n_lines; l++) {
        size_t len;
        const char *line = line_at(&s, l, &len);
        int64_t i = find_key(in, ks, in->n_points, &ks_text, line,
                             prefix_len(line, len, in->n_id));
        if (i < 0)
            rc = foreign_row(in, &s, l, 0, err);
        else if (out->skip[i])
            rc = rs_err_set(err, RS_EINVAL,
                            "%s:%zu: a second row of the point at line %llu; remove the file or "
                            "write elsewhere",
                            s.path, l + 1, (unsigned long long)line_of[i]);
        else {
            out->skip[i] = 1;
            line_of[i] = l + 1;
            out->kept++;
        }
    }
    if (!rc && in->per_run_path && out->kept) {
        if (r.n_lines == 0)
            rc = rs_err_set(err, RS_EINVAL,
                            "'%s' %s, but '%s' holds %llu points: resume with the per-run file "
                            "of that sweep, or without --per-run (the statistics alone), or "
                            "remove '%s' to start afresh",
                            r.path, r.exists ? "has no header" : "does not exist", s.path,
                            (unsigned long long)out->kept, s.path);
        rc = rc ? rc : check_shape(&r, in->runs_prefix, "per-run results", err);
        size_t first_cut = 0; /* line of the first row of a point without statistics */
        for (size_t l = 1; !rc && l < r.n_lines; l++) {
            size_t len;
            const char *line = line_at(&r, l, &len);
            int64_t t = find_key(in, kr, in->n_points * in->runs, &kr_text, line,
                                 prefix_len(line, len, in->n_id));
            if (t < 0) {
                rc = foreign_row(in, &r, l, 1, err);
            } else if (!out->skip[(uint64_t)t / in->runs]) {
                if (!first_cut)
                    first_cut = l;
                cut_rows++;
                have[t] = 2; /* points counted below */
            } else if (first_cut) {
                rc = rs_err_set(err, RS_EINVAL,
                                "%s:%zu: a per-run row of a point that is in '%s', after rows "
                                "of points that are not (line %zu): remove both files to start "
                                "afresh",
                                r.path, l + 1, s.path, first_cut + 1);
            } else if (have[t]) {
                rc = rs_err_set(err, RS_EINVAL, "%s:%zu: a second per-run row of the same run; "
                                                "remove the file or write elsewhere",
                                r.path, l + 1);
            } else {
                have[t] = 1;
            }
        }
        for (uint64_t i = 0; !rc && i < in->n_points; i++) {
            uint32_t n = 0, extra = 0;
            for (uint32_t k = 0; k < in->runs; k++) {
                n += have[i * in->runs + k] == 1;
                extra += have[i * in->runs + k] == 2;
            }
            cut_points += extra > 0;
            if (out->skip[i] && n < in->runs)
                rc = rs_err_set(err, RS_EINVAL,
                                "'%s' lacks per-run rows (%u of %u) of the point at %s:%llu: the "
                                "per-run file is behind; resume without --per-run (the "
                                "statistics alone), or remove both files to start afresh",
                                r.path, n, in->runs, s.path, (unsigned long long)line_of[i]);
        }
        r_keep = first_cut ? r.off[first_cut] : r.complete;
        out->runs_append = 1;
    }
    if (!rc) { /* every check passed: repair */
        if (s.n_lines)
            rc = rs_buf_append(&out->header, s.all.data, s.off[1]) ? RS_ENOMEM : 0;
        if (!rc && out->runs_append)
            rc = rs_buf_append(&out->runs_header, r.all.data, r.off[1]) ? RS_ENOMEM : 0;
        if (rc)
            rs_err_set(err, rc, "out of memory");
        if (!rc && s.complete < s.all.len) {
            rc = cut(&s, s.complete, err);
            note(out, "cut a torn last line of %s", s.path);
        }
        if (!rc && out->runs_append && r_keep < r.all.len) {
            if (cut_rows)
                note(out,
                     "cut %llu per-run rows of %llu point%s without a statistics row from %s "
                     "(run again)",
                     (unsigned long long)cut_rows, (unsigned long long)cut_points,
                     cut_points == 1 ? "" : "s", r.path);
            if (r.complete < r.all.len)
                note(out, "cut a torn last line of %s", r.path);
            rc = cut(&r, r_keep, err);
        }
    }
    file_free(&s);
    file_free(&r);
    rs_free(ks);
    rs_free(kr);
    rs_buf_free(&ks_text);
    rs_buf_free(&kr_text);
    rs_free(have);
    rs_free(line_of);
    return rc;
}

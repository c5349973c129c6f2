/* The browser view of one run (`routesim run ... --trace F.html`, docs/trace.md): one
 * self-contained HTML file made of the page compiled in from src/cli/trace_view.html, the
 * network as Graphviz draws it for `topo --svg` (inline SVG), and the run's data as JSON
 * (the successor of every node's ports, the event log, the metrics, the deadlock). The
 * page loads nothing from the network. Networks above --trace-limit nodes are refused before
 * the run: the view is meant for a few hundred nodes. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/render.h"
#include "routesim/buf.h"
#include "routesim/events.h"
#include "routesim/net.h"
#include "routesim/record.h"

extern const unsigned char rs__trace_view[];
extern const unsigned long rs__trace_view_len;

int cli_trace_check(const struct rs_net *net, uint64_t max_nodes, struct rs_err *err)
{
    if (net->n_nodes <= max_nodes)
        return 0;
    return rs_err_set(err, RS_ERESOURCE,
                      "--trace: a browser view of topology=%s with %u nodes is refused: more "
                      "than --trace-limit %llu nodes (the view is meant for a few hundred; give "
                      "--trace-limit %u to write it anyway, or use --events)",
                      net->name, net->n_nodes, (unsigned long long)max_nodes, net->n_nodes);
}

/* Append s as a JSON string; '<', '>' and '&' as \u escapes so that no "</script>" can
 * end the data block early. */
static int json_str(struct rs_buf *b, const char *s)
{
    int rc = rs_buf_puts(b, "\"");
    for (; !rc && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            rc = rs_buf_printf(b, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            rc = rs_buf_printf(b, "\\u%04x", c);
        else
            rc = rs_buf_append(b, (const char *)&c, 1);
    }
    return rc ? rc : rs_buf_puts(b, "\"");
}

/* Graphviz's SVG of the network (from the <svg> element on) into out. */
static int network_svg(const struct rs_net *net, struct rs_buf *out, struct rs_err *err)
{
    struct rs_buf dot;
    rs_buf_init(&dot);
    int pinned = 0, rc = rs_net_write_dot_drawing(net, &dot, &pinned);
    if (rc) {
        rs_buf_free(&dot);
        return rs_err_set(err, RS_ENOMEM, "out of memory for the network's Graphviz text");
    }
    const char *dir = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/routesim-trace-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        rs_buf_free(&dot);
        return rs_err_set(err, RS_EIO, "--trace: cannot create a temporary file in %s: %s",
                          dir && *dir ? dir : "/tmp", strerror(errno));
    }
    close(fd);
    char *argv[6];
    int k = 0;
    argv[k++] = pinned ? "neato" : "dot"; /* as `topo --svg` draws it (picture.c) */
    if (pinned)
        argv[k++] = "-n";
    argv[k++] = "-Tsvg";
    argv[k++] = "-o";
    argv[k++] = tmp;
    argv[k] = NULL;
    rc = rs__spawn(argv, dot.data, dot.len, "the network's picture",
                   "Graphviz: apt-get install graphviz, or scripts/setup.sh", err);
    rs_buf_free(&dot);
    FILE *f = rc ? NULL : fopen(tmp, "rb");
    if (!rc && !f)
        rc = rs_err_set(err, RS_EIO, "--trace: cannot read Graphviz's output %s: %s", tmp,
                        strerror(errno));
    if (f) {
        char chunk[65536];
        size_t n;
        int started = 0;
        while (!rc && (n = fread(chunk, 1, sizeof chunk - 1, f)) > 0) {
            chunk[n] = '\0';
            const char *from = chunk;
            if (!started) { /* drop the XML prolog and DOCTYPE: the page is HTML */
                const char *svg = strstr(chunk, "<svg");
                if (!svg)
                    continue;
                from = svg;
                started = 1;
            }
            if (rs_buf_append(out, from, n - (size_t)(from - chunk)))
                rc = rs_err_set(err, RS_ENOMEM, "out of memory for the network's picture");
        }
        fclose(f);
        if (!rc && !started)
            rc = rs_err_set(err, RS_EIO, "--trace: Graphviz wrote no SVG");
    }
    unlink(tmp);
    return rc;
}

/* The run's data as one JSON object (the page's D). */
static int trace_data(const struct rs_net *net, const struct rs_events *ev,
                      const struct rs_record *rec, const char *deadlock,
                      const uint32_t (*cycle)[2], size_t n_cycle, struct rs_buf *b)
{
    char title[256];
    snprintf(title, sizeof title, "routesim run: topology=%s, %u nodes, %u terminals", net->name,
             net->n_nodes, net->n_terminals);
    int rc = rs_buf_puts(b, "{\"title\":") || json_str(b, title) ||
             rs_buf_printf(b, ",\"nodes\":%u,\"kinds\":[", net->n_nodes);
    for (int k = 0; !rc && rs_event_kind_name((enum rs_event_kind)k); k++)
        rc = (k ? rs_buf_puts(b, ",") : 0) || json_str(b, rs_event_kind_name((enum rs_event_kind)k));
    rc = rc || rs_buf_puts(b, "],\"adj\":[");
    for (uint32_t v = 0; !rc && v < net->n_nodes; v++) {
        rc = rs_buf_puts(b, v ? ",[" : "[");
        for (uint32_t p = 0; !rc && p < net->max_ports; p++) {
            uint32_t w = net->ops->neighbor(net, v, p, NULL);
            rc = w == RS_NONE ? rs_buf_printf(b, "%s-1", p ? "," : "")
                              : rs_buf_printf(b, "%s%u", p ? "," : "", w);
        }
        rc = rc || rs_buf_puts(b, "]");
    }
    rc = rc || rs_buf_puts(b, "],\"events\":[");
    uint64_t n = ev ? rs_events_count(ev) : 0;
    for (uint64_t i = 0; !rc && i < n; i++) {
        struct rs_event e;
        rs_events_get(ev, i, &e);
        if (e.kind == RS_EV_TRUNCATED)
            continue;
        rc = rs_buf_printf(b, "%s[%" PRIu32 ",%d,%" PRIu32 ",%" PRIu32 ",%" PRId64 ",%" PRId64 "]",
                           i ? "," : "", e.step, (int)e.kind, e.packet, e.node,
                           e.port == RS_EV_NONE ? (int64_t)-1 : (int64_t)e.port,
                           e.vc == RS_EV_NONE ? (int64_t)-1 : (int64_t)e.vc);
    }
    rc = rc || rs_buf_printf(b, "],\"truncated\":%d,\"metrics\":{", ev && rs_events_truncated(ev));
    int first = 1;
    for (size_t i = rec->n_params; !rc && i < rec->n; i++) {
        const struct rs_field *f = &rec->f[i];
        rc = rs_buf_puts(b, first ? "" : ",") || json_str(b, f->name) || rs_buf_puts(b, ":");
        first = 0;
        if (rc)
            break;
        if (f->type == RS_VAL_INT)
            rc = rs_buf_printf(b, "%" PRId64, f->i);
        else if (f->type == RS_VAL_DOUBLE)
            rc = f->d == f->d && f->d - f->d == 0 ? rs_buf_printf(b, "%.9g", f->d)
                                                  : rs_buf_puts(b, "null");
        else
            rc = json_str(b, f->s ? f->s : "");
    }
    rc = rc || rs_buf_puts(b, "},\"deadlock\":");
    rc = rc || (deadlock && *deadlock ? json_str(b, deadlock) : rs_buf_puts(b, "null"));
    rc = rc || rs_buf_puts(b, ",\"cycle\":");
    if (!rc && cycle && n_cycle) {
        rc = rs_buf_puts(b, "[");
        for (size_t i = 0; !rc && i < n_cycle; i++)
            rc = rs_buf_printf(b, "%s[%u,%u]", i ? "," : "", cycle[i][0], cycle[i][1]);
        rc = rc || rs_buf_puts(b, "]");
    } else {
        rc = rc || rs_buf_puts(b, "null");
    }
    return rc || rs_buf_puts(b, "}");
}

/* Append the template with its @@NAME@@ slots filled. */
static int fill_template(struct rs_buf *out, const char *title, const struct rs_buf *svg,
                         const struct rs_buf *data)
{
    const char *t = (const char *)rs__trace_view, *end = t + rs__trace_view_len;
    while (t < end) {
        const char *slot = strstr(t, "@@");
        if (!slot)
            return rs_buf_append(out, t, (size_t)(end - t));
        if (rs_buf_append(out, t, (size_t)(slot - t)))
            return RS_ENOMEM;
        int rc;
        if (!strncmp(slot, "@@TITLE@@", 9))
            rc = rs_buf_puts(out, title), t = slot + 9;
        else if (!strncmp(slot, "@@SVG@@", 7))
            rc = rs_buf_append(out, svg->data, svg->len), t = slot + 7;
        else if (!strncmp(slot, "@@DATA@@", 8))
            rc = rs_buf_append(out, data->data, data->len), t = slot + 8;
        else
            rc = rs_buf_append(out, slot, 2), t = slot + 2;
        if (rc)
            return RS_ENOMEM;
    }
    return 0;
}

int cli_trace_html(const struct rs_net *net, const struct rs_events *ev,
                   const struct rs_record *rec, const char *deadlock,
                   const uint32_t (*cycle)[2], size_t n_cycle, const char *path,
                   struct rs_err *err)
{
    struct rs_buf svg, data, page;
    rs_buf_init(&svg);
    rs_buf_init(&data);
    rs_buf_init(&page);
    int rc = network_svg(net, &svg, err);
    if (!rc && trace_data(net, ev, rec, deadlock, cycle, n_cycle, &data))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the browser view's data");
    char title[128];
    snprintf(title, sizeof title, "routesim run: %s", net->name);
    if (!rc && fill_template(&page, title, &svg, &data))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the browser view");
    if (!rc)
        rc = rs_buf_write_file(&page, path, err);
    rs_buf_free(&svg);
    rs_buf_free(&data);
    rs_buf_free(&page);
    return rc;
}

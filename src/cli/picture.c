/* Pictures of networks (`routesim topo ... --svg F --png F`): the network's Graphviz text
 * (rs_net_write_dot_drawing) laid out by Graphviz's programs: `neato -n` with pinned
 * positions for meshes, tori, rings and chains (a grid drawn as a grid), `dot` for every
 * other network (levels of butterflies, Beneš networks and LCANs as ranks, fat-trees as
 * trees, dragonfly groups as clusters). A picture above picture_limit nodes is refused
 * before anything runs: its layout would take minutes and show nothing readable. The
 * picture of a deadlock (`run --svg/--png`) marks the channels of its waiting cycle. */
#include <string.h>

#include "cli/cli.h"
#include "core/render.h"
#include "routesim/buf.h"
#include "routesim/net.h"

/* What one rendering needs: the Graphviz text, the program and the output format. */
struct picture {
    const struct rs_buf *dot;
    int pinned;         /* positions given: neato -n, else dot */
    const char *format; /* "svg" or "png" */
    const char *path;   /* as the user named it */
};

/* rs__render_to's maker: Graphviz writes the picture to target (a temporary file), to the
 * path as given (a device or FIFO), or to standard output. */
static int make_picture(void *ctx, const char *target, struct rs_err *err)
{
    const struct picture *pic = ctx;
    char type[16];
    snprintf(type, sizeof type, "-T%s", pic->format);
    const char *to = target;
    if (!to && pic->path && strcmp(pic->path, "-"))
        to = pic->path;
    char *argv[6];
    int n = 0;
    argv[n++] = pic->pinned ? "neato" : "dot";
    if (pic->pinned)
        argv[n++] = "-n";
    argv[n++] = type;
    if (to) {
        argv[n++] = "-o";
        argv[n++] = (char *)to;
    }
    argv[n] = NULL;
    return rs__spawn(argv, pic->dot->data, pic->dot->len, NULL,
                     "Graphviz: apt-get install graphviz, or scripts/setup.sh", err);
}

int cli_picture(const struct rs_net *net, const char *path, const char *format,
                uint64_t max_nodes, struct rs_err *err)
{
    return cli_picture_marked(net, path, format, max_nodes, NULL, 0, err);
}

int cli_picture_check(const struct rs_net *net, uint64_t max_nodes, struct rs_err *err)
{
    if (net->n_nodes > max_nodes)
        return rs_err_set(err, RS_ERESOURCE,
                          "a picture of topology=%s with %u nodes is refused: more than "
                          "picture_limit=%llu nodes (its layout would be slow and unreadable; "
                          "give picture_limit=%u to draw it anyway)",
                          net->name, net->n_nodes, (unsigned long long)max_nodes,
                          net->n_nodes);
    return 0;
}

int cli_picture_marked(const struct rs_net *net, const char *path, const char *format,
                       uint64_t max_nodes, const uint64_t *marked, size_t n_marked,
                       struct rs_err *err)
{
    int rc = cli_picture_check(net, max_nodes, err);
    if (rc)
        return rc;
    struct rs_buf dot;
    rs_buf_init(&dot);
    struct picture pic = {&dot, 0, format, path};
    rc = rs_net_write_dot_marked(net, &dot, &pic.pinned, marked, n_marked);
    if (rc)
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the picture's Graphviz text");
    else
        rc = rs__render_to(path, make_picture, &pic, err);
    rs_buf_free(&dot);
    return rc;
}

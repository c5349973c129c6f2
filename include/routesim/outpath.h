/* Output paths: how a file named for output is written (a regular file replaced atomically,
 * a device or FIFO written through, standard output, or refused) and whether two paths
 * name the same file, so that no output overwrites an input or another output. */
#ifndef ROUTESIM_OUTPATH_H
#define ROUTESIM_OUTPATH_H

#include <stddef.h>
#include <sys/types.h>

#include "routesim/error.h"

enum rs_out_how {
    RS_OUT_STDOUT,  /* NULL, "-", or a path naming this process's standard output */
    RS_OUT_REPLACE, /* a regular file or a new path: temporary file in its folder + rename */
    RS_OUT_THROUGH  /* a character device or a FIFO: opened and written in place */
};

struct rs_out {
    enum rs_out_how how;
    char *path;  /* REPLACE: the final target after following symbolic links; THROUGH: the
                  * path as given; STDOUT: NULL. Owned (malloc), freed by rs_out_free. */
    int exists;  /* REPLACE: the target exists: its mode (as root also owner, group) is kept */
    mode_t mode; /* permission bits of the existing target (07777) */
    uid_t uid;
    gid_t gid;
};

/* Decide how path is written, following symbolic links (also dangling ones) to their
 * final target. Touches nothing. Returns 0 with *o filled (release with rs_out_free), or
 * RS_EIO "cannot write 'PATH': REASON" for a directory (or a path ending in '/'), a
 * missing folder, a loop of links, a block device or a socket; RS_EINVAL for an empty
 * path. */
int rs_out_resolve(const char *path, struct rs_out *o, struct rs_err *err);

void rs_out_free(struct rs_out *o);

/* rs_out_resolve, then check that this process may write it (access(2)): for a replaced
 * file its folder (temporary file, rename) and the file itself when it exists; a device or
 * FIFO itself. Nothing is created or opened. 0, or RS_EIO as rs_out_resolve or
 * "cannot write 'PATH': Permission denied". */
int rs_out_check(const char *path, struct rs_err *err);

/* 1 when a and b name the same file: the same device and inode when both exist, else the
 * same canonical path (folder resolved by realpath, links of the last component
 * followed); 0 otherwise, or when either is NULL or "-". */
int rs_path_same(const char *a, const char *b);

/* A path and what the user called it in messages ("-o", "--per-run", "-c",
 * "traffic_file"). */
struct rs_named_path {
    const char *what;
    const char *path; /* NULL or "-": skipped */
};

/* Refuse an output that is the same file as an input or as an earlier output:
 * RS_EINVAL "OUT_WHAT 'A' is the same file as the input IN_WHAT 'B' (refusing to overwrite
 * it)" or "... as OTHER_WHAT 'B' (give each output its own file)". Checked before anything
 * is written; 0 when every output is distinct. */
int rs_out_check_distinct(const struct rs_named_path *outs, size_t n_outs,
                          const struct rs_named_path *ins, size_t n_ins, struct rs_err *err);

#endif

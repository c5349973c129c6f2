/* Running the programs that draw (gnuplot, Graphviz) and placing what they write: see
 * render.h. The program's input and its standard error go through unlinked temporary
 * files, not pipes, so that neither side can block the other and a program that exits
 * early cannot raise SIGPIPE in ours. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/render.h"
#include "routesim/alloc.h"
#include "routesim/outpath.h"

extern char **environ;

/* The last non-empty line of the file behind fd (read from its start) into last[0..n). */
static void last_line(int fd, char *last, size_t n)
{
    char chunk[4096];
    size_t len = 0;
    int line_done = 0;
    last[0] = '\0';
    if (lseek(fd, 0, SEEK_SET) < 0)
        return;
    for (ssize_t got; (got = read(fd, chunk, sizeof chunk)) != 0;) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break;
        for (ssize_t i = 0; i < got; i++) {
            if (chunk[i] == '\n') {
                line_done = len > 0;
                continue;
            }
            if (line_done)
                len = 0, line_done = 0;
            if (len + 1 < n)
                last[len++] = chunk[i];
            last[len] = '\0';
        }
    }
}

/* 1 when prog is an executable file in a folder of PATH. */
static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char full[4096];
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len > 0 && len + strlen(prog) + 2 <= sizeof full) {
            snprintf(full, sizeof full, "%.*s/%s", (int)len, path, prog);
            if (access(full, X_OK) == 0)
                return 1;
        }
        path = end ? end + 1 : NULL;
    }
    return 0;
}

int rs__spawn(char *const argv[], const void *in, size_t in_len, const char *what,
              const char *hint, struct rs_err *err)
{
    const char *prog = argv[0];
    if (!on_path(prog))
        return rs_err_set(err, RS_EIO, "cannot run %s: not found on PATH%s%s%s", prog,
                          hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
    FILE *input = tmpfile(), *errors = tmpfile();
    int rc = 0;
    if (!input || !errors) {
        rc = rs_err_set(err, RS_EIO, "cannot run %s: temporary file: %s", prog, strerror(errno));
        goto done;
    }
    if (in_len && (fwrite(in, 1, in_len, input) != in_len || fflush(input))) {
        rc = rs_err_set(err, RS_EIO, "cannot run %s: temporary file: %s", prog, strerror(errno));
        goto done;
    }
    rewind(input);
    posix_spawn_file_actions_t fa;
    int bad = posix_spawn_file_actions_init(&fa);
    bad = bad ? bad : posix_spawn_file_actions_adddup2(&fa, fileno(input), 0);
    bad = bad ? bad : posix_spawn_file_actions_adddup2(&fa, fileno(errors), 2);
    pid_t pid;
    bad = bad ? bad : posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (bad) {
        rc = rs_err_set(err, RS_EIO, "cannot run %s: %s", prog, strerror(bad));
        goto done;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            rc = rs_err_set(err, RS_EIO, "%s failed%s%s: %s", prog, what ? " on " : "",
                            what ? what : "", strerror(errno));
            goto done;
        }
    if (!WIFEXITED(st) || WEXITSTATUS(st)) {
        char last[400];
        last_line(fileno(errors), last, sizeof last);
        rc = rs_err_set(err, RS_EIO, "%s failed%s%s (exit status %d)%s%s", prog,
                        what ? " on " : "", what ? what : "",
                        WIFEXITED(st) ? WEXITSTATUS(st) : -1, last[0] ? ": " : "", last);
    }
done:
    if (input)
        fclose(input);
    if (errors)
        fclose(errors);
    return rc;
}

int rs__render_to(const char *out_path,
                  int (*make)(void *ctx, const char *target, struct rs_err *err), void *ctx,
                  struct rs_err *err)
{
    struct rs_out o;
    int rc = rs_out_resolve(out_path, &o, err);
    if (rc)
        return rc;
    if (o.how != RS_OUT_REPLACE) {
        rc = make(ctx, NULL, err);
        rs_out_free(&o);
        return rc;
    }
    static _Atomic unsigned counter;
    size_t plen = strlen(o.path);
    char *tmp = rs_malloc(plen + 64);
    int fd = -1;
    for (int attempt = 0; tmp && attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, plen + 64, "%s.tmp.%ld.%u", o.path, (long)getpid(), counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        rc = tmp ? rs_err_set(err, RS_EIO, "cannot write '%s': %s", out_path, strerror(errno))
                 : rs_err_set(err, RS_ENOMEM, "cannot write '%s': out of memory", out_path);
        rs_free(tmp);
        rs_out_free(&o);
        return rc;
    }
    int e = 0; /* owner first: chown clears the set-id bits that fchmod then restores */
    if (o.exists && geteuid() == 0 && fchown(fd, o.uid, o.gid))
        e = errno;
    if (!e && o.exists && fchmod(fd, o.mode))
        e = errno;
    close(fd);
    if (e)
        rc = rs_err_set(err, RS_EWRITE, "cannot write '%s': %s", out_path, strerror(e));
    else if (!(rc = make(ctx, tmp, err)) && rename(tmp, o.path))
        rc = rs_err_set(err, RS_EWRITE, "cannot write '%s': %s", out_path, strerror(errno));
    if (rc)
        unlink(tmp);
    rs_free(tmp);
    rs_out_free(&o);
    return rc;
}

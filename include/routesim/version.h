/* The routesim version and the git commit it was built from. */
#ifndef ROUTESIM_VERSION_H
#define ROUTESIM_VERSION_H

/* "0.1.0" */
const char *rs_version(void);

/* `git describe --always --dirty` at configure time, or "unknown". */
const char *rs_commit(void);

#endif

/* The exchange between the processes of one partitioned run (docs/distributed.md): the
 * collective operations a run split over P ranks needs, called by the library and
 * implemented by the caller (the command-line tool implements them with Open MPI,
 * src/mpi/rs_mpi.c), so that the library itself never links MPI. Every rank calls each
 * operation in the same order with consistent arguments (collectives). */
#ifndef ROUTESIM_EXCHANGE_H
#define ROUTESIM_EXCHANGE_H

#include <stdint.h>

enum rs_exchange_op { RS_EXCHANGE_SUM, RS_EXCHANGE_MAX };

struct rs_exchange {
    int rank, size; /* this process, and the number of processes (size >= 1) */
    void *ctx;      /* the implementation's */
    /* Every rank sends send_bytes[r] bytes to rank r, the blocks for ranks 0..size-1 in
     * order from send; receives the blocks of ranks 0..size-1 in rank order into *recv
     * (grown with rs_realloc when *recv_cap is smaller; released by the caller with
     * rs_free), and their sizes (UNITS: bytes) in recv_bytes[0..size). Returns 0 or
     * nonzero (the exchange failed). */
    int (*alltoallv)(void *ctx, const void *send, const uint64_t *send_bytes, void **recv,
                     uint64_t *recv_cap, uint64_t *recv_bytes);
    /* Every rank contributes bytes bytes from send; every rank receives every rank's
     * contribution in rank order into *recv (grown as above) and their total in *total
     * (UNITS: bytes). Returns 0 or nonzero. */
    int (*allgatherv)(void *ctx, const void *send, uint64_t bytes, void **recv,
                      uint64_t *recv_cap, uint64_t *total);
    /* v[0..n) becomes the sum or maximum of every rank's v (the same on every rank).
     * Returns 0 or nonzero. */
    int (*allreduce)(void *ctx, uint64_t *v, int n, enum rs_exchange_op op);
};

#endif

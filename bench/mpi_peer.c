/*
 * The Open MPI peer of the bench scripts (vs-peers.sh, vs-gloo.sh, repro.sh): MPI's own collectives on float32 with
 * sum, timed the way cctk's product times a row, so that the two compare directly.
 *
 * Per collective and size: one call whose result every rank checks against known values, WARMUP untimed calls, then
 * REPEATS timed loops of ITERS calls back to back after an MPI_Barrier (as cctk and nccl-tests time them). A loop's
 * time is the slowest rank's mean per call (MPI_Reduce with MPI_MAX); the row reports the median loop and the loops'
 * spread ((slowest - fastest) / median). With -e each call is timed alone instead (MPI_Barrier; t0; call; t1; the
 * mean of the calls), the method of cctk's inner TcpBench, for vs-gloo.sh. Native code has no JIT compiler or
 * collector pauses, so nothing is re-timed.
 *
 * Sizes and bandwidths as nccl-tests defines them (its doc/PERFORMANCE.md, github.com/NVIDIA/nccl-tests):
 *   all_reduce, broadcast: size = bytes of the buffer of a rank; all_gather: size = total output bytes;
 *   reduce_scatter: size = total input bytes of a rank; all_to_all: size = bytes each rank sends.
 *   algbw = size / time (1 GB/s = 1e9 B/s); busbw = algbw x 2(W-1)/W for all_reduce, (W-1)/W for all_gather,
 *   reduce_scatter and all_to_all, 1 for broadcast.
 * all_reduce, reduce_scatter, all_gather and all_to_all are out of place (separate send and receive buffers),
 * broadcast in place (its only form); the root of broadcast is rank 0. The calls are those of the MPI standard:
 * MPI_Allreduce, MPI_Allgather, MPI_Reduce_scatter_block, MPI_Bcast, MPI_Alltoall.
 *
 * Rank 0 writes the CSV the bench readers take (peers.py, ratios.py, repro.py):
 *   system,world,collective,size_bytes,time_us,algbw_GBps,busbw_GBps,status,repeats,spread_pct,method
 * status is "ok", or "wrong (N ranks)" when the checked call's result was wrong on N ranks (the row is then kept but
 * not used for ratios). size_bytes is the size actually moved: the requested size rounded down to whole float32
 * elements (and, where the buffer is cut into W blocks, to W equal blocks).
 *
 * build: mpicc -O2 -o mpi_peer bench/mpi_peer.c
 * usage: mpirun -np W mpi_peer [-s 1M,16M,64M] [-l all_reduce,all_gather,reduce_scatter,broadcast,all_to_all]
 *                              [-W WARMUP=5] [-n ITERS=20] [-r REPEATS=3] [-e] [-c FILE.csv]
 * Sizes take a suffix K, M, G (or KiB, MiB, GiB: both mean powers of 1024) or none (bytes). all_to_all may also be
 * written alltoall; the CSV keeps the name as given.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum coll { ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, BROADCAST, ALL_TO_ALL };

static int rank, world;

static void die(const char *msg) {
    if (rank == 0) {
        fprintf(stderr, "mpi_peer: %s\n", msg);
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static long parse_size(const char *s) {
    char *end;
    long n = strtol(s, &end, 10);
    if (end == s || n < 0) {
        return -1;
    }
    if (*end == 'K' || *end == 'k') {
        n <<= 10;
        end++;
    } else if (*end == 'M' || *end == 'm') {
        n <<= 20;
        end++;
    } else if (*end == 'G' || *end == 'g') {
        n <<= 30;
        end++;
    }
    if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0) {
        end += strlen(end);
    }
    return *end == '\0' ? n : -1;
}

static int parse_coll(const char *s) {
    if (strcmp(s, "all_reduce") == 0) return ALL_REDUCE;
    if (strcmp(s, "all_gather") == 0) return ALL_GATHER;
    if (strcmp(s, "reduce_scatter") == 0) return REDUCE_SCATTER;
    if (strcmp(s, "broadcast") == 0) return BROADCAST;
    if (strcmp(s, "all_to_all") == 0 || strcmp(s, "alltoall") == 0) return ALL_TO_ALL;
    return -1;
}

/* the known value of element i of rank r's input: small integers, exact in float32 and in their sums */
static float value(int r, long i) {
    return (float) (r + 1 + i % 13);
}

/* one cell's buffers: elements per rank of send and receive buffers, and per block where the buffer is cut in W */
struct cell {
    int coll;
    long bytes, block;
    float *send, *recv;
};

static void call(const struct cell *c) {
    switch (c->coll) {
    case ALL_REDUCE:
        MPI_Allreduce(c->send, c->recv, (int) c->block, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALL_GATHER:
        MPI_Allgather(c->send, (int) c->block, MPI_FLOAT, c->recv, (int) c->block, MPI_FLOAT, MPI_COMM_WORLD);
        break;
    case REDUCE_SCATTER:
        MPI_Reduce_scatter_block(c->send, c->recv, (int) c->block, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case BROADCAST:
        MPI_Bcast(c->recv, (int) c->block, MPI_FLOAT, 0, MPI_COMM_WORLD);
        break;
    case ALL_TO_ALL:
        MPI_Alltoall(c->send, (int) c->block, MPI_FLOAT, c->recv, (int) c->block, MPI_FLOAT, MPI_COMM_WORLD);
        break;
    }
}

/* sets the buffers up for the checked call; returns the number of receive elements to check */
static long setup(struct cell *c, long size) {
    long n = size / 4, i;
    int cut = c->coll != ALL_REDUCE && c->coll != BROADCAST;
    c->block = cut ? n / world : n;
    long send_n = 0, recv_n = 0;
    switch (c->coll) {
    case ALL_REDUCE: send_n = recv_n = c->block; break;
    case BROADCAST: recv_n = c->block; break;
    case ALL_GATHER: send_n = c->block; recv_n = c->block * world; break;
    case REDUCE_SCATTER: send_n = c->block * world; recv_n = c->block; break;
    case ALL_TO_ALL: send_n = recv_n = c->block * world; break;
    }
    c->bytes = (cut ? c->block * world : c->block) * 4;
    c->send = malloc((send_n > 0 ? send_n : 1) * sizeof(float));
    c->recv = malloc((recv_n > 0 ? recv_n : 1) * sizeof(float));
    if (!c->send || !c->recv) {
        die("out of memory");
    }
    for (i = 0; i < send_n; i++) {
        /* all_to_all: block j goes to rank j, so its values name the pair (rank, j) */
        c->send[i] = c->coll == ALL_TO_ALL ? value(rank * world + (int) (i / c->block), i % c->block)
                                           : value(rank, i);
    }
    for (i = 0; i < recv_n; i++) {
        c->recv[i] = c->coll == BROADCAST && rank == 0 ? value(0, i) : -1.0f;
    }
    return recv_n;
}

/* the number of wrong elements in this rank's result of the checked call */
static long check(const struct cell *c, long recv_n) {
    long wrong = 0, i;
    float ranks_sum = (float) world * (world + 1) / 2;
    for (i = 0; i < recv_n; i++) {
        float want = 0;
        long b = c->block;
        switch (c->coll) {
        case ALL_REDUCE: want = ranks_sum + (float) world * (i % 13); break;
        case BROADCAST: want = value(0, i); break;
        case ALL_GATHER: want = value((int) (i / b), i % b); break;
        case REDUCE_SCATTER: want = ranks_sum + (float) world * ((rank * b + i) % 13); break;
        case ALL_TO_ALL: want = value((int) (i / b) * world + rank, i % b); break;
        }
        wrong += c->recv[i] != want;
    }
    return wrong;
}

static double loop(const struct cell *c, int iters, int each) {
    double total = 0, t0;
    int i;
    if (each) {
        for (i = 0; i < iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            call(c);
            total += MPI_Wtime() - t0;
        }
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (i = 0; i < iters; i++) {
            call(c);
        }
        total = MPI_Wtime() - t0;
    }
    return total / iters;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double factor(int coll) {
    switch (coll) {
    case ALL_REDUCE: return 2.0 * (world - 1) / world;
    case BROADCAST: return 1.0;
    default: return (double) (world - 1) / world;
    }
}

int main(int argc, char **argv) {
    char sizes[1024] = "1M,16M,64M", colls[1024] = "all_reduce,all_gather,reduce_scatter,broadcast,all_to_all";
    const char *csv_path = NULL;
    int warmup = 5, iters = 20, repeats = 3, each = 0, opt;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    while ((opt = getopt(argc, argv, "s:l:W:n:r:ec:")) != -1) {
        switch (opt) {
        case 's': snprintf(sizes, sizeof sizes, "%s", optarg); break;
        case 'l': snprintf(colls, sizeof colls, "%s", optarg); break;
        case 'W': warmup = atoi(optarg); break;
        case 'n': iters = atoi(optarg); break;
        case 'r': repeats = atoi(optarg); break;
        case 'e': each = 1; break;
        case 'c': csv_path = optarg; break;
        default: die("usage: mpi_peer [-s SIZES] [-l COLLECTIVES] [-W WARMUP] [-n ITERS] [-r REPEATS] [-e] [-c CSV]");
        }
    }
    if (iters < 1 || repeats < 1 || warmup < 0) {
        die("-n and -r must be >= 1, -W >= 0");
    }
    FILE *csv = NULL;
    if (rank == 0 && csv_path) {
        csv = fopen(csv_path, "w");
        if (!csv) {
            die("cannot write the CSV file");
        }
        fprintf(csv, "system,world,collective,size_bytes,time_us,algbw_GBps,busbw_GBps,status,repeats,spread_pct,"
                     "method\n");
    }
    double *loops = malloc(repeats * sizeof(double));
    char *cs, *ss, *csave, *ssave;
    for (cs = strtok_r(colls, ",", &csave); cs; cs = strtok_r(NULL, ",", &csave)) {
        int coll = parse_coll(cs);
        if (coll < 0) {
            die("unknown collective (all_reduce, all_gather, reduce_scatter, broadcast, all_to_all)");
        }
        char size_list[1024];
        snprintf(size_list, sizeof size_list, "%s", sizes);
        for (ss = strtok_r(size_list, ",", &ssave); ss; ss = strtok_r(NULL, ",", &ssave)) {
            long size = parse_size(ss);
            if (size < 0) {
                die("bad size (e.g. 4096, 64K, 1M, 16MiB)");
            }
            struct cell c = {.coll = coll};
            long recv_n = setup(&c, size);
            if (c.block < 1 || c.block > 0x7fffffffL) {
                die("size too small for W (or too large for an int count)");
            }
            call(&c);
            long wrong = check(&c, recv_n) > 0, wrong_ranks = 0;
            MPI_Reduce(&wrong, &wrong_ranks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
            int i;
            for (i = 0; i < warmup; i++) {
                call(&c);
            }
            for (i = 0; i < repeats; i++) {
                double mine = loop(&c, iters, each), slowest = 0;
                MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
                loops[i] = slowest;
            }
            if (rank == 0) {
                qsort(loops, repeats, sizeof(double), by_value);
                double t = repeats % 2 ? loops[repeats / 2] : (loops[repeats / 2 - 1] + loops[repeats / 2]) / 2;
                double algbw = c.bytes / t / 1e9, busbw = algbw * factor(coll);
                double spread = (loops[repeats - 1] - loops[0]) / t * 100;
                char status[64] = "ok";
                if (wrong_ranks > 0) {
                    snprintf(status, sizeof status, "wrong (%ld ranks)", wrong_ranks);
                }
                printf("W=%d %-14s %12ld B %12.2f us  algbw %8.3f  busbw %8.3f GB/s  %s  spread %.1f%%\n", world, cs,
                       c.bytes, t * 1e6, algbw, busbw, status, spread);
                fflush(stdout);
                if (csv) {
                    fprintf(csv, "mpi,%d,%s,%ld,%.2f,%.4g,%.4g,%s,%d,%.1f,%s\n", world, cs, c.bytes, t * 1e6, algbw,
                            busbw, status, repeats, spread, each ? "each" : "loops");
                }
            }
            free(c.send);
            free(c.recv);
        }
    }
    if (csv) {
        fclose(csv);
    }
    free(loops);
    MPI_Finalize();
    return 0;
}

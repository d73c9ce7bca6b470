/*
 * The machine's own reproducibility, measured with cctk's shared-memory algorithms in C: a native peer for
 * repro.sh that moves the same bytes the same way as cctk's shm backend (src/main/java/cctk/comm/shm: MovingOps,
 * ReducingOps, Kernels), with nothing of cctk's runtime (no JVM, JIT, collector, store or harness votes). Where its
 * figures swing between back-to-back runs as much as cctk's, the swing is the machine's, not cctk's code.
 *
 * W processes (fork) share one anonymous MAP_SHARED region (shmem pages, as cctk's /dev/shm segments are): per rank
 * a send and a receive buffer of the largest size, first touched by their owner, and a padded epoch counter. A
 * collective is a few handoffs on those counters (arrive: bump my epoch; await: wait for a peer's), as in cctk:
 *   all_reduce     up to 32 KiB every rank reduces the whole vector from every send buffer; above, rank r reduces
 *                  block r into its receive buffer (32 KiB chunks), then copies every other block from the receive
 *                  buffer of the rank that reduced it (three handoffs);
 *   reduce_scatter rank r reduces block r of every send buffer into its output;
 *   all_gather     every rank copies every rank's send buffer into its receive buffer, its own first, then the next
 *                  rank up;
 *   broadcast      the root copies its send buffer into its receive buffer, every other rank copies the root's send
 *                  buffer (out of place, as repro.sh runs cctk);
 *   alltoall       every rank copies block r of every send buffer into block p of its receive buffer.
 * Waiting as cctk's Waiter does: spin up to 2 ms (none when ranks outnumber cores), then sched_yield (32 times, 8
 * when ranks share cores), then nanosleep from 1 us doubling to 256 us.
 *
 * Per collective and size: one call checked on every rank against known values, WARMUP untimed calls, then REPEATS
 * timed loops of ITERS calls back to back after a barrier; a loop's time is the slowest rank's mean per call, the row
 * the median loop with the loops' spread: the treatment mpi_peer.c gives MPI, and cctk's with 3 repeats. Sizes,
 * busbw and the CSV as mpi_peer.c (nccl-tests' definitions; system "zc"), so repro.py reads it the same way.
 *
 * build: cc -O3 -march=native -o zc_peer bench/zc_peer.c
 * usage: zc_peer -w W [-s 1M,16M,64M] [-l all_reduce,all_gather,reduce_scatter,broadcast,alltoall] [-W 5] [-n 20]
 *                [-r 3] [-c FILE.csv]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum coll { ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, BROADCAST, ALL_TO_ALL };
static const char *NAMES[] = {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall"};

#define MAX_W 16
#define DIRECT_MAX (32 << 10)
#define CHUNK (32 << 10)
#define SPIN_NS 2000000L

struct slot {
    _Atomic long epoch;
    double mean; /* this rank's mean per call of the last loop */
    long wrong;
    char pad[128 - 2 * sizeof(long) - sizeof(double)];
};

static int me, world, shares;
static long cap; /* bytes of each buffer */
static struct slot *slots;
static char *region;
static long arrived;

static float *send_of(int r) { return (float *) (region + (long) r * 2 * cap); }
static float *recv_of(int r) { return (float *) (region + (long) r * 2 * cap + cap); }

static long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static long arrive(void) {
    arrived++;
    atomic_store_explicit(&slots[me].epoch, arrived, memory_order_release);
    return arrived;
}

static void await_rank(int p, long target) {
    if (atomic_load_explicit(&slots[p].epoch, memory_order_acquire) >= target) {
        return;
    }
    long start = now_ns(), park = 1000;
    int yields = 0, max_yields = shares ? 8 : 32, spin = !shares;
    while (atomic_load_explicit(&slots[p].epoch, memory_order_acquire) < target) {
        if (spin) {
            __builtin_ia32_pause();
            spin = now_ns() - start < SPIN_NS;
        } else if (yields < max_yields) {
            sched_yield();
            yields++;
        } else {
            struct timespec ts = {0, park};
            nanosleep(&ts, NULL);
            park = park < 256000 ? park * 2 : 256000;
        }
    }
}

static void await_all(long target) {
    for (int p = 0; p < world; p++) {
        if (p != me) {
            await_rank(p, target);
        }
    }
}

static void barrier(void) { await_all(arrive()); }

/* out[0, n) = sum over the ranks, from rank `first` on, of in_p[at, at + n), in 32 KiB chunks as Kernels.reduceChain */
static void reduce_chain(float *out, long at, long n, int first) {
    const long chunk = CHUNK / 4;
    for (long c = 0; c < n; c += chunk) {
        long m = n - c < chunk ? n - c : chunk;
        const float *a = send_of(first) + at + c, *b = send_of((first + 1) % world) + at + c;
        float *o = out + c;
        for (long i = 0; i < m; i++) {
            o[i] = a[i] + b[i];
        }
        for (int k = 2; k < world; k++) {
            const float *x = send_of((first + k) % world) + at + c;
            for (long i = 0; i < m; i++) {
                o[i] += x[i];
            }
        }
    }
}

static long bstart(long count, int b) { return b * (count / world) + (b < count % world ? b : count % world); }
static long blen(long count, int b) { return count / world + (b < count % world ? 1 : 0); }

/* one call; n: elements of the size (per rank for all_reduce and broadcast, else the whole), block = n / world */
static void call(int coll, long n) {
    long block = n / world, a1, a2, a3;
    float *s = send_of(me), *r = recv_of(me);
    switch (coll) {
    case ALL_REDUCE:
        a1 = arrive();
        await_all(a1);
        if (n * 4 <= DIRECT_MAX || n < world) {
            reduce_chain(r, 0, n, 0);
            await_all(arrive());
            return;
        }
        reduce_chain(r + bstart(n, me), bstart(n, me), blen(n, me), me);
        a2 = arrive();
        for (int k = 1; k < world; k++) {
            int p = (me + k) % world;
            await_rank(p, a2);
            memcpy(r + bstart(n, p), recv_of(p) + bstart(n, p), blen(n, p) * 4);
        }
        a3 = arrive();
        await_all(a3);
        return;
    case REDUCE_SCATTER:
        a1 = arrive();
        await_all(a1);
        reduce_chain(r, (long) me * block, block, me);
        await_all(arrive());
        return;
    case ALL_GATHER:
        a1 = arrive();
        memcpy(r + (long) me * block, s, block * 4);
        for (int k = 1; k < world; k++) {
            int p = (me + k) % world;
            await_rank(p, a1);
            memcpy(r + (long) p * block, send_of(p), block * 4);
        }
        await_all(arrive());
        return;
    case BROADCAST:
        a1 = arrive();
        if (me == 0) {
            memcpy(r, s, n * 4);
            await_all(arrive());
        } else {
            await_rank(0, a1);
            memcpy(r, send_of(0), n * 4);
            arrive();
        }
        return;
    case ALL_TO_ALL:
        a1 = arrive();
        memcpy(r + (long) me * block, s + (long) me * block, block * 4);
        for (int k = 1; k < world; k++) {
            int p = (me + k) % world;
            await_rank(p, a1);
            memcpy(r + (long) p * block, send_of(p) + (long) me * block, block * 4);
        }
        await_all(arrive());
        return;
    }
}

static float value(int r, long i) { return (float) (r + 1 + i % 13); }

/* fills this rank's send buffer for a cell, poisons its output; returns the output's elements */
static long setup(int coll, long n) {
    long block = n / world, send_n = 0, recv_n = 0;
    float *s = send_of(me), *r = recv_of(me);
    switch (coll) {
    case ALL_REDUCE: send_n = recv_n = n; break;
    case BROADCAST: send_n = recv_n = n; break;
    case ALL_GATHER: send_n = block; recv_n = block * world; break;
    case REDUCE_SCATTER: send_n = block * world; recv_n = block; break;
    case ALL_TO_ALL: send_n = recv_n = block * world; break;
    }
    for (long i = 0; i < send_n; i++) {
        s[i] = coll == ALL_TO_ALL ? value(me * world + (int) (i / block), i % block) : value(me, i);
    }
    for (long i = 0; i < recv_n; i++) {
        r[i] = -1.0f;
    }
    return recv_n;
}

static long check(int coll, long n, long recv_n) {
    long block = n / world, wrong = 0;
    float sum = (float) world * (world + 1) / 2, want = 0;
    const float *r = recv_of(me);
    for (long i = 0; i < recv_n; i++) {
        switch (coll) {
        case ALL_REDUCE: want = sum + (float) world * (i % 13); break;
        case BROADCAST: want = value(0, i); break;
        case ALL_GATHER: want = value((int) (i / block), i % block); break;
        case REDUCE_SCATTER: want = sum + (float) world * ((me * block + i) % 13); break;
        case ALL_TO_ALL: want = value((int) (i / block) * world + me, i % block); break;
        }
        wrong += r[i] != want;
    }
    return wrong;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double factor(int coll) {
    return coll == ALL_REDUCE ? 2.0 * (world - 1) / world : coll == BROADCAST ? 1.0 : (double) (world - 1) / world;
}

static long parse_size(const char *s) {
    char *end;
    long n = strtol(s, &end, 10);
    if (*end == 'K') n <<= 10, end++;
    else if (*end == 'M') n <<= 20, end++;
    else if (*end == 'G') n <<= 30, end++;
    if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0) end += strlen(end);
    return end == s || *end || n <= 0 ? -1 : n;
}

static int parse_coll(const char *s) {
    for (int c = 0; c < 5; c++) {
        if (strcmp(s, NAMES[c]) == 0) return c;
    }
    return strcmp(s, "all_to_all") == 0 ? ALL_TO_ALL : -1;
}

int main(int argc, char **argv) {
    char sizes[1024] = "1M,16M,64M", colls[1024] = "all_reduce,all_gather,reduce_scatter,broadcast,alltoall";
    const char *csv = NULL;
    int warmup = 5, iters = 20, repeats = 3, opt, nsizes = 0, ncolls = 0, cl[8];
    long sz[32];
    while ((opt = getopt(argc, argv, "w:s:l:W:n:r:c:")) != -1) {
        switch (opt) {
        case 'w': world = atoi(optarg); break;
        case 's': snprintf(sizes, sizeof sizes, "%s", optarg); break;
        case 'l': snprintf(colls, sizeof colls, "%s", optarg); break;
        case 'W': warmup = atoi(optarg); break;
        case 'n': iters = atoi(optarg); break;
        case 'r': repeats = atoi(optarg); break;
        case 'c': csv = optarg; break;
        default: fprintf(stderr, "usage: zc_peer -w W [-s SIZES] [-l COLLS] [-W N] [-n N] [-r N] [-c CSV]\n"); return 2;
        }
    }
    if (world < 2 || world > MAX_W || iters < 1 || repeats < 1 || repeats > 64 || warmup < 0) {
        fprintf(stderr, "zc_peer: -w must be 2..%d, -n and -r at least 1 (-r at most 64)\n", MAX_W);
        return 2;
    }
    for (char *t = strtok(sizes, ","); t && nsizes < 32; t = strtok(NULL, ",")) {
        if ((sz[nsizes++] = parse_size(t)) < 0) { fprintf(stderr, "zc_peer: bad size %s\n", t); return 2; }
        cap = sz[nsizes - 1] > cap ? sz[nsizes - 1] : cap;
    }
    for (char *t = strtok(colls, ","); t && ncolls < 8; t = strtok(NULL, ",")) {
        if ((cl[ncolls++] = parse_coll(t)) < 0) { fprintf(stderr, "zc_peer: bad collective %s\n", t); return 2; }
    }
    cap = (cap + 4095) & ~4095L;
    shares = world > sysconf(_SC_NPROCESSORS_ONLN);
    long ctl = ((long) MAX_W * sizeof(struct slot) + 4095) & ~4095L;
    char *base = mmap(NULL, ctl + (long) world * 2 * cap, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) { perror("zc_peer: mmap"); return 1; }
    slots = (struct slot *) base;
    region = base + ctl;
    FILE *out = NULL;
    if (csv && !(out = fopen(csv, "w"))) { perror(csv); return 1; }
    pid_t kids[MAX_W];
    for (me = 1; me < world; me++) {
        if ((kids[me] = fork()) == 0) break;
    }
    if (me == world) me = 0;
    /* first touch by the owner, as a rank of cctk fills its own segments */
    memset(send_of(me), 0, cap);
    memset(recv_of(me), 0, cap);
    barrier();
    if (me == 0 && out) {
        fprintf(out, "system,world,collective,size_bytes,time_us,algbw_GBps,busbw_GBps,status,repeats,spread_pct,method\n");
    }
    for (int ci = 0; ci < ncolls; ci++) {
        for (int si = 0; si < nsizes; si++) {
            int c = cl[ci];
            long n = sz[si] / 4, cut = c != ALL_REDUCE && c != BROADCAST;
            if (cut) n = n / world * world;
            long recv_n = setup(c, n);
            barrier();
            call(c, n);
            slots[me].wrong = check(c, n, recv_n);
            for (int i = 0; i < warmup; i++) call(c, n);
            double loops[64];
            for (int k = 0; k < repeats; k++) {
                barrier();
                long t0 = now_ns();
                for (int i = 0; i < iters; i++) call(c, n);
                slots[me].mean = (now_ns() - t0) / 1e3 / iters;
                barrier();
                double worst = 0;
                for (int p = 0; p < world; p++) worst = slots[p].mean > worst ? slots[p].mean : worst;
                loops[k] = worst;
                barrier(); /* nobody overwrites its mean before every rank has read it */
            }
            if (me == 0) {
                long wrong = 0;
                for (int p = 0; p < world; p++) wrong += slots[p].wrong > 0;
                double sorted[64];
                memcpy(sorted, loops, sizeof(double) * repeats);
                qsort(sorted, repeats, sizeof(double), by_value);
                double t = sorted[repeats / 2], bytes = n * 4.0, alg = bytes / t / 1e3;
                char status[32];
                snprintf(status, sizeof status, wrong ? "wrong (%ld ranks)" : "ok", wrong);
                printf("%-14s %10.0f B %10.1f us  busbw %7.3f GB/s  %s\n", NAMES[c], bytes, t, alg * factor(c), status);
                if (out) {
                    fprintf(out, "zc,%d,%s,%.0f,%.2f,%.4g,%.4g,%s,%d,%.1f,loops\n", world, NAMES[c], bytes, t, alg,
                            alg * factor(c), status, repeats, (sorted[repeats - 1] - sorted[0]) / t * 100);
                }
            }
            barrier();
        }
    }
    if (me != 0) return 0;
    if (out) fclose(out);
    int rc = 0, st;
    for (int p = 1; p < world; p++) {
        if (waitpid(kids[p], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) rc = 1;
    }
    return rc;
}

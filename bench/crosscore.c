/*
 * How fast this machine moves freshly written memory from one core to another, now: two threads take turns, each
 * reading the buffer the other has just written and writing its own (1 MiB each, float adds), and the median time of
 * a round trip (two such passes) is printed in microseconds. No cctk code runs: it is a probe of the machine, run
 * beside cctk and the peers in bench/repro.sh and bench/compare-reruns.sh, so a run whose cells that move data
 * between the ranks' cores (an all-reduce at 1-4 MiB at W = 2) read slow can be told apart from a machine whose
 * cores were, for that while, slow to share memory. On this project's 2-vCPU VM the figure is bimodal and changes
 * while nothing runs: 57-131 us in some periods, 460-570 us in others.
 *
 * build: cc -O3 -o crosscore bench/crosscore.c -lpthread
 * usage: crosscore [SECONDS [MIB]]   (default 0.5 s, 1 MiB); prints one integer, the median round trip in us
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static float *buffers[2];
static size_t floats;
static _Atomic long turn;
static _Atomic int stop;
static double *trips;
static size_t ntrips;
static size_t maxtrips;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *player(void *arg) {
    const long me = (long) arg;
    double last = now();
    for (long k = me; ; k += 2) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != k) {
            if (atomic_load_explicit(&stop, memory_order_relaxed)) {
                return NULL;
            }
        }
        float *mine = buffers[me];
        const float *theirs = buffers[1 - me];
        for (size_t i = 0; i < floats; i++) {
            mine[i] = theirs[i] + 1.0f;
        }
        if (me == 0) {
            const double t = now();
            if (k > 0 && ntrips < maxtrips) {
                trips[ntrips++] = (t - last) * 1e6;
            }
            last = t;
        }
        atomic_store_explicit(&turn, k + 1, memory_order_release);
    }
}

static int ascending(const void *a, const void *b) {
    const double x = *(const double *) a;
    const double y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    const double seconds = argc > 1 ? atof(argv[1]) : 0.5;
    const double mib = argc > 2 ? atof(argv[2]) : 1.0;
    if (seconds <= 0 || mib <= 0) {
        fprintf(stderr, "usage: crosscore [SECONDS [MIB]]\n");
        return 2;
    }
    floats = (size_t) (mib * (1 << 20) / sizeof(float));
    maxtrips = 1 << 20;
    trips = malloc(maxtrips * sizeof(double));
    for (int b = 0; b < 2; b++) {
        buffers[b] = aligned_alloc(4096, (floats * sizeof(float) + 4095) / 4096 * 4096);
        if (buffers[b] == NULL || trips == NULL) {
            fprintf(stderr, "crosscore: out of memory\n");
            return 1;
        }
        for (size_t i = 0; i < floats; i++) {
            buffers[b][i] = (float) i;
        }
    }
    pthread_t threads[2];
    for (long t = 0; t < 2; t++) {
        pthread_create(&threads[t], NULL, player, (void *) t);
    }
    const struct timespec wait = {(time_t) seconds, (long) ((seconds - (time_t) seconds) * 1e9)};
    nanosleep(&wait, NULL);
    atomic_store(&stop, 1);
    for (int t = 0; t < 2; t++) {
        pthread_join(threads[t], NULL);
    }
    if (ntrips == 0) {
        fprintf(stderr, "crosscore: no round trip finished in %.2f s\n", seconds);
        return 1;
    }
    qsort(trips, ntrips, sizeof(double), ascending);
    printf("%.0f\n", trips[ntrips / 2]);
    return 0;
}

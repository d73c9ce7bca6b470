/*
 * What this machine charges for memory touched for the first time: maps 16 MiB of anonymous memory, writes one byte
 * of every 4 KiB page, unmaps it, 8 times, and prints the median cost per 4 KiB page in microseconds, first with
 * ordinary pages, then with the mapping marked MADV_HUGEPAGE (transparent huge pages, where the kernel allows them;
 * glibc's glibc.malloc.hugetlb=1 marks its own mappings so). No cctk code runs: it is a probe of the machine, printed
 * in the header of bench/gloo-module.sh, because c10d's Gloo takes a fresh temporary of the whole gathered size on
 * many all_gather calls, and on a machine whose page faults are slow that temporary, not the transfer, sets the time
 * of the call. A bare-metal Linux fault costs well under 1 us a page; this project's 2-vCPU VM charged 11-15 us.
 *
 * build: cc -O2 -o pagefault bench/pagefault.c
 * usage: pagefault   prints "4k US huge US": microseconds per 4 KiB page, ordinary pages and huge pages
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define BYTES (16u << 20)
#define PAGE 4096u
#define TRIES 8

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    const double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* the median cost of a first touch per 4 KiB page over TRIES fresh mappings, in us; -1 where mmap fails */
static double touch(int huge) {
    double us[TRIES];
    for (int i = 0; i < TRIES; i++) {
        const double t0 = now();
        volatile char *p = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            return -1;
        }
        if (huge) {
            madvise((void *) p, BYTES, MADV_HUGEPAGE);
        }
        for (size_t at = 0; at < BYTES; at += PAGE) {
            p[at] = 1;
        }
        us[i] = (now() - t0) * 1e6 / (BYTES / PAGE);
        munmap((void *) p, BYTES);
    }
    qsort(us, TRIES, sizeof us[0], cmp);
    return (us[TRIES / 2 - 1] + us[TRIES / 2]) / 2;
}

int main(void) {
    const double small = touch(0), huge = touch(1);
    if (small < 0 || huge < 0) {
        perror("mmap");
        return 1;
    }
    printf("4k %.2f huge %.2f\n", small, huge);
    return 0;
}

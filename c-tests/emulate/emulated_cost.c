/*
 * emulated_cost.c: the cost figures of scripts/emulate.sh. `emulated_cost N` runs a
 * compiled loop of N steps over a 32 KiB array (one load and one store a step) and prints
 * its seconds; under the plugin it also times 10,000 requests and reads (`read` printed as
 * nanoseconds per pair of reads, what a measurement takes). Output: "SECONDS READ_NS SUM".
 */
#include "emulated_guest.h"

#include <time.h>

/* Seconds of CLOCK_MONOTONIC. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Nanoseconds per pair of reads of this thread's counts (0 without the plugin). */
static double read_pair_ns(void)
{
    picollo_emulated_counts r;
    double t0 = now();
    for (int i = 0; i < 10000; i++) {
        syscall(PICOLLO_EMULATED_SYSCALL, guest_pipe[1]);
        if (read(guest_pipe[0], &r, sizeof r) != (ssize_t)sizeof r) {
            return 0;
        }
    }
    return (now() - t0) / 10000 * 1e9 * 2;
}

int main(int argc, char **argv)
{
    static unsigned long a[4096];
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000000, sum = 0;
    guest_open();
    double t0 = now();
    for (unsigned long i = 0; i < n; i++) {
        a[i & 4095] += i; /* one load, one store */
    }
    double seconds = now() - t0;
    for (int i = 0; i < 4096; i++) {
        sum += a[i];
    }
    printf("%.6f %.1f %lu\n", seconds, read_pair_ns(), sum & 1);
    return 0;
}

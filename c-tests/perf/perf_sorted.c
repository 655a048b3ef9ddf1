/* Sorted vs unsorted in C: a branchy loop over 1,000,000 random bytes, measured before and
 * after sorting them, as diff tables of cycles and branch misses. Without a hardware PMU
 * it says why and shows Software:TaskClock instead.
 *
 * Usage: perf_sorted [iterations]   (default 100) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

enum { N = 1000000 };

/* xorshift64*: enough randomness for branch prediction to fail half the time. */
static void random_bytes(unsigned char *out, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        out[i] = (unsigned char)((seed * 0x2545f4914f6cdd1dull) >> 56);
    }
}

/* The branch: taken for half of the random bytes, unpredictable until they are sorted.
 * The volatile store in one arm keeps the compiler from turning it into a select. */
static volatile double sink;
static double branchy(const unsigned char *v, size_t n, double acc)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i] >= 128) {
            acc += 100.0;
        } else {
            sink = acc;
            acc = sink * 0.9999;
        }
    }
    return acc;
}

static int by_value(const void *a, const void *b)
{
    return (int)*(const unsigned char *)a - (int)*(const unsigned char *)b;
}

int main(int argc, char **argv)
{
    int iterations = argc > 1 ? atoi(argv[1]) : 100;
    if (iterations < 1)
        iterations = 1;
    print_discovery();

    struct picollo_perf_config cfg = picollo_perf_config_default();
    struct picollo_perf_session *s = NULL;
    TRY(picollo_perf_session_new(&cfg, &s));
    TRY(picollo_perf_session_add_hardware(s, PICOLLO_PERF_HARDWARE_EVENT_CPU_CYCLES));
    TRY(picollo_perf_session_add_hardware(s, PICOLLO_PERF_HARDWARE_EVENT_BRANCH_MISSES));
    picollo_status st = picollo_perf_session_open(s);
    if (st == PICOLLO_STATUS_UNSUPPORTED || st == PICOLLO_STATUS_PERMISSION_DENIED) {
        printf("Hardware counters unavailable: %s\n", picollo_last_error_message());
        printf("Showing Software:TaskClock (nanoseconds on CPU) instead.\n\n");
        picollo_perf_session_free(s);
        TRY(picollo_perf_session_new(&cfg, &s));
        TRY(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK));
        TRY(picollo_perf_session_open(s));
    } else {
        TRY(st);
    }

    unsigned char *values = malloc(N);
    if (!values)
        return 1;
    random_bytes(values, N, 0x9e3779b97f4a7c15ull);
    size_t n = 0;
    TRY(picollo_perf_session_counter_count(s, &n));
    struct picollo_summary unsorted[8];
    double acc = 0;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < iterations; i++) {
            TRY(picollo_perf_session_read(s, 1, NULL));
            acc = branchy(values, N, acc);
            TRY(picollo_perf_session_read(s, 1, NULL));
            TRY(picollo_perf_session_record(s));
        }
        if (round == 0) {
            for (size_t k = 0; k < n && k < 8; k++) {
                struct picollo_histogram *h = NULL;
                TRY(picollo_perf_session_counter_histogram(s, k, &h));
                TRY(picollo_histogram_summary(h, &unsorted[k]));
            }
            TRY(picollo_perf_session_reset(s));
            qsort(values, N, 1, by_value);
            acc = 0;
        }
    }

    for (size_t k = 0; k < n && k < 8; k++) {
        char name[64];
        struct picollo_histogram *h = NULL;
        struct picollo_summary sorted;
        TRY(picollo_perf_session_counter_name(s, k, name, sizeof name, NULL));
        TRY(picollo_perf_session_counter_histogram(s, k, &h));
        TRY(picollo_histogram_summary(h, &sorted));
        size_t needed = 0;
        (void)picollo_summary_diff(&unsorted[k], &sorted, name, "Unsorted", "Sorted", NULL, 0,
                                   &needed);
        char *text = malloc(needed + 1);
        if (!text)
            return 1;
        TRY(picollo_summary_diff(&unsorted[k], &sorted, name, "Unsorted", "Sorted", text,
                                 needed + 1, NULL));
        printf("%s\n", text);
        free(text);
    }
    printf("(checksum %.1f)\n", acc);
    free(values);
    picollo_perf_session_free(s);
    return 0;
}

/*
 * monitoring.c: live monitoring from C, like core/examples/monitoring.rs. Writer threads
 * record into one thread-local histogram while the main thread, every second, refreshes a
 * snapshot with deltas (no allocation in the library) and prints the one-line summary of
 * the last second. The data drift with time, so the percentiles climb and, after a while,
 * values overflow the range. At the end the aggregate table of the whole run.
 *
 *   monitoring [seconds]   (default 3)
 *
 * Exits non-zero if a call fails or if the seconds' totals do not add up to the aggregate.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "picollo.h"

#define WRITERS 2

typedef struct writer {
    picollo_histogram *h;
    uint64_t seed;
    const int *stop;
    struct timespec start;
} writer;

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) * 1e-9;
}

/* xorshift64: each writer its own stream. */
static double unit(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0; /* 2^53 */
}

static void *write_values(void *arg)
{
    writer *w = (writer *)arg;
    uint64_t s = w->seed;
    unsigned long n = 0;
    double drift = 0;
    while (!__atomic_load_n(w->stop, __ATOMIC_RELAXED)) {
        /* A noisy value around 20,000 plus a tail that grows with time (the clock is read
         * every 1,024 records: it costs more than a record). */
        if ((n++ & 1023) == 0) {
            drift = (double)(((uint64_t)(seconds_since(&w->start) * 4000.0)) & 16383);
        }
        picollo_histogram_record(w->h, (uint64_t)(20000.0 + (0.5 - unit(&s)) * 1000.0 +
                                                  unit(&s) * unit(&s) * drift));
    }
    return NULL;
}

static int ok(picollo_status st, const char *what)
{
    if (st != PICOLLO_STATUS_OK) {
        fprintf(stderr, "monitoring: %s failed: %s (%s)\n", what, picollo_status_str(st),
                picollo_last_error_message());
        return 0;
    }
    return 1;
}

/* "HH:MM:SS.mmm" (UTC). */
static void clock_text(char *buf, size_t len)
{
    struct timespec ts;
    long ms;
    clock_gettime(CLOCK_REALTIME, &ts);
    ms = (long)(ts.tv_sec % 86400) * 1000 + ts.tv_nsec / 1000000;
    snprintf(buf, len, "%02ld:%02ld:%02ld.%03ld", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60,
             ms % 1000);
}

int main(int argc, char **argv)
{
    int seconds = argc > 1 ? atoi(argv[1]) : 3;
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *h = NULL;
    picollo_snapshot *snap = NULL;
    picollo_summary s;
    writer w[WRITERS];
    pthread_t t[WRITERS];
    int stop = 0, started = 0, good = 1, i;
    uint64_t seen = 0;
    char line[1024], table[4096], now[32];
    picollo_histogram_info info;

    if (seconds < 1) {
        seconds = 3;
    }
    c.relative_error = 0.01;
    c.min_trackable = 10000;
    c.max_trackable = 30000;
    c.mode = PICOLLO_MODE_THREAD_LOCAL;
    if (!ok(picollo_histogram_new(&c, &h), "picollo_histogram_new") ||
        !ok(picollo_snapshot_new(h, &snap), "picollo_snapshot_new")) {
        return 1;
    }
    for (i = 0; i < WRITERS; i++) {
        w[i].h = h;
        w[i].seed = 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1);
        w[i].stop = &stop;
        clock_gettime(CLOCK_MONOTONIC, &w[i].start);
        if (pthread_create(&t[i], NULL, write_values, &w[i]) != 0) {
            fprintf(stderr, "monitoring: pthread_create failed\n");
            good = 0;
            break;
        }
        started++;
    }
    for (i = 0; good && i < seconds; i++) {
        struct timespec second = {1, 0};
        nanosleep(&second, NULL);
        /* What was recorded since the previous update, copied consistently. */
        good = ok(picollo_snapshot_update(snap, h, 1), "picollo_snapshot_update") &&
               ok(picollo_snapshot_summary(snap, &s), "picollo_snapshot_summary") &&
               ok(picollo_summary_line(&s, "monitoring", line, sizeof line, NULL),
                  "picollo_summary_line");
        if (good) {
            clock_text(now, sizeof now);
            printf("%s | %s\n", now, line);
            fflush(stdout);
            seen += s.total + s.underflow + s.overflow;
        }
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    for (i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
    }
    /* The writers are gone: the seconds plus a last delta account for every record. */
    if (good && ok(picollo_snapshot_update(snap, h, 1), "picollo_snapshot_update") &&
        ok(picollo_snapshot_summary(snap, &s), "picollo_snapshot_summary") &&
        ok(picollo_histogram_get_info(h, &info), "picollo_histogram_get_info")) {
        seen += s.total + s.underflow + s.overflow;
        if (seen != info.total + info.underflow + info.overflow) {
            fprintf(stderr, "monitoring: the deltas add up to %llu, the histogram holds %llu\n",
                    (unsigned long long)seen,
                    (unsigned long long)(info.total + info.underflow + info.overflow));
            good = 0;
        }
    } else {
        good = 0;
    }
    if (good && ok(picollo_histogram_table(h, "Aggregate", table, sizeof table, NULL),
                   "picollo_histogram_table")) {
        printf("%s\n", table);
    } else {
        good = 0;
    }
    picollo_snapshot_free(snap);
    picollo_histogram_free(h);
    return good ? 0 : 1;
}

/*
 * test_threads_reset.c: readers, snapshots and resets while writers record.
 *
 * The invariants (picollo_histogram's header docs):
 * - every query answers from one consistent copy: a summary's last percentile holds its
 *   total, a batch of percentiles is ordered and agrees with its own total;
 * - totals never exceed what was recorded: a writer publishes "started" before each record
 *   and a reader fences between its query and its read of "started";
 * - snapshots with deltas count each record at most once: their sum never exceeds what was
 *   recorded and, without resets, ends equal to it;
 * - after a reset a bucket holds at most what was recorded into it since the reset began:
 *   the main thread reads "finished" per value, resets, queries, then reads "started", and
 *   checks count ≤ started − finished for every bucket.
 * The approximate mode takes part while every bucket stays below 2^T (exact counting: T = 13
 * for the readers, T = 20 for the resets); above it a racing record could land a step of
 * 2^k just after a reset, which is the mode's documented approximation, not a violation. The single-writer mode has one writer and
 * readers, no reset from another thread (which the docs allow to leave "old + 1").
 */
#define _POSIX_C_SOURCE 200809L

#include "test_threads.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The values of the reset test, one per bucket (relative error 1 %, range 10..10^6). */
#define VALUES 8
static const uint64_t reset_values[VALUES] = {20, 300, 1000, 5000, 20000, 90000, 400000, 900000};

typedef struct shared {
    picollo_histogram *h;
    /* Per writer, per value slot: counts whose record has begun / has returned. */
    uint64_t started[WRITERS][VALUES];
    uint64_t finished[WRITERS][VALUES];
    int done;         /* set once every writer is finished */
    int writers_done; /* writers that returned */
    /* Iterations of the query reader, the delta reader and the resetting main thread:
     * writers keep going (up to their cap) until each has made `want` of them, so reads
     * and resets really overlap the writes, however the threads get scheduled. */
    unsigned long progress[3];
    unsigned long want;
} shared;

static int others_behind(shared *s)
{
    int k;
    for (k = 0; k < 3; k++) {
        if (ALOAD(&s->progress[k]) < s->want) {
            return 1;
        }
    }
    return 0;
}

static uint64_t sum_started(const shared *s)
{
    uint64_t sum = 0;
    int w, k;
    for (w = 0; w < WRITERS; w++) {
        for (k = 0; k < VALUES; k++) {
            sum += ALOAD(&s->started[w][k]);
        }
    }
    return sum;
}

/* What a reader thread reports. */
typedef struct reader {
    shared *s;
    unsigned long iterations, violations;
    uint64_t delta_sum; /* the delta reader: the sum of its deltas, final update included */
    char first[256];    /* the first violation */
} reader;

#define VIOLATION(r, ...)                                                  \
    do {                                                                   \
        if ((r)->violations++ == 0) {                                      \
            snprintf((r)->first, sizeof (r)->first, __VA_ARGS__);         \
        }                                                                  \
    } while (0)

/* Summaries, percentile batches and one-call bucket batches, each checked against itself
 * and against what was started. */
static void *query_reader(void *arg)
{
    reader *r = (reader *)arg;
    const double ranks[5] = {0.0, 50.0, 90.0, 99.0, 100.0};
    picollo_histogram_info info = info_of(r->s->h);
    size_t cap = (size_t)info.storage_len;
    picollo_bucket *buckets = (picollo_bucket *)malloc(cap * sizeof *buckets);
    if (buckets == NULL) {
        VIOLATION(r, "out of memory");
        return NULL;
    }
    do {
        picollo_summary sum;
        picollo_percentile p[5];
        memset(&sum, 0, sizeof sum);
        picollo_status pst, bst;
        size_t cursor = 0, written = 0, k;
        uint64_t bucket_total = 0, started;
        int i;

        if (picollo_histogram_summary(r->s->h, &sum) != PICOLLO_STATUS_OK) {
            VIOLATION(r, "summary failed: %s", picollo_last_error_message());
        }
        pst = picollo_histogram_percentiles(r->s->h, ranks, 5, p);
        if (pst != PICOLLO_STATUS_OK && pst != PICOLLO_STATUS_EMPTY) {
            VIOLATION(r, "percentiles failed: %s", picollo_last_error_message());
        }
        bst = picollo_histogram_next_buckets(r->s->h, &cursor, buckets, cap, &written);
        if (bst == PICOLLO_STATUS_OK) {
            for (k = 0; k < written; k++) {
                bucket_total += buckets[k].count;
            }
        } else if (bst != PICOLLO_STATUS_OUT_OF_RANGE) {
            VIOLATION(r, "next_buckets failed: %s", picollo_last_error_message());
        }
        FENCE();
        started = sum_started(r->s);

        if (sum.total + sum.underflow + sum.overflow > started) {
            VIOLATION(r, "summary counts %llu+%llu+%llu, only %llu started",
                      (unsigned long long)sum.total, (unsigned long long)sum.underflow,
                      (unsigned long long)sum.overflow, (unsigned long long)started);
        }
        if (sum.total > 0 && sum.percentiles[PICOLLO_SUMMARY_PERCENTILES - 1].cumulative_count !=
                                 sum.total) {
            VIOLATION(r, "summary P100 cumulative %llu, total %llu",
                      (unsigned long long)sum.percentiles[PICOLLO_SUMMARY_PERCENTILES - 1]
                          .cumulative_count,
                      (unsigned long long)sum.total);
        }
        for (i = 1; sum.total > 0 && i < PICOLLO_SUMMARY_PERCENTILES; i++) {
            if (sum.percentiles[i].cumulative_count < sum.percentiles[i - 1].cumulative_count ||
                sum.percentiles[i].value < sum.percentiles[i - 1].value) {
                VIOLATION(r, "summary percentile %d goes backwards", i);
            }
        }
        if (bucket_total > started) {
            VIOLATION(r, "a bucket batch holds %llu, only %llu started",
                      (unsigned long long)bucket_total, (unsigned long long)started);
        }
        if (pst == PICOLLO_STATUS_OK) {
            /* P100's rank count is the batch's own total. */
            for (i = 0; i < 5; i++) {
                if (p[i].cumulative_count < p[i].rank_count ||
                    p[i].cumulative_count > p[4].rank_count ||
                    (i > 0 && p[i].cumulative_count < p[i - 1].cumulative_count)) {
                    VIOLATION(r, "percentile batch disagrees with itself at rank %g", ranks[i]);
                }
            }
            if (p[4].rank_count > started) {
                VIOLATION(r, "percentile total %llu, only %llu started",
                          (unsigned long long)p[4].rank_count, (unsigned long long)started);
            }
        }
        r->iterations++;
        AADD(&r->s->progress[0], 1);
        pause_briefly();
    } while (!ALOAD(&r->s->done));
    free(buckets);
    return NULL;
}

/* A snapshot refreshed with deltas: the sum of the deltas never exceeds what was started. */
static void *delta_reader(void *arg)
{
    reader *r = (reader *)arg;
    picollo_snapshot *snap = NULL;
    picollo_summary sum;
    int last = 0;
    if (picollo_snapshot_new(r->s->h, &snap) != PICOLLO_STATUS_OK) {
        VIOLATION(r, "snapshot_new failed: %s", picollo_last_error_message());
        return NULL;
    }
    if (picollo_snapshot_summary(snap, &sum) == PICOLLO_STATUS_OK) {
        r->delta_sum = sum.total + sum.underflow + sum.overflow;
    }
    while (!last) {
        uint64_t started;
        last = ALOAD(&r->s->done);
        FENCE(); /* after `done`: the final update sees every record */
        if (picollo_snapshot_update(snap, r->s->h, 1) != PICOLLO_STATUS_OK ||
            picollo_snapshot_summary(snap, &sum) != PICOLLO_STATUS_OK) {
            VIOLATION(r, "snapshot update failed: %s", picollo_last_error_message());
            break;
        }
        r->delta_sum += sum.total + sum.underflow + sum.overflow;
        FENCE();
        started = sum_started(r->s);
        if (r->delta_sum > started) {
            VIOLATION(r, "the deltas add up to %llu, only %llu started",
                      (unsigned long long)r->delta_sum, (unsigned long long)started);
        }
        r->iterations++;
        AADD(&r->s->progress[1], 1);
        if (!last) {
            pause_briefly();
        }
    }
    picollo_snapshot_free(snap);
    return NULL;
}

/* ---- writers ---- */

typedef struct writer {
    shared *s;
    int index;
    size_t rounds;     /* at least this many rounds (one record per value each)... */
    size_t max_rounds; /* ...and more until the readers have made progress, up to this */
    int spread; /* 1: random values (all in slot 0); 0: the VALUES, one slot each */
} writer;

static void *writer_thread(void *arg)
{
    writer *w = (writer *)arg;
    uint64_t *started = w->s->started[w->index], *finished = w->s->finished[w->index];
    uint64_t seed = 500 + (uint64_t)w->index;
    size_t i;
    int k;
    for (i = 0; i < w->max_rounds; i++) {
        if (i >= w->rounds && !others_behind(w->s)) {
            break;
        }
        if (i % 64 == 63 && others_behind(w->s)) {
            pause_briefly();
        }
        for (k = 0; k < VALUES; k++) {
            int slot = w->spread ? 0 : k;
            uint64_t n = (i + (size_t)k) % 8 == 0 ? 2 : 1;
            uint64_t v = w->spread ? rng_next(&seed) % 1100000 : reset_values[k];
            ASTORE(&started[slot], ALOAD(&started[slot]) + n);
            FENCE();
            if (n == 1) {
                picollo_histogram_record(w->s->h, v);
            } else {
                picollo_histogram_record_n(w->s->h, v, n);
            }
            FENCE();
            ASTORE(&finished[slot], ALOAD(&finished[slot]) + n);
        }
    }
    AADD(&w->s->writers_done, 1);
    return NULL;
}

/* The threads of one run: the writers, the query reader and the delta reader, their ids. */
typedef struct crew {
    writer w[WRITERS];
    reader r[2];
    pthread_t t[WRITERS + 2];
} crew;

/* Start `n` writers and the two readers of `c`; returns how many threads started (all or a
 * failure). */
static int start_all(crew *c, int n)
{
    pthread_t *t = c->t;
    writer *w = c->w;
    reader *r = c->r;
    int i, started = 0;
    for (i = 0; i < n; i++) {
        if (pthread_create(&t[started], NULL, writer_thread, &w[i]) != 0) {
            return started;
        }
        started++;
    }
    if (pthread_create(&t[started], NULL, query_reader, &r[0]) != 0) {
        return started;
    }
    started++;
    if (pthread_create(&t[started], NULL, delta_reader, &r[1]) != 0) {
        return started;
    }
    return started + 1;
}

/* Join the writers (the first `writers` of the `started` threads), then stop the readers
 * and join them. */
static void join_all(pthread_t *t, int started, int writers, shared *s)
{
    int i;
    for (i = 0; i < started && i < writers; i++) {
        pthread_join(t[i], NULL);
    }
    FENCE();
    ASTORE(&s->done, 1);
    for (; i < started; i++) {
        pthread_join(t[i], NULL);
    }
}

/* Set `n` writers of `c` to record into `s` for at least `rounds` rounds and up to
 * `max_rounds` (random values in slot 0 when `spread`, else the VALUES, one slot each), and
 * its two readers to read it; the writers keep going until each other thread made
 * SIZED(200, 10) iterations. */
static void prepare(crew *c, shared *s, int n, size_t rounds, size_t max_rounds, int spread)
{
    writer *w = c->w;
    reader *r = c->r;
    int i;
    memset(r, 0, sizeof c->r);
    for (i = 0; i < n; i++) {
        w[i].s = s;
        w[i].index = i;
        w[i].rounds = rounds;
        w[i].max_rounds = max_rounds;
        w[i].spread = spread;
    }
    r[0].s = r[1].s = s;
    s->want = SIZED(200, 10);
}

static void check_readers(const reader *r, const char *what)
{
    int i;
    for (i = 0; i < 2; i++) {
        CHECKF(r[i].violations == 0, "%s, %s reader: %lu violations in %lu iterations; first: %s",
               what, i == 0 ? "query" : "delta", r[i].violations, r[i].iterations, r[i].first);
        CHECKF(r[i].iterations >= 1, "%s: reader %d never ran", what, i);
    }
}

/* ---- readers while writers record (no reset): the deltas end exact ---- */

void test_readers_while_writing(void)
{
    const uint32_t modes[4] = {PICOLLO_MODE_SINGLE_WRITER, PICOLLO_MODE_INTERLOCKED,
                               PICOLLO_MODE_THREAD_LOCAL, PICOLLO_MODE_APPROXIMATE};
    unsigned m;
    for (m = 0; m < 4; m++) {
        shared *s = (shared *)calloc(1, sizeof *s);
        crew c;
        /* One writer in the single-writer mode. The approximate mode's buckets stay below
         * 2^13: at most 4 × 6,000 × 8 × 1.125 = 216,000 uniform values in 0..1.1·10^6, and
         * the widest buckets (8,192 values) take 1/134 of them, about 1,600. */
        int writers = modes[m] == PICOLLO_MODE_SINGLE_WRITER ? 1 : WRITERS;
        int approx = modes[m] == PICOLLO_MODE_APPROXIMATE;
        size_t rounds = approx ? SIZED(3000, 600) : SIZED(100000, 1500);
        int started;
        uint64_t expected = 0;
        picollo_histogram_info info;
        if (!CHECK(s != NULL)) {
            return;
        }
        s->h = make_mode(modes[m], 0, 64, 10, 1000000);
        prepare(&c, s, writers, rounds, approx ? SIZED(6000, 1500) : 4 * rounds, 1);
        s->progress[2] = s->want; /* no resets here */
        started = start_all(&c, writers);
        CHECK(started == writers + 2);
        join_all(c.t, started, writers, s);
        check_readers(c.r, mode_name(modes[m]));
        expected = sum_started(s);
        info = info_of(s->h);
        CHECKF(info.total + info.underflow + info.overflow == expected,
               "%s: %llu counted, %llu recorded", mode_name(modes[m]),
               (unsigned long long)(info.total + info.underflow + info.overflow),
               (unsigned long long)expected);
        CHECKF(c.r[1].delta_sum == expected, "%s: the deltas add up to %llu, %llu recorded",
               mode_name(modes[m]), (unsigned long long)c.r[1].delta_sum,
               (unsigned long long)expected);
        printf("%s, %d writer(s) + 2 readers: %llu records, %lu queries, %lu delta updates\n",
               mode_name(modes[m]), writers, (unsigned long long)expected, c.r[0].iterations,
               c.r[1].iterations);
        picollo_histogram_free(s->h);
        free(s);
    }
}

/* ---- resets from the main thread while writers record ---- */

/* The non-empty buckets of one copy, quietly (this runs in a loop). */
static size_t one_copy(const picollo_histogram *h, picollo_bucket *out, size_t cap)
{
    size_t cursor = 0, written = 0;
    return picollo_histogram_next_buckets(h, &cursor, out, cap, &written) == PICOLLO_STATUS_OK
               ? written
               : 0;
}

static int slot_of(const picollo_bucket *b)
{
    int k;
    for (k = 0; k < VALUES; k++) {
        if (b->lower <= reset_values[k] && reset_values[k] <= b->highest) {
            return k;
        }
    }
    return -1;
}

void test_reset_while_writing(void)
{
    const uint32_t modes[3] = {PICOLLO_MODE_INTERLOCKED, PICOLLO_MODE_THREAD_LOCAL,
                               PICOLLO_MODE_APPROXIMATE};
    unsigned m;
    for (m = 0; m < 3; m++) {
        shared *s = (shared *)calloc(1, sizeof *s);
        crew c;
        /* Approximate at T = 20: at most 4 × 200,000 × 1.125 = 900,000 < 2^20 per bucket,
         * even unreset, so every add is exact (through the approximate record path). */
        int approx = modes[m] == PICOLLO_MODE_APPROXIMATE;
        size_t rounds = SIZED(50000, 300);
        unsigned long resets = 0, violations = 0;
        char first[256] = "";
        picollo_bucket b[VALUES + 1];
        picollo_snapshot *snap = NULL;
        int started;
        if (!CHECK(s != NULL)) {
            return;
        }
        s->h = make_mode(modes[m], approx ? 20 : 0, 64, 10, 1000000);
        CHECK(picollo_snapshot_new(s->h, &snap) == PICOLLO_STATUS_OK);
        prepare(&c, s, WRITERS, rounds, 4 * rounds, 0);
        started = start_all(&c, WRITERS);
        CHECK(started == WRITERS + 2);
        do {
            uint64_t before[VALUES] = {0}, after[VALUES] = {0}, since = 0;
            picollo_summary sum, delta;
            size_t n, j;
            int k, wi;
            memset(&sum, 0, sizeof sum);
            memset(&delta, 0, sizeof delta);
            FENCE();
            for (wi = 0; wi < WRITERS; wi++) {
                for (k = 0; k < VALUES; k++) {
                    before[k] += ALOAD(&s->finished[wi][k]);
                }
            }
            FENCE();
            picollo_histogram_reset(s->h);
            n = one_copy(s->h, b, VALUES + 1);
            picollo_histogram_summary(s->h, &sum);
            picollo_snapshot_update(snap, s->h, 1);
            picollo_snapshot_summary(snap, &delta);
            FENCE();
            for (wi = 0; wi < WRITERS; wi++) {
                for (k = 0; k < VALUES; k++) {
                    after[k] += ALOAD(&s->started[wi][k]);
                }
            }
            for (k = 0; k < VALUES; k++) {
                since += after[k] - before[k];
            }
            for (j = 0; j < n; j++) {
                k = slot_of(&b[j]);
                if (k < 0 || b[j].count > after[k] - before[k]) {
                    if (violations++ == 0) {
                        snprintf(first, sizeof first,
                                 "bucket %llu holds %llu after a reset, %llu recorded since",
                                 (unsigned long long)b[j].storage_index,
                                 (unsigned long long)b[j].count,
                                 k < 0 ? 0ull : (unsigned long long)(after[k] - before[k]));
                    }
                }
            }
            if (sum.total > since || delta.total > since) {
                if (violations++ == 0) {
                    snprintf(first, sizeof first,
                             "after a reset: total %llu, delta %llu, %llu recorded since",
                             (unsigned long long)sum.total, (unsigned long long)delta.total,
                             (unsigned long long)since);
                }
            }
            resets++;
            AADD(&s->progress[2], 1);
            pause_briefly();
        } while (ALOAD(&s->writers_done) < WRITERS);
        join_all(c.t, started, WRITERS, s);
        CHECKF(violations == 0, "%s: %lu violations in %lu resets; first: %s",
               mode_name(modes[m]), violations, resets, first);
        check_readers(c.r, mode_name(modes[m]));
        /* Writers gone: one more reset empties it, and it counts exactly again. */
        CHECK(picollo_histogram_reset(s->h) == PICOLLO_STATUS_OK);
        CHECK(info_of(s->h).total == 0);
        picollo_histogram_record_n(s->h, 1000, 7);
        CHECK(info_of(s->h).total == 7);
        printf("%s: %lu resets while %d writers recorded\n", mode_name(modes[m]), resets, WRITERS);
        picollo_snapshot_free(snap);
        picollo_histogram_free(s->h);
        free(s);
    }
}

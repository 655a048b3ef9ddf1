/*
 * test_threads_api.c: the approximate counter (alone and from threads, with a racing
 * reset), the batch bucket iterator against the one-at-a-time one, and the statuses of the
 * concurrency modes (bad mode and threshold, subtract outside the single-writer mode).
 */
#define _POSIX_C_SOURCE 200809L

#include "test_threads.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the approximate counter ---- */

typedef struct counter_worker {
    picollo_approx_counter *c;
    size_t increments; /* picollo_approx_counter_increment calls */
    size_t adds;       /* picollo_approx_counter_add(c, 3) calls */
} counter_worker;

static void *counter_thread(void *arg)
{
    counter_worker *w = (counter_worker *)arg;
    size_t i;
    for (i = 0; i < w->increments; i++) {
        picollo_approx_counter_increment(w->c);
    }
    for (i = 0; i < w->adds; i++) {
        picollo_approx_counter_add(w->c, 3);
    }
    return NULL;
}

static picollo_approx_counter *make_counter(uint32_t t, uint32_t shift, uint32_t exact)
{
    picollo_approx_counter *c = NULL;
    if (picollo_approx_counter_new(t, shift, exact, &c) != PICOLLO_STATUS_OK || c == NULL) {
        fprintf(stderr, "FATAL: picollo_approx_counter_new: %s\n", picollo_last_error_message());
        exit(2);
    }
    return c;
}

static uint64_t counter_get(const picollo_approx_counter *c)
{
    uint64_t v = 0;
    CHECK(picollo_approx_counter_get(c, &v) == PICOLLO_STATUS_OK);
    return v;
}

/* `WRITERS` threads, each `increments` increments and `adds` adds of 3. */
static void count_from_threads(picollo_approx_counter *c, size_t increments, size_t adds)
{
    counter_worker w[WRITERS];
    int i;
    for (i = 0; i < WRITERS; i++) {
        w[i].c = c;
        w[i].increments = increments;
        w[i].adds = adds;
    }
    CHECK(run_threads(WRITERS, counter_thread, w, sizeof w[0]));
}

void test_approx_counter(void)
{
    picollo_approx_counter *c = make_counter(0, 0, 0), *bad = NULL;
    uint32_t t = 0, shift = 0, exact = 9;
    uint64_t v = 0;
    size_t per;

    /* Defaults resolved; arguments refused with a message naming them; nothing written. */
    EXPECT(picollo_approx_counter_policy(c, &t, &shift, &exact), PICOLLO_STATUS_OK);
    CHECK(t == 13 && shift == 10 && exact == 0);
    EXPECT(picollo_approx_counter_policy(c, NULL, NULL, NULL), PICOLLO_STATUS_OK);
    EXPECT_MSG(picollo_approx_counter_new(63, 0, 0, &bad), PICOLLO_STATUS_INVALID_ARGUMENT,
               "threshold");
    EXPECT_MSG(picollo_approx_counter_new(0, 63, 0, &bad), PICOLLO_STATUS_INVALID_ARGUMENT,
               "max_shift");
    EXPECT_MSG(picollo_approx_counter_new(0, 0, 2, &bad), PICOLLO_STATUS_INVALID_ARGUMENT,
               "exact_when_uncontended");
    CHECK(bad == NULL);
    EXPECT_MSG(picollo_approx_counter_new(0, 0, 0, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
    EXPECT_MSG(picollo_approx_counter_get(NULL, &v), PICOLLO_STATUS_NULL_POINTER, "c");
    EXPECT_MSG(picollo_approx_counter_get(c, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
    EXPECT_MSG(picollo_approx_counter_reset(NULL, &v), PICOLLO_STATUS_NULL_POINTER, "c");
    EXPECT_MSG(picollo_approx_counter_policy(NULL, &t, NULL, NULL), PICOLLO_STATUS_NULL_POINTER,
               "c");
    picollo_approx_counter_increment(NULL); /* ignored */
    picollo_approx_counter_add(NULL, 5);    /* ignored */
    picollo_approx_counter_free(NULL);      /* ignored */

    /* Exact below 2^13 from several threads: 4 × 2,000 = 8,000 increments. */
    count_from_threads(c, 2000, 0);
    CHECKF(counter_get(c) == 2000 * WRITERS, "%llu", (unsigned long long)counter_get(c));
    EXPECT(picollo_approx_counter_reset(c, &v), PICOLLO_STATUS_OK);
    CHECK(v == 2000 * WRITERS && counter_get(c) == 0);
    EXPECT(picollo_approx_counter_reset(c, NULL), PICOLLO_STATUS_OK);

    /* 10^6 increments (10^5 quick) from the threads: within 5 % at T = 13 (about 2 % at two
     * standard deviations); the adds are exact on top. */
    per = SIZED(250000, 25000);
    count_from_threads(c, per, 100);
    {
        double expected = (double)per * WRITERS + 300.0 * WRITERS;
        double got = (double)counter_get(c);
        double err = fabs(got - expected) / expected;
        CHECKF(err <= 0.05, "%.0f for %.0f (%.2f %%)", got, expected, err * 100);
        printf("approx counter T=13: %.0f for %.0f (%+.3f %%)\n", got, expected,
               (got - expected) / expected * 100);
    }
    picollo_approx_counter_free(c);

    /* exact_when_uncontended on one thread: every increment succeeds its compare-exchange. */
    c = make_counter(4, 3, 1);
    EXPECT(picollo_approx_counter_policy(c, &t, &shift, &exact), PICOLLO_STATUS_OK);
    CHECK(t == 4 && shift == 3 && exact == 1);
    for (per = 0; per < 50000; per++) {
        picollo_approx_counter_increment(c);
    }
    CHECK(counter_get(c) == 50000);
    picollo_approx_counter_free(c);

    /* Resets racing adds lose nothing: the counts taken plus what is left equal every add. */
    {
        counter_worker w[WRITERS];
        pthread_t th[WRITERS];
        uint64_t taken_sum = 0, taken = 0;
        int i, ok = 1;
        c = make_counter(0, 0, 0);
        for (i = 0; i < WRITERS; i++) {
            w[i].c = c;
            w[i].increments = 0;
            w[i].adds = SIZED(100000, 5000);
            ok &= pthread_create(&th[i], NULL, counter_thread, &w[i]) == 0;
        }
        CHECK(ok);
        for (i = 0; i < 200; i++) {
            if (picollo_approx_counter_reset(c, &taken) == PICOLLO_STATUS_OK) {
                taken_sum += taken;
            }
        }
        for (i = 0; i < WRITERS; i++) {
            pthread_join(th[i], NULL);
        }
        taken_sum += counter_get(c);
        CHECKF(taken_sum == (uint64_t)3 * WRITERS * w[0].adds, "%llu taken, %llu added",
               (unsigned long long)taken_sum, (unsigned long long)(3 * WRITERS * w[0].adds));
        picollo_approx_counter_free(c);
    }
}

/* ---- the batch bucket iterator ---- */

void test_next_buckets(void)
{
    const uint32_t modes[4] = {PICOLLO_MODE_SINGLE_WRITER, PICOLLO_MODE_INTERLOCKED,
                               PICOLLO_MODE_THREAD_LOCAL, PICOLLO_MODE_APPROXIMATE};
    unsigned m;
    for (m = 0; m < 4; m++) {
        picollo_histogram *h = make_mode(modes[m], 0, 64, 10, 1000000);
        picollo_histogram_info info = info_of(h);
        size_t storage = (size_t)info.storage_len, one = 0, cursor = 0, written = 77, k;
        const size_t caps[5] = {1, 2, 7, 256, storage + 5};
        picollo_bucket *single = (picollo_bucket *)malloc((storage + 5) * sizeof *single);
        picollo_bucket canary, b;
        uint64_t seed = 9;
        unsigned c;
        if (!CHECK(single != NULL)) {
            picollo_histogram_free(h);
            return;
        }
        /* Empty: OUT_OF_RANGE, nothing written, the cursor kept. */
        memset(&canary, 0x5A, sizeof canary);
        b = canary;
        EXPECT_MSG(picollo_histogram_next_buckets(h, &cursor, &b, 1, &written),
                   PICOLLO_STATUS_OUT_OF_RANGE, "no more");
        CHECK(cursor == 0 && written == 77 && memcmp(&b, &canary, sizeof b) == 0);

        for (k = 0; k < 3000; k++) {
            picollo_histogram_record(h, rng_next(&seed) % 1100000);
        }
        /* The reference: one bucket per call. */
        cursor = 0;
        while (one < storage + 1 &&
               picollo_histogram_next_bucket(h, &cursor, &single[one]) == PICOLLO_STATUS_OK) {
            one++;
        }
        CHECK(one > 100 && one <= storage);
        for (c = 0; c < 5; c++) {
            size_t cap = caps[c], got = 0, n = 0, calls = 0, i;
            picollo_bucket *batch = collect_buckets(h, cap, &n);
            int same = batch != NULL && n == one;
            for (i = 0; same && i < n; i++) {
                same = memcmp(&batch[i], &single[i], sizeof b) == 0;
            }
            CHECKF(same, "%s, batches of %zu: %zu buckets, %zu one at a time", mode_name(modes[m]),
                   cap, n, one);
            free(batch);
            /* The number of calls: one per full batch, then one short batch (or, when the
             * count divides evenly, one OUT_OF_RANGE call). */
            {
                picollo_bucket *out = (picollo_bucket *)malloc(cap * sizeof *out);
                cursor = 0;
                while (out != NULL && calls <= storage &&
                       picollo_histogram_next_buckets(h, &cursor, out, cap, &written) ==
                           PICOLLO_STATUS_OK) {
                    calls++;
                    got += written;
                    if (written < cap) {
                        CHECKF(cursor == storage, "a short batch leaves the cursor at %zu", cursor);
                    }
                }
                CHECK(got == one && calls == (one + cap - 1) / cap);
                free(out);
            }
        }
        /* From the middle: the same tail. */
        cursor = (size_t)single[one / 2].storage_index;
        CHECK(picollo_histogram_next_buckets(h, &cursor, &b, 1, NULL) == PICOLLO_STATUS_OK &&
              memcmp(&b, &single[one / 2], sizeof b) == 0 &&
              cursor == single[one / 2].storage_index + 1);
        /* Arguments. */
        cursor = 0;
        EXPECT_MSG(picollo_histogram_next_buckets(h, &cursor, &b, 0, &written),
                   PICOLLO_STATUS_INVALID_ARGUMENT, "cap");
        EXPECT_MSG(picollo_histogram_next_buckets(h, &cursor, NULL, 4, &written),
                   PICOLLO_STATUS_NULL_POINTER, "out");
        EXPECT_MSG(picollo_histogram_next_buckets(h, NULL, &b, 4, &written),
                   PICOLLO_STATUS_NULL_POINTER, "cursor");
        EXPECT_MSG(picollo_histogram_next_buckets(NULL, &cursor, &b, 4, &written),
                   PICOLLO_STATUS_NULL_POINTER, "h");
        CHECK(cursor == 0);
        cursor = SIZE_MAX;
        EXPECT(picollo_histogram_next_buckets(h, &cursor, &b, 4, &written),
               PICOLLO_STATUS_OUT_OF_RANGE);
        CHECK(cursor == SIZE_MAX);
        free(single);
        picollo_histogram_free(h);
    }
}

/* ---- statuses of the modes ---- */

void test_mode_statuses(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *h = NULL, *src, *single;
    uint32_t mode;

    c.mode = 4;
    EXPECT_MSG(picollo_histogram_new(&c, &h), PICOLLO_STATUS_INVALID_ARGUMENT, "mode");
    c.mode = UINT32_MAX;
    EXPECT_MSG(picollo_histogram_new(&c, &h), PICOLLO_STATUS_INVALID_ARGUMENT, "mode");
    c.mode = PICOLLO_MODE_APPROXIMATE;
    c.approx_threshold = 63;
    EXPECT_MSG(picollo_histogram_new(&c, &h), PICOLLO_STATUS_INVALID_ARGUMENT, "approx_threshold");
    c.mode = PICOLLO_MODE_INTERLOCKED;
    c.approx_threshold = 13;
    EXPECT_MSG(picollo_histogram_new(&c, &h), PICOLLO_STATUS_INVALID_ARGUMENT, "approx_threshold");
    CHECK(h == NULL);

    /* Every mode reports itself; the threshold only in the approximate mode. */
    for (mode = 0; mode <= PICOLLO_MODE_APPROXIMATE; mode++) {
        picollo_histogram_info i;
        h = make_mode(mode, mode == PICOLLO_MODE_APPROXIMATE ? 20 : 0, 32, 1, 1000);
        i = info_of(h);
        CHECK(i.mode == mode && i.counter_bits == 32);
        CHECK(i.approx_threshold == (mode == PICOLLO_MODE_APPROXIMATE ? 20u : 0u));
        picollo_histogram_free(h);
    }

    /* subtract: single-writer only. The others answer UNSUPPORTED with the reason and keep
     * their counts; a single-writer histogram subtracts a concurrent one. */
    src = make_mode(PICOLLO_MODE_INTERLOCKED, 0, 64, 1, 1000);
    single = make_mode(PICOLLO_MODE_SINGLE_WRITER, 0, 64, 1, 1000);
    picollo_histogram_record_n(src, 50, 2);
    picollo_histogram_record_n(single, 50, 5);
    for (mode = PICOLLO_MODE_INTERLOCKED; mode <= PICOLLO_MODE_APPROXIMATE; mode++) {
        h = make_mode(mode, 0, 64, 1, 1000);
        picollo_histogram_record_n(h, 50, 5);
        EXPECT_MSG(picollo_histogram_subtract(h, src), PICOLLO_STATUS_UNSUPPORTED, "single-writer");
        EXPECT_MSG(picollo_histogram_subtract(h, single), PICOLLO_STATUS_UNSUPPORTED, "snapshot");
        CHECKF(info_of(h).total == 5, "%s", mode_name(mode));
        /* add works in every direction. */
        EXPECT(picollo_histogram_add(h, src), PICOLLO_STATUS_OK);
        CHECK(info_of(h).total == 7);
        picollo_histogram_free(h);
    }
    EXPECT(picollo_histogram_subtract(single, src), PICOLLO_STATUS_OK);
    CHECK(info_of(single).total == 3);
    picollo_histogram_free(src);
    picollo_histogram_free(single);
}

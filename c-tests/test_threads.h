/*
 * test_threads.h: what the parts of the threads test program (test_threads.c,
 * test_threads_reset.c, test_threads_api.c) share. The checks of check.h count in plain
 * globals, so only the main thread calls CHECK/EXPECT: worker threads report through their
 * argument structs and the main thread checks after joining.
 */
#ifndef PICOLLO_C_TESTS_THREADS_H
#define PICOLLO_C_TESTS_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"

/* Writer threads per test (the machine may have fewer cores: correctness does not care). */
#define WRITERS 4

/* Sizes: full by default; `--quick` (the valgrind run, where threads are serialised and
 * every instruction costs ~50×) divides the work by about ten. */
extern int quick;
#define SIZED(full, small) (quick ? (small) : (full))

/* Counters shared between threads, through GCC's atomic builtins (C99 has no atomics).
 * A writer publishes "started" before a record and "finished" after it with a full fence
 * between, and a reader fences between its query and its read of them, so a record the
 * query saw is always in "started", and one in "finished" always in what a later reset
 * clears. */
#define ALOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define ASTORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define AADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define FENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)

/* The mode's name for messages. */
const char *mode_name(uint32_t mode);

/* A histogram of `mode` (threshold only for the approximate mode), u64 counters unless
 * `bits` says 32, relative error 1 %, range min..max; aborts the run if creation fails. */
picollo_histogram *make_mode(uint32_t mode, uint32_t threshold, uint32_t bits, uint64_t min,
                             uint64_t max);

/* Every non-empty bucket, through picollo_histogram_next_buckets in batches of `batch`;
 * returns a malloc'd array (free it) and its length in *n, or NULL with *n = 0 when empty.
 * A failure other than the final OUT_OF_RANGE is a failed check. */
picollo_bucket *collect_buckets(const picollo_histogram *h, size_t batch, size_t *n);

/* 1 when two histograms hold the same non-empty buckets (index and count) and the same
 * underflow and overflow; prints the first difference under `what` otherwise. */
int same_counts(const picollo_histogram *a, const picollo_histogram *b, const char *what);

/* Run `fn` on `n` threads, argument i being `(char *)args + i * size`; join them all.
 * Returns 1 when every thread started and joined. */
int run_threads(int n, void *(*fn)(void *), void *args, size_t size);

/* Sleep a little (readers and the resetting main thread pause between iterations, so that
 * under valgrind, which runs one thread at a time, they do not starve the writers). */
void pause_briefly(void);

/* Monotonic seconds (for rates in messages only: nothing asserts on time). */
double now_seconds(void);

/* The parts. */
void test_exact_totals(void);           /* test_threads.c */
void test_approximate_totals(void);     /* test_threads.c */
void test_short_lived_threads(void);    /* test_threads.c */
void test_readers_while_writing(void); /* test_threads_reset.c */
void test_reset_while_writing(void);   /* test_threads_reset.c */
void test_approx_counter(void);         /* test_threads_api.c */
void test_next_buckets(void);           /* test_threads_api.c */
void test_mode_statuses(void);          /* test_threads_api.c */

#endif /* PICOLLO_C_TESTS_THREADS_H */

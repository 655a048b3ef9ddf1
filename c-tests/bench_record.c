/*
 * bench_record.c: what a record costs through libpicollo.so, in every mode, at 1 and N
 * threads, at 1 % and 0.05 % precision: the figures a C user can reproduce on their own
 * machine (c-tests/bench.sh builds and runs it).
 *
 * Workload: values r^3 * 7,716,549,600 with r uniform in [0, 1) (most values small, a long
 * tail), a different stream per thread; u32 counters (u64 for `interlocked_u64`), range
 * 0..=7,716,549,600. Each thread records 4,000,000 values per run; the contenders take
 * turns, one run each per round, and
 * a contender's figure is its best of 9 rounds, in ns per record per thread, timed from
 * the first thread's start to the last one's end (so 1- and N-thread figures compare
 * directly: equal means perfect scaling, and threads the machine did not run at once show
 * as slower). Short runs taken in
 * turns keep the figures comparable on a machine whose speed drifts (a shared VM). The
 * single-writer mode runs at 1 thread only (it allows one writer).
 *
 * Built with -DPICOLLO_BENCH_HG64 and hg64.c/hg64.h (fanf2/hg64, the version whose
 * `hg64_create` takes the significant bits; not part of this repository: bench.sh takes
 * them from $HG64_DIR when set), it also runs hg64_inc on the same values: hg64 counts
 * with relaxed atomic adds into bins allocated on first use, the guarantee of Picollo's
 * interlocked mode.
 *
 * Each mode is measured three ways: picollo_histogram_record (as the header compiles it
 * since ABI 1.18: an inline call of the handle's record function); the function
 * picollo_histogram_record_fn hands out for the handle (`_fn`); the header's inline
 * recorder, picollo_recorder_record (`_inline`). The single-writer and interlocked modes
 * are measured again with exact extremes kept (`_extremes`; two ways: the inline recorder
 * of such a histogram calls the library).
 *
 * Usage: bench_record [--quick] [threads...]   (default threads: 1 and the CPU count)
 * Last lines: `bench c: mode=<name> error=<e> threads=<n> ns=<ns>`, one per contender.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "picollo.h"

#ifdef PICOLLO_BENCH_HG64
#include <stdbool.h>
#include "hg64.h"
#endif

#define MAX_THREADS 64
#define MAX_VALUE 7716549600ULL

static size_t per_thread = 4000000;
static int runs = 9;

/* SplitMix64: one stream per seed. */
static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t *workload(uint64_t seed, size_t n) {
    uint64_t *v = malloc(n * sizeof *v);
    if (v == NULL) {
        perror("malloc");
        exit(2);
    }
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++) {
        double r = (double)(splitmix(&state) >> 11) * (1.0 / 9007199254740992.0);
        v[i] = (uint64_t)(r * r * r * (double)MAX_VALUE);
    }
    return v;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What one contender records into: a Picollo handle or an hg64. */
typedef struct {
    picollo_histogram *h;
#ifdef PICOLLO_BENCH_HG64
    hg64 *hg;
#endif
} target;

typedef struct {
    const target *t;
    const uint64_t *values;
    pthread_barrier_t *barrier;
    double start, end;
} job;

/* The timed part of a thread body: once every thread is at the barrier, `record` runs on
 * each of the job's values, named `x` (a macro: the call is compiled into the loop). */
#define TIMED_RECORDS(j, x, record)                                                         \
    do {                                                                                    \
        const uint64_t *values_ = (j)->values;                                              \
        pthread_barrier_wait((j)->barrier);                                                 \
        (j)->start = now();                                                                 \
        for (size_t i_ = 0; i_ < per_thread; i_++) {                                        \
            uint64_t x = values_[i_];                                                       \
            record;                                                                         \
        }                                                                                   \
        (j)->end = now();                                                                   \
    } while (0)

static void *run_picollo(void *arg) {
    job *j = arg;
    picollo_histogram *h = j->t->h;
    TIMED_RECORDS(j, x, picollo_histogram_record(h, x));
    return NULL;
}

/* The same through the function picollo_histogram_record_fn hands out for the handle. */
static void *run_picollo_fn(void *arg) {
    job *j = arg;
    picollo_histogram *h = j->t->h;
    picollo_record_fn record = picollo_histogram_record_fn(h);
    TIMED_RECORDS(j, x, record(h, x));
    return NULL;
}

/* The same through the header's inline recorder, made on the recording thread (as the
 * thread-local mode requires) and kept by value in a local (picollo_recorder_of), so that
 * the loop holds it in registers. */
static void *run_picollo_inline(void *arg) {
    job *j = arg;
    picollo_status status;
    const picollo_recorder r = picollo_recorder_of(j->t->h, &status);
    if (status != PICOLLO_STATUS_OK) {
        fprintf(stderr, "picollo_recorder_of failed\n");
        exit(2);
    }
    TIMED_RECORDS(j, x, picollo_recorder_record(&r, x));
    return NULL;
}

#ifdef PICOLLO_BENCH_HG64
static void *run_hg64(void *arg) {
    job *j = arg;
    hg64 *hg = j->t->hg;
    TIMED_RECORDS(j, x, hg64_inc(hg, x));
    return NULL;
}
#endif

/* One run: ns per record per thread of `body` on `threads` threads at once, from the first
 * thread's start to the last one's end (threads that did not overlap show as slower). */
static double run_once(const target *t, void *(*body)(void *), int threads,
                       uint64_t *const *values) {
    pthread_t tid[MAX_THREADS];
    job jobs[MAX_THREADS];
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, (unsigned)threads);
    for (int k = 0; k < threads; k++) {
        jobs[k] = (job){.t = t, .values = values[k], .barrier = &barrier};
        if (pthread_create(&tid[k], NULL, body, &jobs[k]) != 0) {
            perror("pthread_create");
            exit(2);
        }
    }
    double first = 1e300, last = 0;
    for (int k = 0; k < threads; k++) {
        pthread_join(tid[k], NULL);
        first = jobs[k].start < first ? jobs[k].start : first;
        last = jobs[k].end > last ? jobs[k].end : last;
    }
    pthread_barrier_destroy(&barrier);
    return (last - first) * 1e9 / (double)per_thread;
}

static picollo_histogram *make(uint32_t mode, uint32_t extremes, uint32_t bits, double error) {
    picollo_histogram_config cfg = picollo_histogram_config_default();
    cfg.exact_extremes = extremes;
    cfg.counter_bits = bits;
    cfg.relative_error = error;
    cfg.max_trackable = MAX_VALUE;
    cfg.mode = mode;
    picollo_histogram *h = NULL;
    picollo_status s = picollo_histogram_new(&cfg, &h);
    if (s != PICOLLO_STATUS_OK) {
        fprintf(stderr, "picollo_histogram_new: %s\n", picollo_status_str(s));
        exit(2);
    }
    return h;
}

/* Checks that every record of an exact mode was counted (a benchmark that loses counts
 * measures nothing). */
static void check_counted(picollo_histogram *h, const char *name, int threads) {
    picollo_histogram_info info;
    if (picollo_histogram_get_info(h, &info) != PICOLLO_STATUS_OK) {
        fprintf(stderr, "picollo_histogram_get_info failed\n");
        exit(2);
    }
    uint64_t expected = (uint64_t)runs * (uint64_t)threads * per_thread;
    uint64_t seen = info.total + info.underflow + info.overflow;
    if (seen != expected) {
        fprintf(stderr, "%s: %llu records counted, %llu made\n", name,
                (unsigned long long)seen, (unsigned long long)expected);
        exit(1);
    }
}

/* A mode, measured three ways: through picollo_histogram_record (`name`), through the
 * function picollo_histogram_record_fn returns for the handle (`fn_name`), and through the
 * header's inline recorder (`inline_name`; NULL: not measured). */
typedef struct {
    const char *name;
    const char *fn_name;
    const char *inline_name;
    uint32_t mode;
    uint32_t extremes; /* exact_extremes: the inline recorder would only call */
    uint32_t bits;     /* counter_bits */
} mode_spec;

static const mode_spec modes[] = {
    {"single", "single_fn", "single_inline", PICOLLO_MODE_SINGLE_WRITER, 0, 32},
    {"interlocked", "interlocked_fn", "interlocked_inline", PICOLLO_MODE_INTERLOCKED, 0, 32},
    /* 64-bit counts, as hg64 keeps: as many cells to a cache line as hg64 has, so that
     * two threads on hot buckets share lines as often as they do there. */
    {"interlocked_u64", "interlocked_u64_fn", "interlocked_u64_inline", PICOLLO_MODE_INTERLOCKED,
     0, 64},
    {"local", "local_fn", "local_inline", PICOLLO_MODE_THREAD_LOCAL, 0, 32},
    {"approx", "approx_fn", "approx_inline", PICOLLO_MODE_APPROXIMATE, 0, 32},
    {"single_extremes", "single_extremes_fn", NULL, PICOLLO_MODE_SINGLE_WRITER, 1, 32},
    {"interlocked_extremes", "interlocked_extremes_fn", NULL, PICOLLO_MODE_INTERLOCKED, 1, 32},
};
enum { MODES = sizeof modes / sizeof modes[0], CONTENDERS = 3 * MODES + 1 };

/* One contender: what it records into, its name, its thread body, its best run so far. */
typedef struct {
    target t;
    const char *name;
    void *(*body)(void *);
    double best;
} contender;

/* Puts the contenders of mode `m` at `error` at `c`, each with a histogram of its own;
 * returns how many. */
static int add_mode(contender *c, const mode_spec *m, double error) {
    const char *const names[] = {m->name, m->fn_name, m->inline_name};
    void *(*const bodies[])(void *) = {run_picollo, run_picollo_fn, run_picollo_inline};
    int n = 0;
    for (; n < 3 && names[n] != NULL; n++) {
        c[n] = (contender){.t = {.h = make(m->mode, m->extremes, m->bits, error)},
                           .name = names[n],
                           .body = bodies[n],
                           .best = 1e300};
    }
    return n;
}

#ifdef PICOLLO_BENCH_HG64
/* hg64's precision is its number of significant bits (`hg64_create(sigbits)`): 5 bits is
 * about 1 % (its README), 10 bits about 0.05 %. */
static contender hg64_contender(double error) {
    contender c = {.name = "hg64", .body = run_hg64, .best = 1e300};
    c.t.hg = hg64_create(error >= 0.01 ? 5 : 10);
    if (c.t.hg == NULL) {
        fprintf(stderr, "hg64_create refused the significant bits\n");
        exit(2);
    }
    return c;
}
#endif

/* Prints the contender's figure, checks its counts (an exact mode) and frees what it
 * recorded into. */
static void finish(contender *c, double error, int threads) {
    if (c->t.h != NULL) {
        if (strncmp(c->name, "approx", 6) != 0) {
            check_counted(c->t.h, c->name, threads);
        }
        picollo_histogram_free(c->t.h);
    }
#ifdef PICOLLO_BENCH_HG64
    if (c->t.hg != NULL) {
        hg64_destroy(c->t.hg);
    }
#endif
    printf("bench c: mode=%s error=%g threads=%d ns=%.2f\n", c->name, error, threads, c->best);
}

/* Every contender at `error` on `threads` threads: `runs` rounds, each contender one run a
 * round, in turns; then the best run of each. */
static void bench(double error, int threads, uint64_t *const *values) {
    contender c[CONTENDERS];
    int n = 0;
    for (size_t m = 0; m < MODES; m++) {
        /* The single-writer mode allows one writer. */
        if (modes[m].mode != PICOLLO_MODE_SINGLE_WRITER || threads == 1) {
            n += add_mode(&c[n], &modes[m], error);
        }
    }
#ifdef PICOLLO_BENCH_HG64
    c[n++] = hg64_contender(error);
#endif
    for (int r = 0; r < runs; r++) {
        for (int k = 0; k < n; k++) {
            double ns = run_once(&c[k].t, c[k].body, threads, values);
            if (ns < c[k].best) {
                c[k].best = ns;
            }
        }
    }
    for (int k = 0; k < n; k++) {
        finish(&c[k], error, threads);
    }
}

int main(int argc, char **argv) {
    int thread_counts[8];
    int nthreads = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            per_thread = 20000;
            runs = 2;
        } else if (nthreads < 8) {
            int n = atoi(argv[i]);
            if (n < 1 || n > MAX_THREADS) {
                fprintf(stderr, "threads must be 1..%d\n", MAX_THREADS);
                return 2;
            }
            thread_counts[nthreads++] = n;
        }
    }
    if (nthreads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        thread_counts[nthreads++] = 1;
        if (cpus > 1) {
            thread_counts[nthreads++] = (int)(cpus > MAX_THREADS ? MAX_THREADS : cpus);
        }
    }
    int max_threads = 1;
    for (int i = 0; i < nthreads; i++) {
        if (thread_counts[i] > max_threads) {
            max_threads = thread_counts[i];
        }
    }
    uint64_t *values[MAX_THREADS];
    for (int k = 0; k < max_threads; k++) {
        values[k] = workload(0x5EED + (uint64_t)k, per_thread);
    }

    const double errors[] = {0.01, 0.0005};
    printf("ns per record per thread through libpicollo.so (best of %d, %zu records per "
           "thread; contenders take turns within each round)\n",
           runs, per_thread);
    for (size_t e = 0; e < sizeof errors / sizeof errors[0]; e++) {
        for (int ti = 0; ti < nthreads; ti++) {
            bench(errors[e], thread_counts[ti], values);
        }
    }
    for (int k = 0; k < max_threads; k++) {
        free(values[k]);
    }
    return 0;
}

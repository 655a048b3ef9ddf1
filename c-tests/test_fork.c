/*
 * test_fork.c: fork() while other threads reset, read, attach and record, and
 * picollo_histogram_free while the threads that recorded into a thread-local histogram
 * are still alive.
 *
 * - a child resets, records and reads interlocked and single-writer histograms that the
 *   parent's threads reset back to back (a fork mid-reset would leave the child waiting
 *   forever for the reset to end);
 * - a child reads a thread-local histogram whose registry other threads keep locking, finds
 *   the counts of the parent's (parked) writer threads, and records from a new thread;
 * - freeing a thread-local histogram releases its shards while its writer threads live
 *   (checked with glibc's mallinfo2: bytes in use drop by at least the shards).
 *
 * The parent waits for each child with a deadline and kills a hung child (a failure); an
 * alarm ends the whole test if fork() itself never returns. `--quick` (the valgrind run)
 * forks fewer times and skips the mallinfo2 check (valgrind has its own allocator).
 * The last line is "N passed, M failed".
 */
#define _GNU_SOURCE

#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define PARKED 3
#define PER_THREAD 1000
#define CHILD_DEADLINE_MS 30000

static int quick;
static atomic_int stop;

static picollo_histogram *make(uint32_t mode, uint32_t bits, double relative_error,
                               uint64_t max)
{
    picollo_histogram_config c = config_of(mode, bits, relative_error);
    c.min_trackable = 1;
    c.max_trackable = max;
    return new_or_exit(&c);
}

static uint64_t total(const picollo_histogram *h)
{
    picollo_summary s;
    if (picollo_histogram_summary(h, &s) != PICOLLO_STATUS_OK)
        return UINT64_MAX;
    return s.total;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Fork; the child runs `child(arg)` and writes its result (0: pass) into a pipe. The
 * parent waits up to CHILD_DEADLINE_MS for the child to end; returns its result, -1 if it
 * hung (killed), -2 if it ended without one. (Not the exit status: under valgrind a child
 * exits with an error for the memory of the threads that fork left behind.) */
static int in_child(int (*child)(void *), void *arg)
{
    int fds[2];
    if (pipe(fds) != 0) {
        perror("pipe");
        exit(2);
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        unsigned char code = (unsigned char)child(arg);
        ssize_t n = write(fds[1], &code, 1);
        _exit(n == 1 ? 0 : 3);
    }
    close(fds[1]);
    int result = -2;
    for (long waited = 0;; waited++) {
        int status = 0;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (waited >= CHILD_DEADLINE_MS) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            result = -1;
            break;
        }
        sleep_ms(1);
    }
    unsigned char code;
    if (result == -2 && read(fds[0], &code, 1) == 1)
        result = code;
    close(fds[0]);
    return result;
}

/* ---- a child of a parent that resets back to back ---- */

static picollo_histogram *atomic_h, *single_h;

static void *resetter(void *arg)
{
    picollo_histogram *h = arg;
    while (!atomic_load(&stop))
        picollo_histogram_reset(h);
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        (void)total(atomic_h);
        (void)total(single_h);
    }
    return NULL;
}

static void *recorder(void *arg)
{
    picollo_histogram *h = arg;
    while (!atomic_load(&stop))
        picollo_histogram_record(h, 42);
    return NULL;
}

/* Fork `forks` children in turn, each running `child` and checked to exit 0; after three
 * failed children no more are forked. */
static void fork_children(int forks, int (*child)(void *))
{
    int failed = 0;
    for (int i = 0; i < forks; i++) {
        int code = in_child(child, NULL);
        if (!CHECKF(code == 0, "fork %d: child %s (%d)", i, code == -1 ? "hung" : "failed", code))
            failed++;
        if (failed > 2)
            break;
    }
}

static int reset_child(void *arg)
{
    (void)arg;
    if (picollo_histogram_reset(atomic_h) != PICOLLO_STATUS_OK ||
        picollo_histogram_reset(single_h) != PICOLLO_STATUS_OK)
        return 1;
    for (uint64_t v = 1; v <= 100; v *= 10) {
        picollo_histogram_record(atomic_h, v);
        picollo_histogram_record(single_h, v);
    }
    return total(atomic_h) == 3 && total(single_h) == 3 ? 0 : 2;
}

static void test_fork_during_resets(int forks)
{
    atomic_h = make(PICOLLO_MODE_INTERLOCKED, 32, 0.01, 1000000);
    single_h = make(PICOLLO_MODE_SINGLE_WRITER, 64, 0.01, 1000000);
    pthread_t t[5];
    atomic_store(&stop, 0);
    pthread_create(&t[0], NULL, resetter, atomic_h);
    pthread_create(&t[1], NULL, resetter, atomic_h);
    pthread_create(&t[2], NULL, resetter, single_h);
    pthread_create(&t[3], NULL, reader, NULL);
    pthread_create(&t[4], NULL, recorder, atomic_h);
    fork_children(forks, reset_child);
    atomic_store(&stop, 1);
    for (int i = 0; i < 5; i++)
        pthread_join(t[i], NULL);
    picollo_histogram_free(atomic_h);
    picollo_histogram_free(single_h);
}

/* ---- a thread-local histogram across a fork ---- */

static picollo_histogram *local_h, *churn_h;
static pthread_barrier_t recorded, released;

static void *parked_writer(void *arg)
{
    uint64_t base = (uint64_t)(uintptr_t)arg * PER_THREAD;
    for (uint64_t i = 1; i <= PER_THREAD; i++)
        picollo_histogram_record(local_h, base + i);
    pthread_barrier_wait(&recorded);
    pthread_barrier_wait(&released);
    return NULL;
}

static void *record_once(void *arg)
{
    picollo_histogram_record(arg, 5);
    return NULL;
}

static void *churner(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        pthread_t t;
        pthread_create(&t, NULL, record_once, churn_h);
        pthread_join(t, NULL);
        (void)total(local_h);
        picollo_histogram_reset(churn_h);
    }
    return NULL;
}

static int local_child(void *arg)
{
    (void)arg;
    const uint64_t kept = PARKED * PER_THREAD + 10;
    if (total(local_h) != kept)
        return 1;
    pthread_t t;
    pthread_create(&t, NULL, record_once, local_h);
    pthread_join(t, NULL);
    if (total(local_h) != kept + 1)
        return 2;
    picollo_histogram_record(local_h, 9);
    if (total(local_h) != kept + 2)
        return 3;
    picollo_histogram_reset(churn_h);
    pthread_create(&t, NULL, record_once, churn_h);
    pthread_join(t, NULL);
    return total(churn_h) == 1 ? 0 : 4;
}

static void test_fork_thread_local(int forks)
{
    local_h = make(PICOLLO_MODE_THREAD_LOCAL, 32, 0.01, 1000000);
    churn_h = make(PICOLLO_MODE_THREAD_LOCAL, 32, 0.01, 1000000);
    picollo_histogram_record_n(local_h, 7, 10);
    pthread_barrier_init(&recorded, NULL, PARKED + 1);
    pthread_barrier_init(&released, NULL, PARKED + 1);
    pthread_t parked[PARKED], churn;
    for (uintptr_t i = 0; i < PARKED; i++)
        pthread_create(&parked[i], NULL, parked_writer, (void *)i);
    pthread_barrier_wait(&recorded);
    atomic_store(&stop, 0);
    pthread_create(&churn, NULL, churner, NULL);
    fork_children(forks, local_child);
    atomic_store(&stop, 1);
    pthread_join(churn, NULL);
    pthread_barrier_wait(&released);
    for (int i = 0; i < PARKED; i++)
        pthread_join(parked[i], NULL);
    CHECK(total(local_h) == PARKED * PER_THREAD + 10);
    pthread_barrier_destroy(&recorded);
    pthread_barrier_destroy(&released);
    picollo_histogram_free(local_h);
    picollo_histogram_free(churn_h);
}

/* ---- free with live writer threads ---- */

/* Bytes malloc has handed out and not taken back, every arena and mmapped block included. */
static size_t heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

static void *parked_big_writer(void *arg)
{
    for (uint64_t v = 1; v <= 1000; v++)
        picollo_histogram_record(arg, v * 1000);
    pthread_barrier_wait(&recorded);
    pthread_barrier_wait(&released);
    return NULL;
}

static void test_free_with_parked_threads(void)
{
    /* 0.1 % over 1..2^40: 16,384 cells of 8 bytes, 128 kB a shard. */
    picollo_histogram *h = make(PICOLLO_MODE_THREAD_LOCAL, 64, 0.001, (uint64_t)1 << 40);
    picollo_histogram_info info;
    CHECK(picollo_histogram_get_info(h, &info) == PICOLLO_STATUS_OK);
    pthread_barrier_init(&recorded, NULL, PARKED + 1);
    pthread_barrier_init(&released, NULL, PARKED + 1);
    pthread_t t[PARKED];
    for (int i = 0; i < PARKED; i++)
        pthread_create(&t[i], NULL, parked_big_writer, h);
    pthread_barrier_wait(&recorded);
    CHECK(total(h) == PARKED * 1000);
    size_t before = heap_in_use();
    picollo_histogram_free(h);
    size_t after = heap_in_use();
    size_t shards = (size_t)PARKED * info.storage_len * 8;
    if (!quick)
        CHECKF(before >= after && before - after >= shards,
               "bytes in use went from %zu to %zu; the shards take %zu", before, after, shards);
    pthread_barrier_wait(&released);
    for (int i = 0; i < PARKED; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&recorded);
    pthread_barrier_destroy(&released);
}

int main(int argc, char **argv)
{
    quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    /* A fork() that never returns (a prepare handler waiting forever) ends here. */
    alarm(quick ? 600 : 300);
    check_init();
    test_free_with_parked_threads();
    test_fork_during_resets(quick ? 3 : 30);
    test_fork_thread_local(quick ? 3 : 30);
    return check_finish();
}

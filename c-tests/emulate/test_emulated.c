/*
 * test_emulated.c: run under qemu-x86_64 or qemu-aarch64 with picollo_qemu_plugin.so
 * (scripts/emulate.sh). Checks that the counts are exact, against loops of a known
 * instruction count (emulated_asm.h): between two requests, n chain steps are exactly
 * 3n + 4 instructions, every time (P0 = P50 = P100 over 20 repeats); read through libc, a
 * read pair costs the same every time and 1000 chain steps add exactly 3000; two threads
 * doing known, different work each see exactly their own; with mem=on a strided loop of n
 * loads (or stores) adds exactly n of them and none of the other kind, and a compiled copy
 * loop adds one of each per step. The records' flags say what runs, `reserved` is 0.
 * Without the plugin it says so and exits 77; a plugin writing another record version is
 * refused by name (exit 3).
 */
#include "emulated_guest.h"

#include <pthread.h>

#define REPEATS 20

/* What a bracket_* loop measures: instructions, loads or stores. */
enum what { INSTRUCTIONS, LOADS, STORES };

/* One bracketed loop of n steps: `kind` 0 chain, 1 loads, 2 stores, 3 (x86-64) a step
 * with an instruction across a page boundary; the delta of `what`. */
static unsigned long long bracket(int kind, unsigned long n, enum what what)
{
    static unsigned long cells[1];
    picollo_emulated_counts d;
    if (kind == 0) {
        bracket_chain(guest_pipe[1], n);
#if defined(__x86_64__)
    } else if (kind == 3) {
        bracket_crossing(guest_pipe[1], n);
#endif
    } else if (kind == 1) {
        bracket_loads(guest_pipe[1], cells, n, 0);
    } else {
        bracket_stores(guest_pipe[1], cells, n, 0);
    }
    guest_bracket_delta(&d);
    return what == LOADS ? d.loads : what == STORES ? d.stores : d.instructions;
}

/* REPEATS brackets must all give `want`. */
static void exact_bracket(int kind, unsigned long n, enum what what, unsigned long long want)
{
    for (int i = 0; i < REPEATS; i++) {
        unsigned long long got = bracket(kind, n, what);
        CHECK(got == want, "loop %d of %lu steps, counter %d, repeat %d: %llu, want %llu", kind,
              n, what, i, got, want);
    }
}

/* Instructions (what 0), or loads (1) and stores (2) of a compiled copy loop, between two
 * reads through libc around n steps. */
static unsigned long long libc_pair(unsigned long n, int what)
{
    static volatile unsigned long cells[2];
    picollo_emulated_counts a = guest_counts(), b;
    if (what == 0) {
        chain_steps(n);
    } else {
        for (unsigned long i = 0; i < n; i++) {
            cells[1] = cells[0];
        }
    }
    b = guest_counts();
    return what == 1 ? b.loads - a.loads : what == 2 ? b.stores - a.stores
                                                     : b.instructions - a.instructions;
}

/* REPEATS libc_pair(n, what), all equal (P0 = P50 = P100): that value. */
static unsigned long long libc_exact(unsigned long n, int what)
{
    unsigned long long first = libc_pair(n, what), lo = first, hi = first;
    for (int i = 1; i < REPEATS; i++) {
        unsigned long long v = libc_pair(n, what);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    CHECK(lo == hi, "n=%lu what=%d: from %llu to %llu over %d repeats", n, what, lo, hi,
          REPEATS);
    return lo;
}

struct work {
    unsigned long n;
    int turn; /* which of the two turns this worker measures in */
    unsigned long long seen;
    unsigned long long thread;
};

/* Both workers are alive while either measures (an exited thread's index is reused). */
static pthread_barrier_t together;

/* A thread's own bracketed chain (the pipe is shared: a barrier keeps the pairs apart). */
static void *worker(void *arg)
{
    struct work *w = arg;
    picollo_emulated_counts d;
    for (int turn = 0; turn < 2; turn++) {
        pthread_barrier_wait(&together);
        if (turn == w->turn) {
            bracket_chain(guest_pipe[1], w->n);
            guest_bracket_delta(&d);
            w->seen = d.instructions;
            w->thread = d.thread;
        }
    }
    pthread_barrier_wait(&together);
    return NULL;
}

/* Two threads, 5000 and 7000 steps: each sees exactly its own, in its own counter. */
static void check_threads(void)
{
    struct work w[2] = {{5000, 0, 0, 0}, {7000, 1, 0, 0}};
    pthread_t t[2];
    pthread_barrier_init(&together, NULL, 2);
    for (int i = 0; i < 2; i++) {
        pthread_create(&t[i], NULL, worker, &w[i]);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
    }
    for (int i = 0; i < 2; i++) {
        CHECK(w[i].seen == CHAIN_STEP * w[i].n + BRACKET_BASE, "thread %d (%lu steps): %llu", i,
              w[i].n, w[i].seen);
    }
    CHECK(w[0].thread != w[1].thread && w[0].thread != 0 && w[1].thread != 0,
          "three threads, three counters (%llu, %llu)", w[0].thread, w[1].thread);
    printf("emulated: threads of 5000 and 7000 steps saw %llu and %llu (vCPUs %llu, %llu)\n",
           w[0].seen, w[1].seen, w[0].thread, w[1].thread);
}

/* With mem=on: strided loads and stores, and a compiled copy loop, counted exactly. */
static void check_memory(void)
{
    exact_bracket(1, 1000, LOADS, 1000);
    exact_bracket(1, 1000, STORES, 0);
    exact_bracket(1, 1000, INSTRUCTIONS, ACCESS_STEP * 1000 + BRACKET_BASE);
    exact_bracket(2, 1000, STORES, 1000);
    exact_bracket(2, 1000, LOADS, 0);
    exact_bracket(0, 1000, LOADS, 0);
    unsigned long long l = libc_exact(1000, 1) - libc_exact(0, 1);
    unsigned long long s = libc_exact(1000, 2) - libc_exact(0, 2);
    CHECK(l == 1000 && s == 1000, "1000 copies: %llu loads, %llu stores", l, s);
    printf("emulated: 1000 strided loads or stores add exactly 1000 of their kind, 0 of the "
           "other; 1000 copies add %llu loads and %llu stores\n", l, s);
}

/* The first record: flags, thread 0, geometry only with the cache model, reserved 0. */
static picollo_emulated_counts check_first_record(void)
{
    picollo_emulated_counts r = guest_counts();
    CHECK(r.thread == 0, "the main thread is vCPU %llu", (unsigned long long)r.thread);
    CHECK((r.flags & PICOLLO_EMULATED_INCOMPLETE) == 0, "flags %#llx",
          (unsigned long long)r.flags);
    CHECK(r.reserved == 0, "reserved %llu", (unsigned long long)r.reserved);
    if (!(r.flags & PICOLLO_EMULATED_L1D)) {
        CHECK(r.l1d_misses == 0 && r.l1d_bytes == 0 && r.l1d_ways == 0 && r.l1d_line == 0,
              "no cache model, yet l1d fields");
    }
    if (!(r.flags & PICOLLO_EMULATED_MEMORY)) {
        CHECK(r.loads == 0 && r.stores == 0, "mem=off, yet %llu loads",
              (unsigned long long)r.loads);
    }
    return r;
}

int main(void)
{
    guest_open();
    picollo_emulated_counts first = check_first_record();
    for (unsigned long n = 0; n <= 100000; n = n ? n * 100 : 10) {
        exact_bracket(0, n, INSTRUCTIONS, CHAIN_STEP * n + BRACKET_BASE);
    }
#if defined(__x86_64__)
    for (unsigned long n = 10; n <= 100000; n *= 100) {
        exact_bracket(3, n, INSTRUCTIONS, CROSSING_STEP * n + BRACKET_BASE + 1);
    }
    printf("emulated: a loop step with an instruction across a page boundary is exactly %d "
           "instructions (n = 10, 1000, 100000)\n", CROSSING_STEP);
#endif
    unsigned long long base = libc_exact(0, 0), step = libc_exact(1000, 0) - base;
    CHECK(step == CHAIN_STEP * 1000, "1000 chain steps through libc reads: %llu", step);
    printf("emulated: between two requests, n chain steps are exactly %dn + %d instructions "
           "(n = 0, 10, 1000, 100000; %d repeats each); through libc a read pair around no "
           "work is %llu, and 1000 steps add %llu\n",
           CHAIN_STEP, BRACKET_BASE, REPEATS, base, step);
    check_threads();
    if (first.flags & PICOLLO_EMULATED_MEMORY) {
        check_memory();
    }
    printf("%s\n", failures ? "emulated: FAILED" : "emulated: ok");
    return failures ? 1 : 0;
}

/*
 * suite_sample.c: a C suite as its users write it (PICOLLO_BENCH, PICOLLO_BENCH_MAIN), run
 * by c-tests/suite.sh as a program: its list, a filter, --test, a short measurement, and two
 * builds through --against. Built with -DSLOWER, `spin_200` does eight times the work (a
 * slower build); with -DFAILING, a benchmark fails through picollo_suite_fail; with -DPARAMS, a
 * benchmark of parameters with a throughput (PICOLLO_BENCH_PARAMS, PICOLLO_BENCH_THROUGHPUT).
 */
#include "picollo_suite.h"

/* `n` dependent additions. */
static void spin(uint64_t n) {
    uint64_t x = 0;
    for (uint64_t i = 0; i < n; i++) {
        x += i;
        picollo_do_not_optimize(x);
    }
}

PICOLLO_BENCH(sum_1000, k) {
    static uint64_t values[1000];
    for (uint64_t i = 0; i < k; i++) {
        uint64_t sum = 0;
        picollo_do_not_optimize(values); /* values the compiler cannot know */
        for (size_t j = 0; j < 1000; j++) {
            sum += values[j];
        }
        picollo_do_not_optimize(sum);
    }
}

#if defined(MUCH_SLOWER)
#define SPIN 200000
#elif defined(SLOWER)
#define SPIN 1600
#else
#define SPIN 200
#endif

PICOLLO_BENCH(spin_200, k) {
    for (uint64_t i = 0; i < k; i++) {
        spin(SPIN);
    }
}

#ifdef FAILING
PICOLLO_BENCH(fails, k) {
    (void)k;
    picollo_suite_fail("the result was wrong, as the test asked");
}
#endif

#ifdef PARAMS
/* copy/64 and copy/4096: one operation copies n bytes. */
PICOLLO_BENCH_PARAMS(copy, n, k, 64, 4096) {
    static unsigned char from[4096], to[4096];
    for (uint64_t i = 0; i < k; i++) {
        picollo_do_not_optimize(from);
        memcpy(to, from, n);
        picollo_do_not_optimize(to);
    }
}
PICOLLO_BENCH_THROUGHPUT(copy, "bytes", 1)
PICOLLO_BENCH_THROUGHPUT(sum_1000, "elements", 1000)
#endif

PICOLLO_BENCH_MAIN()

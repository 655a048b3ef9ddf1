/*
 * test_emulated_bench.c: the C ABI's harness on exact counts, run under QEMU's user mode
 * with Picollo's plugin (`picollo emulate -- test_emulated_bench`, scripts/emulated-paths.sh;
 * x86_64 and aarch64). The work is a chain of adds of a known instruction count
 * (emulated_asm.h); the checks:
 *   - picollo_bench_run: Emulated:Instructions is exact, constant, and P0 = P50 = P100
 *     (picollo_bench_result_percentile) equal it; 2000 steps more per call add exactly
 *     CHAIN_STEP * 2000;
 *   - 20 picollo_bench_compare_run of the chain against itself: the constants equal, and
 *     the comparison's text says `exact: no difference … [0, 0]`;
 *   - 20 against the chain and one `nop` more: exactly 1 more per call, every time.
 * Natively it says why it cannot run and exits 77 (the status and message of the counter).
 */
#include "emulated_guest.h" /* first: it defines _GNU_SOURCE */

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "picollo.h"

/* `iterations` calls of a chain of *(unsigned long *)ctx steps. */
static void chain(void *ctx, uint64_t iterations)
{
    for (uint64_t i = 0; i < iterations; i++) {
        chain_steps(*(unsigned long *)ctx);
    }
}

/* The same, and one `nop` more a call. */
static void chain_nop(void *ctx, uint64_t iterations)
{
    for (uint64_t i = 0; i < iterations; i++) {
        chain_steps(*(unsigned long *)ctx);
        __asm__ volatile("nop");
    }
}

/* Short runs: the emulator is several times slower than the machine. */
static picollo_bench_config config(uint64_t seed)
{
    picollo_bench_config c = picollo_bench_config_default();
    c.counters = "Emulated:Instructions";
    c.samples = 300;
    c.time_budget = 0.2;
    c.warmup = 0.02;
    c.rounds = 10;
    c.seed = seed;
    return c;
}

/* Metric 1 (the instructions) of `r`: exact, constant; P0 = P50 = P100 = the constant. */
static double exact_constant(const picollo_bench_result *r)
{
    uint32_t exact = 0;
    double constant = NAN, p[3];
    const double ranks[3] = {0.0, 50.0, 100.0};
    CHECK(picollo_bench_result_metric_exact(r, 1, &exact) == PICOLLO_STATUS_OK && exact == 1,
          "metric 1 exact: %u", exact);
    CHECK(picollo_bench_result_constant(r, 1, &constant) == PICOLLO_STATUS_OK &&
              !isnan(constant),
          "a constant: %f", constant);
    for (int i = 0; i < 3; i++) {
        CHECK(picollo_bench_result_percentile(r, 1, ranks[i], &p[i]) == PICOLLO_STATUS_OK &&
                  p[i] == constant,
              "P%g %f, constant %f", ranks[i], p[i], constant);
    }
    return constant;
}

/* One run of `steps` a call, `batch` calls a sample (0: the harness's choice): its exact
 * instructions per call (77 when not emulated). */
static double run(unsigned long steps, uint64_t batch)
{
    picollo_bench_config c = config(0);
    c.batch = batch;
    picollo_bench_result *r = NULL;
    picollo_status st = picollo_bench_run(&c, chain, &steps, &r);
    double v;
    if (st == PICOLLO_STATUS_UNSUPPORTED) {
        printf("emulated-bench: SKIPPED: %s\n", picollo_last_error_message());
        exit(77);
    }
    CHECK(st == PICOLLO_STATUS_OK, "picollo_bench_run: %d", (int)st);
    v = exact_constant(r);
    picollo_bench_result_free(r);
    return v;
}

/* 20 comparisons of the chain against itself (`nop` 0) or with one `nop` more (1): how
 * many gave exactly `nop` more per call, with the text's exact line. */
static int compared(int nop)
{
    unsigned long steps = 100;
    int exact = 0;
    /* Below 1,000 a figure shows three decimals. */
    const char *line = nop ? "(B − A = +1.000, [+1.000, +1.000])" : "(B − A = 0, [0, 0])";
    for (uint64_t seed = 1; seed <= 20; seed++) {
        picollo_bench_config c = config(seed);
        picollo_bench_result *a = NULL, *b = NULL;
        static char text[1 << 16];
        picollo_status st = picollo_bench_compare_run(&c, "A", chain, &steps, "B",
                                                      nop ? chain_nop : chain, &steps, &a, &b);
        CHECK(st == PICOLLO_STATUS_OK, "picollo_bench_compare_run: %d", (int)st);
        if (st != PICOLLO_STATUS_OK) {
            continue;
        }
        double va = exact_constant(a), vb = exact_constant(b);
        st = picollo_bench_compare(a, b, text, sizeof text, NULL, NULL, NULL);
        CHECK(st == PICOLLO_STATUS_OK, "picollo_bench_compare: %d", (int)st);
        exact += vb - va == (double)nop && strstr(text, line) != NULL;
        if (vb - va != (double)nop || strstr(text, line) == NULL) {
            printf("seed %llu: %f against %f; the comparison's exact line:\n%s\n",
                   (unsigned long long)seed, vb, va, strstr(text, "exact:"));
        }
        picollo_bench_result_free(a);
        picollo_bench_result_free(b);
    }
    return exact;
}

int main(void)
{
    double one = run(1000, 0), two = run(3000, 0);
    CHECK(two - one == CHAIN_STEP * 2000, "1000 and 3000 steps a call: %f and %f", one, two);
    /* Whatever the batch, the same whole count a call: a batch's fixed part that one
     * instruction of the harness's own parts from the calibration's shows as 1/k. */
    for (uint64_t k = 1; k <= 3; k++) {
        double v = run(1000, k);
        CHECK(v == one, "1000 steps in batches of %llu: %f a call, %f in the harness's batch",
              (unsigned long long)k, v, one);
    }
    printf("emulated-bench: %.0f and %.0f instructions per call for 1000 and 3000 steps "
           "(P0 = P50 = P100): exactly %.0f apart\n",
           one, two, two - one);
    int same = compared(0), more = compared(1);
    CHECK(same == 20, "A/A: %d of 20 exact [0, 0]", same);
    CHECK(more == 20, "one nop more: %d of 20 exactly +1", more);
    printf("emulated-bench: A/A [0, 0] in %d of 20; one nop more +1 in %d of 20\n", same, more);
    printf("%s\n", failures ? "emulated-bench: FAILED" : "emulated-bench: ok");
    return failures ? 1 : 0;
}

/*
 * picollo_suite.h: a benchmark suite in C (or C++) on top of picollo.h's `picollo_suite_*`:
 * `PICOLLO_BENCH(name, k) { ... }` registers a benchmark whose body runs `k` operations,
 * `PICOLLO_BENCH_MAIN()` writes the `main` that runs them all as the command line says
 * (docs/suites.md):
 *
 *     #include <picollo/picollo_suite.h>
 *     PICOLLO_BENCH(sum_1000, k) {
 *         for (uint64_t i = 0; i < k; i++) { ... }
 *     }
 *     PICOLLO_BENCH_PARAMS(copy, n, k, 1024, 65536) {   // copy/1024 and copy/65536
 *         for (uint64_t i = 0; i < k; i++) { ... n bytes ... }
 *     }
 *     PICOLLO_BENCH_THROUGHPUT(copy, "bytes", 1)          // 1 × n bytes an operation
 *     PICOLLO_BENCH_MAIN()
 *
 * `./suite` measures every benchmark, `./suite --test` runs each once, `./suite --list`,
 * `./suite FILTER`, `./suite --against OTHER_BUILD` judges each against another build's.
 * Written by hand beside the generated picollo.h; needs GCC or Clang (a constructor per
 * benchmark registers it before `main`, in the order of the file; across files, in the order
 * the linker runs them).
 */
#ifndef PICOLLO_SUITE_H
#define PICOLLO_SUITE_H

#include <stdio.h>
#include <string.h>

#include "picollo.h"

#ifdef __cplusplus
/* In C++, a benchmark's exception stops at its work and fails it (picollo_suite_fail). */
#include "picollo.hpp"
#define PICOLLO_BENCH_CALL(body, k) picollo::detail::run_in_suite(body, k)
#define PICOLLO_BENCH_CALL_P(body, p, k)                                                       \
    do {                                                                                       \
        auto picollo_bound = [&](uint64_t picollo_k) { body(p, picollo_k); };                  \
        picollo::detail::run_in_suite(picollo_bound, k);                                       \
    } while (0)
#else
#define PICOLLO_BENCH_CALL(body, k) body(k)
#define PICOLLO_BENCH_CALL_P(body, p, k) body(p, k)
#endif

#if !defined(__GNUC__) && !defined(__clang__)
#error "picollo_suite.h registers benchmarks with __attribute__((constructor)): build with GCC or Clang"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A registered benchmark: a node of the program's one list; with `nparams` parameters, one
 * benchmark `name/param` a parameter, whose work gets a pointer to it as its context; with a
 * `unit`, the work of one operation (`per_operation`, times the parameter where there are
 * parameters). */
typedef struct picollo_bench_entry {
    const char *name;
    picollo_bench_work work;
    struct picollo_bench_entry *next;
    const uint64_t *params;
    size_t nparams;
    const char *unit;
    uint64_t per_operation;
} picollo_bench_entry;

/* The program's list of benchmarks and where the next one goes: weak, so that every
 * translation unit that includes this header shares one definition. */
__attribute__((weak)) picollo_bench_entry *picollo_bench_first;
__attribute__((weak)) picollo_bench_entry **picollo_bench_next;

/* Appends `entry` to the program's list (from the constructors PICOLLO_BENCH writes). */
static inline void picollo_bench_register(picollo_bench_entry *entry) {
    if (picollo_bench_next == NULL) {
        picollo_bench_next = &picollo_bench_first;
    }
    *picollo_bench_next = entry;
    picollo_bench_next = &entry->next;
}

/* Keeps the compiler from optimizing away `value` or the work that made it. */
#define picollo_do_not_optimize(value) __asm__ __volatile__("" : : "g"(value) : "memory")

/* Registers benchmark `id` (its name in the suite): the block that follows is its body, which
 * runs `k` operations (a `uint64_t`). */
#define PICOLLO_BENCH(id, k)                                                                   \
    static void picollo_bench_body_##id(uint64_t k);                                           \
    static void picollo_bench_work_##id(void *ctx, uint64_t iterations) {                      \
        (void)ctx;                                                                             \
        PICOLLO_BENCH_CALL(picollo_bench_body_##id, iterations);                               \
    }                                                                                          \
    static picollo_bench_entry picollo_bench_entry_##id = {                                    \
        #id, picollo_bench_work_##id, NULL, NULL, 0, NULL, 0};                                 \
    __attribute__((constructor)) static void picollo_bench_add_##id(void) {                    \
        picollo_bench_register(&picollo_bench_entry_##id);                                     \
    }                                                                                          \
    static void picollo_bench_body_##id(uint64_t k)

/* Registers benchmark `id/p` for each `p` of the list that follows `k` (`uint64_t`s): the
 * block that follows is its body, which runs `k` operations of parameter `p` (a `uint64_t`). */
#define PICOLLO_BENCH_PARAMS(id, p, k, ...)                                                    \
    static void picollo_bench_body_##id(uint64_t p, uint64_t k);                               \
    static void picollo_bench_work_##id(void *ctx, uint64_t iterations) {                      \
        PICOLLO_BENCH_CALL_P(picollo_bench_body_##id, *(const uint64_t *)ctx, iterations);     \
    }                                                                                          \
    static const uint64_t picollo_bench_params_##id[] = {__VA_ARGS__};                         \
    static picollo_bench_entry picollo_bench_entry_##id = {                                    \
        #id, picollo_bench_work_##id, NULL, picollo_bench_params_##id,                         \
        sizeof picollo_bench_params_##id / sizeof picollo_bench_params_##id[0], NULL, 0};      \
    __attribute__((constructor)) static void picollo_bench_add_##id(void) {                    \
        picollo_bench_register(&picollo_bench_entry_##id);                                     \
    }                                                                                          \
    static void picollo_bench_body_##id(uint64_t p, uint64_t k)
/* Declares that one operation of benchmark `id` (after its PICOLLO_BENCH or
 * PICOLLO_BENCH_PARAMS, in the same file) handles `n` of `unit`, "elements" or "bytes" (`n`
 * times the parameter for a benchmark of parameters): its results carry the library's rate
 * (picollo_suite_set_throughput). */
#define PICOLLO_BENCH_THROUGHPUT(id, unit_name, n)                                             \
    __attribute__((constructor)) static void picollo_bench_throughput_##id(void) {             \
        picollo_bench_entry_##id.unit = unit_name;                                             \
        picollo_bench_entry_##id.per_operation = n;                                            \
    }
/* Adds entry `e` to `suite`: the benchmark, or one a parameter, each with its throughput. */
static inline picollo_status picollo_bench_add_entry(picollo_suite *suite, const picollo_bench_entry *e) {
    if (e->nparams == 0) {
        picollo_status st = picollo_suite_add(suite, e->name, e->work, NULL);
        if (st == PICOLLO_STATUS_OK && e->unit) {
            st = picollo_suite_set_throughput(suite, e->name, NULL, e->unit, e->per_operation);
        }
        return st;
    }
    for (size_t i = 0; i < e->nparams; i++) {
        char param[24];
        snprintf(param, sizeof param, "%llu", (unsigned long long)e->params[i]);
        picollo_status st = picollo_suite_add_param(suite, e->name, param, e->work, (void *)&e->params[i]);
        if (st == PICOLLO_STATUS_OK && e->unit) {
            st = picollo_suite_set_throughput(suite, e->name, param, e->unit, e->per_operation * e->params[i]);
        }
        if (st != PICOLLO_STATUS_OK) {
            return st;
        }
    }
    return PICOLLO_STATUS_OK;
}
/* Runs the registered benchmarks as `argv` says (`picollo_suite_main`), with `config`'s
 * settings (NULL: `picollo_bench_config_default()`, which notes a build of this file without
 * optimization); the suite is named after the program (its outputs go to
 * `.picollo/PROGRAM/`). Returns the exit status. */
static inline int picollo_bench_main(int argc, char **argv, const picollo_bench_config *config) {
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    const char *name = argc > 0 ? (slash ? slash + 1 : argv[0]) : "suite";
    picollo_bench_config defaults = picollo_bench_config_default();
    picollo_suite *suite = NULL;
    picollo_status st = picollo_suite_new(name, &suite);
    if (st == PICOLLO_STATUS_OK) {
        st = picollo_suite_set_config(suite, config ? config : &defaults);
    }
    for (picollo_bench_entry *e = picollo_bench_first; e && st == PICOLLO_STATUS_OK; e = e->next) {
        st = picollo_bench_add_entry(suite, e);
    }
    if (st != PICOLLO_STATUS_OK) {
        fprintf(stderr, "error: %s\n", picollo_last_error_message());
        picollo_suite_free(suite);
        return 2;
    }
    fflush(stdout); /* what the program printed goes first */
    int status = picollo_suite_main(suite, argc, (const char *const *)argv);
    picollo_suite_free(suite);
    return status;
}

/* The program's `main`: every registered benchmark, run as the command line says. */
#define PICOLLO_BENCH_MAIN()                                                                   \
    int main(int argc, char **argv) { return picollo_bench_main(argc, argv, NULL); }

#ifdef __cplusplus
}
#endif

#endif /* PICOLLO_SUITE_H */

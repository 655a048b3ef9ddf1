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
#else
#define PICOLLO_BENCH_CALL(body, k) body(k)
#endif

#if !defined(__GNUC__) && !defined(__clang__)
#error "picollo_suite.h registers benchmarks with __attribute__((constructor)): build with GCC or Clang"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A registered benchmark: a node of the program's one list. */
typedef struct picollo_bench_entry {
    const char *name;
    picollo_bench_work work;
    struct picollo_bench_entry *next;
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
    static picollo_bench_entry picollo_bench_entry_##id = {#id, picollo_bench_work_##id, NULL}; \
    __attribute__((constructor)) static void picollo_bench_add_##id(void) {                    \
        picollo_bench_register(&picollo_bench_entry_##id);                                     \
    }                                                                                          \
    static void picollo_bench_body_##id(uint64_t k)

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
        st = picollo_suite_add(suite, e->name, e->work, NULL);
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

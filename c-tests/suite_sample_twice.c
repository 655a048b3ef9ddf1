/*
 * suite_sample_twice.c: a second file of the C sample suite that registers a benchmark of a
 * name the first already has (each file's own static function): the suite refuses to run,
 * exit status 2 (c-tests/suite.sh).
 */
#include "picollo_suite.h"

PICOLLO_BENCH(sum_1000, k) {
    picollo_do_not_optimize(k);
}

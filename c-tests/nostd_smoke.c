/*
 * nostd_smoke.c: links the #![no_std] guard crate's static library (core/no-std-check, no std,
 * no allocator) into a C program and checks its exports: a histogram on the stack rendering
 * its table into a caller buffer, a histogram over `static` storage, and a histogram whose
 * range is chosen at run time over a `heapless::Vec` writing its line into a `heapless::String`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exported by core/no-std-check/src/lib.rs. */
size_t nostd_table(const uint64_t *values, size_t n, unsigned char *out, size_t cap);
uint64_t nostd_static_record(uint64_t v);
size_t nostd_line(const uint64_t *values, size_t n, uint64_t max, unsigned char *out, size_t cap);

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "nostd smoke: FAIL: %s\n", what);
        failures++;
    }
}

int main(void)
{
    /* Range 10,000..30,000 at 1 %: 5,000 is below, 40,000 above. */
    const uint64_t values[] = {24900, 20000, 20001, 29999, 5000, 40000};
    unsigned char out[4096];
    char text[sizeof out + 1];
    size_t n;

    n = nostd_table(values, sizeof values / sizeof values[0], out, sizeof out);
    check(n > 0 && n < sizeof out, "nostd_table wrote a table");
    memcpy(text, out, n);
    text[n] = '\0';
    check(strncmp(text, "##### no_std\n| Percentile ", 26) == 0, "heading and header row");
    check(strstr(text, "| 100 ") != NULL && strstr(text, " 24,960 |") != NULL,
          "P100 is the midpoint of 24,900's bucket");
    check(strstr(text, "| Underflow ") != NULL && strstr(text, "| Overflow ") != NULL,
          "underflow and overflow rows");
    check(strstr(text, " 0.7813% ") != NULL && strstr(text, "| Total: ") != NULL,
          "precision and total");
    /* Too small a buffer: the writer refuses rather than overrunning. */
    check(nostd_table(values, 2, out, 10) == 0, "a 10-byte buffer is refused");

    /* The histogram in a `static` (built by a const fn) keeps its counts across calls; each
     * call returns the running total of values inside the range. */
    check(nostd_static_record(24900) == 1, "static histogram: a value inside the range");
    check(nostd_static_record(10000) == 2, "static histogram: the smallest trackable value");
    check(nostd_static_record(30000) == 3, "static histogram: the largest trackable value");
    check(nostd_static_record(40000) == 3, "static histogram: overflow is not in the total");
    check(nostd_static_record(9000) == 3, "static histogram: underflow is not in the total");

    /* A range chosen at run time under a compile-time cap of 512 counters. */
    n = nostd_line(values, sizeof values / sizeof values[0], 30000, out, sizeof out);
    check(n > 0 && n < sizeof out, "nostd_line wrote a line");
    memcpy(text, out, n);
    text[n] = '\0';
    check(strncmp(text, "no_std: Total=4, Overflow=1, Underflow=1, Mean=", 47) == 0,
          "the heapless histogram counted 4 inside, 1 above and 1 below");
    check(strstr(text, "P100=30,080") != NULL, "P100 is the midpoint of 29,999's bucket");
    check(nostd_line(values, 2, UINT64_MAX, out, sizeof out) == 0,
          "a range needing more than 512 counters is refused");
    check(nostd_line(values, 2, 30000, out, 10) == 0, "a line longer than the buffer is refused");
    n = nostd_table(values, sizeof values / sizeof values[0], out, sizeof out);
    memcpy(text, out, n);
    text[n] = '\0';

    if (failures == 0) {
        fputs(text, stdout);
        puts("nostd smoke: ok");
    }
    return failures == 0 ? 0 : 1;
}

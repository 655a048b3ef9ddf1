/*
 * nostd_smoke.c: links the #![no_std] guard crate's static library (core/no-std-check, no std,
 * no allocator) into a C program and checks both of its exports: a histogram on the stack
 * rendering its table into a caller buffer, and a histogram over `static` storage.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exported by core/no-std-check/src/lib.rs. */
size_t nostd_table(const uint64_t *values, size_t n, unsigned char *out, size_t cap);
uint64_t nostd_static_record(uint64_t v);

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

    if (failures == 0) {
        fputs(text, stdout);
        puts("nostd smoke: ok");
    }
    return failures == 0 ? 0 : 1;
}

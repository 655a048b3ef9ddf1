/*
 * test_l1d.c: the plugin's L1D model (`l1d=on` or `l1d=BYTES:WAYS:LINE`), checked to the
 * miss, with any geometry: the program reads it from the record. A check's passes run back
 * to back in one assembly loop with a request after each (access_passes, emulated_asm.h),
 * so nothing but the passes touches memory between the records; each check starts after a
 * flush (a pass over 2C). With C bytes, W ways, L-byte lines and S = C / (W L) sets:
 *   - streaming over 2C misses once per line on every pass (LRU keeps no line of it);
 *   - C/2, and exactly C, miss once per line on the first pass and never after;
 *   - W + 1 lines of one set (stride S L) miss on every pass, W lines only on the first;
 *   - an 8-byte load across a line boundary misses both lines, then neither;
 *   - stores allocate: loads of lines just stored to do not miss.
 * Without the model it says so and exits 77.
 */
#include "emulated_guest.h"

#include <string.h>

static unsigned long C, W, L, S; /* bytes, ways, line bytes, sets of the model */
static char *buffer;             /* 4C bytes, aligned to C: [0, 2C) flushes, [2C, 4C) tests */

#define MAX_PASSES 3

/* `passes` passes of n 8-byte accesses from p at `stride` (stores for the first `stores`
 * passes, loads after), with nothing between them: the misses of each into misses[]. Each
 * pass's loads and stores must be exact. */
static void run(char *p, unsigned long n, unsigned long stride, unsigned long passes,
                unsigned long stores, unsigned long long *misses)
{
    picollo_emulated_counts r[MAX_PASSES + 1];
    access_passes(guest_pipe[1], p, n, stride, passes, stores);
    for (unsigned long i = 0; i <= passes; i++) {
        r[i] = guest_take();
    }
    for (unsigned long i = 0; i < passes; i++) {
        unsigned long long loads = r[i + 1].loads - r[i].loads;
        unsigned long long stored = r[i + 1].stores - r[i].stores;
        CHECK(loads == (i < stores ? 0 : n) && stored == (i < stores ? n : 0),
              "pass %lu of %lu accesses: %llu loads, %llu stores", i + 1, n, loads, stored);
        misses[i] = r[i + 1].l1d_misses - r[i].l1d_misses;
    }
}

/* Evicts every line of the tests' half of the buffer: a pass over 2C leaves in each set
 * only lines of the first half. */
static void flush(void)
{
    unsigned long long misses[1];
    run(buffer, 2 * C / L, L, 1, 0, misses);
}

/* After a flush, `passes` passes (the first `stores` of them stores) of n accesses from p
 * at `stride`: pass i must miss want[i] lines. */
static void expect(const char *name, char *p, unsigned long n, unsigned long stride,
                   unsigned long passes, unsigned long stores, const unsigned long long *want)
{
    unsigned long long got[MAX_PASSES];
    flush();
    run(p, n, stride, passes, stores, got);
    for (unsigned long i = 0; i < passes; i++) {
        CHECK(got[i] == want[i], "%s: pass %lu missed %llu lines, want %llu", name, i + 1,
              got[i], want[i]);
    }
}

/* Streaming, fitting, exact capacity and one set over-full: the capacity and LRU. */
static void check_capacity(void)
{
    char *t = buffer + 2 * C;
    unsigned long long stream[3] = {2 * C / L, 2 * C / L, 2 * C / L};
    unsigned long long half[3] = {C / 2 / L, 0, 0}, full[3] = {C / L, 0, 0};
    unsigned long long over[3] = {W + 1, W + 1, W + 1}, ways[3] = {W, 0, 0};
    expect("streaming over 2C", t, 2 * C / L, L, 3, 0, stream);
    expect("C/2", t, C / 2 / L, L, 3, 0, half);
    expect("exactly C", t, C / L, L, 3, 0, full);
    expect("W + 1 lines of one set", t, W + 1, S * L, 3, 0, over);
    expect("W lines of one set", t, W, S * L, 3, 0, ways);
    printf("l1d: streaming over %lu bytes misses %llu lines per pass, every pass; %lu and %lu "
           "bytes miss %llu and %llu lines cold, then 0; %lu lines of one set miss %lu every "
           "pass, %lu lines only cold\n",
           2 * C, stream[0], C / 2, C, half[0], full[0], W + 1, W + 1, W);
}

/* An access across a line boundary, and stores that allocate their lines. */
static void check_span_and_stores(void)
{
    char *t = buffer + 2 * C;
    unsigned long off = L - 4; /* an 8-byte load at bytes L-4 .. L+3 of t */
    unsigned long long lines = (off + 7) / L - off / L + 1, span[2] = {lines, 0};
    unsigned long long stores[2] = {C / 2 / L, 0};
    expect("an 8-byte load across a line boundary", t + off, 1, 0, 2, 0, span);
    expect("stores, then loads of the same lines", t, C / 2 / L, L, 2, 1, stores);
    printf("l1d: an 8-byte load across a line boundary misses %llu lines, then 0; a store "
           "pass over %llu lines misses %llu, loads of them after it 0 (write-allocate)\n",
           lines, stores[0], stores[0]);
}

int main(void)
{
    guest_open();
    picollo_emulated_counts r = guest_counts();
    if (!(r.flags & PICOLLO_EMULATED_L1D)) {
        printf("the plugin runs no cache model: run it with l1d=on or l1d=BYTES:WAYS:LINE\n");
        return 77;
    }
    C = r.l1d_bytes, W = r.l1d_ways, L = r.l1d_line, S = C / (W * L);
    CHECK(r.flags & PICOLLO_EMULATED_MEMORY, "l1d without counting loads and stores");
    printf("l1d: the model is %lu bytes, %lu ways, %lu-byte lines (%lu sets)\n", C, W, L, S);
    buffer = aligned_alloc(C, 4 * C);
    if (buffer == NULL) {
        return 2;
    }
    memset(buffer, 1, 4 * C);
    check_capacity();
    check_span_and_stores();
    printf("%s\n", failures ? "l1d: FAILED" : "l1d: ok");
    return failures ? 1 : 0;
}

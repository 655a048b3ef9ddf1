/* `bench record`'s C contenders, compiled against include/picollo.h: `c`, the call
 * picollo_histogram_record(h, v) as a C caller writes it (the header's macro makes it an
 * inline call of the handle's record function), and `c_fn`, the same loop calling a record
 * function the caller holds (`picollo_histogram_record_fn(h)`, passed in): what the header's
 * call adds, with the loop's code placement alike; `c_inline`, the header's inline recorder
 * (picollo_recorder_record), which counts in place with no call. ffi/build.rs compiles this
 * file with the system's C compiler at -O2 and links it into the record bench's binary beside
 * the Rust loops; the loops need no symbol of the library. */
#include <stddef.h>
#include <stdint.h>

#include "picollo.h"

/* Both loops start a 64-byte line, so that their placement is alike: on an AMD EPYC (Zen 4)
 * VM the header's loop measured 0.22-0.30 ns above the other where they were not, 0.03-0.08
 * where they are. */
#define LOOP __attribute__((aligned(64)))

LOOP void picollo_bench_header_record_all(picollo_histogram *h, const uint64_t *values,
                                          size_t n, picollo_record_fn unused)
{
    (void)unused;
    for (size_t i = 0; i < n; i++) {
        picollo_histogram_record(h, values[i]);
    }
}

LOOP void picollo_bench_fn_record_all(picollo_histogram *h, const uint64_t *values, size_t n,
                                      picollo_record_fn f)
{
    for (size_t i = 0; i < n; i++) {
        f(h, values[i]);
    }
}

/* The header's inline recorder over a copy of `*rec` in a local whose address goes nowhere
 * but the inline function (as picollo_recorder_of returns it), so that its fields stay in
 * registers. The recorder comes from the caller: this file calls nothing of the library. */
LOOP void picollo_bench_inline_record_all(const picollo_recorder *rec, const uint64_t *values,
                                          size_t n)
{
    const picollo_recorder r = *rec;
    for (size_t i = 0; i < n; i++) {
        picollo_recorder_record(&r, values[i]);
    }
}

/* `bench record`'s C contenders, compiled against include/picollo.h: `c`, the call
 * picollo_histogram_record(h, v) as a C caller writes it (the header's macro makes it an
 * inline call of the handle's record function), and `c_fn`, the same loop calling a record
 * function the caller holds (`picollo_histogram_record_fn(h)`, passed in): what the header's
 * call adds, with the loop's code placement alike. ffi/build.rs compiles this file with the
 * system's C compiler at -O2 and links it into the record bench's binary beside the Rust
 * loops; the loops need no symbol of the library. */
#include <stddef.h>
#include <stdint.h>

#include "picollo.h"

void picollo_bench_header_record_all(picollo_histogram *h, const uint64_t *values, size_t n,
                                     picollo_record_fn unused)
{
    (void)unused;
    for (size_t i = 0; i < n; i++) {
        picollo_histogram_record(h, values[i]);
    }
}

void picollo_bench_fn_record_all(picollo_histogram *h, const uint64_t *values, size_t n,
                                 picollo_record_fn f)
{
    for (size_t i = 0; i < n; i++) {
        f(h, values[i]);
    }
}

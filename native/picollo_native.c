/* See picollo_native.h. The seqlock loop follows the perf_event_mmap_page protocol with the
 * sign extension by pmc_width that the header's own pseudo-code leaves out. */
#include "picollo_native.h"

#include <stddef.h>

_Static_assert(offsetof(picollo_mmap_page, lock) == 8, "lock");
_Static_assert(offsetof(picollo_mmap_page, offset) == 16, "offset");
_Static_assert(offsetof(picollo_mmap_page, capabilities) == 40, "capabilities");
_Static_assert(offsetof(picollo_mmap_page, pmc_width) == 48, "pmc_width");
_Static_assert(offsetof(picollo_mmap_page, time_offset) == 56, "time_offset");
_Static_assert(offsetof(picollo_mmap_page, time_cycles) == 80, "time_cycles");
_Static_assert(sizeof(picollo_mmap_page) == 96, "page head");

/* Keeps the compiler from moving page loads across it. The kernel rewrites the page on the
 * reader's own CPU (at schedule-in, on interrupts), and a migration passes through a context
 * switch, a full barrier: program order is all the seqlock needs, on x86-64 and arm64. */
#define BARRIER() __asm__ volatile("" ::: "memory")
/* The kernel writes the page behind our back: every field is read once, through volatile. */
#define LOAD(field) (*(const volatile __typeof__(page->field) *)&page->field)

/* A page that keeps changing this often is being rewritten in a loop: let read(2) decide. */
#define MAX_RETRIES 1000u

uint64_t picollo_native_sign_extend(uint64_t raw, uint32_t width) {
    if (width == 0 || width >= 64) return raw;
    uint32_t shift = 64 - width;
    /* Shift left as unsigned (defined), then right as signed (arithmetic on gcc/clang). */
    return (uint64_t)((int64_t)(raw << shift) >> shift);
}

#if defined(__x86_64__)

static inline uint64_t hw_pmc(void *ctx, uint32_t counter) {
    (void)ctx;
    uint32_t lo, hi;
    __asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
    return lo | ((uint64_t)hi << 32);
}

static inline uint64_t hw_ticks(void *ctx) {
    (void)ctx;
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return lo | ((uint64_t)hi << 32);
}

#elif defined(__aarch64__)

/* mrs names its register in the instruction: one case per event counter number. */
#define EVENT_COUNTER(n) \
    case n: __asm__ volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break;

/* The counter a page's index names: index - 1 is PMEVCNTR<n>_EL0 for n < 31, and 31 (index
 * 32) is PMCCNTR_EL0, the cycle counter. */
static inline uint64_t hw_pmc(void *ctx, uint32_t counter) {
    (void)ctx;
    uint64_t v = 0;
    switch (counter) {
        EVENT_COUNTER(0) EVENT_COUNTER(1) EVENT_COUNTER(2) EVENT_COUNTER(3)
        EVENT_COUNTER(4) EVENT_COUNTER(5) EVENT_COUNTER(6) EVENT_COUNTER(7)
        EVENT_COUNTER(8) EVENT_COUNTER(9) EVENT_COUNTER(10) EVENT_COUNTER(11)
        EVENT_COUNTER(12) EVENT_COUNTER(13) EVENT_COUNTER(14) EVENT_COUNTER(15)
        EVENT_COUNTER(16) EVENT_COUNTER(17) EVENT_COUNTER(18) EVENT_COUNTER(19)
        EVENT_COUNTER(20) EVENT_COUNTER(21) EVENT_COUNTER(22) EVENT_COUNTER(23)
        EVENT_COUNTER(24) EVENT_COUNTER(25) EVENT_COUNTER(26) EVENT_COUNTER(27)
        EVENT_COUNTER(28) EVENT_COUNTER(29) EVENT_COUNTER(30)
        case 31: __asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v)); break;
        default: break; /* no such register: the kernel never gives this index */
    }
    return v;
}

static inline uint64_t hw_ticks(void *ctx) {
    (void)ctx;
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
}

#else
#error "native/ has the counter read and tick clock of x86-64 and arm64 only"
#endif

static inline uint64_t mul_shift(uint64_t a, uint32_t mult, uint32_t shift) {
    return (uint64_t)(((unsigned __int128)a * mult) >> shift);
}

/* count × enabled / running in 128 bits, saturating. Equal times (0 and 0 included: times
 * that did not move) mean the event was not multiplexed: the count stands. running == 0 <
 * enabled means it never ran (multiplexed out the whole time): the answer is 0. */
static inline uint64_t scale(uint64_t count, uint64_t enabled, uint64_t running) {
    if (enabled == running) return count;
    if (running == 0) return 0;
    unsigned __int128 v = (unsigned __int128)count * enabled / running;
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* always_inline with constant sources: the real entry point gets its counter read and tick
 * clock inline. */
static inline __attribute__((always_inline)) uint32_t read_loop(
    const picollo_mmap_page *page, picollo_pmc_source pmc, picollo_tsc_source tsc, void *ctx,
    picollo_page_reading *out) {
    uint32_t seq, idx, retries = 0;
    uint64_t caps, enabled, running, count, cyc = 0;
    uint64_t time_offset = 0, time_cycles = 0, time_mask = 0;
    uint32_t time_mult = 0, time_shift = 0;

    for (;;) {
        seq = LOAD(lock);
        BARRIER();
        caps = LOAD(capabilities);
        enabled = LOAD(time_enabled);
        running = LOAD(time_running);
        idx = LOAD(index);
        count = (uint64_t)LOAD(offset);
        if (!(caps & PICOLLO_CAP_USER_RDPMC) || idx == 0) {
            out->status = (caps & PICOLLO_CAP_USER_RDPMC) ? PICOLLO_PAGE_NOT_SCHEDULED
                                                          : PICOLLO_PAGE_NO_RDPMC;
            out->retries = retries;
            out->count = out->scaled = 0;
            out->enabled = enabled;
            out->running = running;
            return out->status;
        }
        /* The counter register holds only pmc_width bits; its top bit is the sign. */
        count += picollo_native_sign_extend(pmc(ctx, idx - 1), LOAD(pmc_width));
        if (caps & PICOLLO_CAP_USER_TIME) {
            cyc = tsc(ctx);
            time_offset = LOAD(time_offset);
            time_mult = LOAD(time_mult);
            time_shift = LOAD(time_shift);
            time_cycles = LOAD(time_cycles);
            time_mask = LOAD(time_mask);
        }
        BARRIER();
        if (LOAD(lock) == seq) break;
        if (++retries >= MAX_RETRIES) {
            out->status = PICOLLO_PAGE_CONTENDED;
            out->retries = retries;
            out->count = out->scaled = out->enabled = out->running = 0;
            return out->status;
        }
    }

    if (caps & PICOLLO_CAP_USER_TIME) {
        /* The kernel writes the times only at schedule-in, enable and interrupts: between
         * two reads they are stale, and equal when the event is not multiplexed. Bring both
         * to now with the page's clock, so the interval between two reads has its length. */
        if (caps & PICOLLO_CAP_USER_TIME_SHORT)
            cyc = time_cycles + ((cyc - time_cycles) & time_mask);
        uint64_t delta = time_offset + mul_shift(cyc, time_mult, time_shift);
        enabled += delta;
        running += delta; /* idx != 0 here: the event is running now */
    }
    out->count = count;
    out->enabled = enabled;
    out->running = running;
    out->scaled = scale(count, enabled, running);
    out->status = PICOLLO_PAGE_OK;
    out->retries = retries;
    return PICOLLO_PAGE_OK;
}

uint32_t picollo_native_page_read(const picollo_mmap_page *page, picollo_page_reading *out) {
    return read_loop(page, hw_pmc, hw_ticks, NULL, out);
}

uint32_t picollo_native_page_read_with(const picollo_mmap_page *page, picollo_pmc_source pmc,
                                picollo_tsc_source tsc, void *ctx, picollo_page_reading *out) {
    return read_loop(page, pmc, tsc, ctx, out);
}

uint64_t picollo_native_ticks(void) { return hw_ticks(NULL); }

#if defined(__x86_64__)

uint64_t picollo_native_rdtscp(uint32_t *aux) {
    uint32_t lo, hi, c;
    __asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c));
    if (aux) *aux = c;
    return lo | ((uint64_t)hi << 32);
}

void picollo_native_fence(void) { __asm__ volatile("lfence" ::: "memory"); }

uint64_t picollo_native_ticks_begin(void) {
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return lo | ((uint64_t)hi << 32);
}

uint64_t picollo_native_ticks_end(void) {
    uint32_t lo, hi;
    __asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi)::"rcx", "memory");
    return lo | ((uint64_t)hi << 32);
}

void picollo_native_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4]) {
    uint32_t a, b, c, d;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(leaf), "c"(subleaf));
    out[0] = a;
    out[1] = b;
    out[2] = c;
    out[3] = d;
}

uint64_t picollo_native_add_chain(uint64_t blocks) {
    uint64_t acc = 0, one = 1, left = blocks;
    if (left == 0) return 0;
    /* Each add reads the previous result: 256 adds cannot overlap, about 1 cycle each. */
    __asm__ volatile("1:\n\t.rept 256\n\tadd %2, %0\n\t.endr\n\tdec %1\n\tjnz 1b"
                     : "+r"(acc), "+r"(left)
                     : "r"(one)
                     : "cc");
    return acc;
}

#elif defined(__aarch64__)

uint64_t picollo_native_tick_frequency(void) {
    uint64_t v;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
    return v;
}

void picollo_native_fence(void) { __asm__ volatile("isb" ::: "memory"); }

uint64_t picollo_native_ticks_begin(void) {
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
}

uint64_t picollo_native_ticks_end(void) {
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v)::"memory");
    return v;
}

uint64_t picollo_native_add_chain(uint64_t blocks) {
    uint64_t acc = 0, one = 1, left = blocks;
    if (left == 0) return 0;
    /* Each add reads the previous result: 256 adds cannot overlap, about 1 cycle each. */
    __asm__ volatile("1:\n\t.rept 256\n\tadd %0, %0, %2\n\t.endr\n\t"
                     "subs %1, %1, #1\n\tb.ne 1b"
                     : "+r"(acc), "+r"(left)
                     : "r"(one)
                     : "cc");
    return acc;
}

#endif

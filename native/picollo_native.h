/* Picollo native helpers (Linux on x86-64 and arm64): the instructions Rust cannot issue
 * without asm, the seqlock read of a perf_event mmap page, and a fixed-work chain of
 * dependent adds. Compiled by perf/build.rs through the `cc` crate.
 *
 *                    x86-64                      arm64
 *   counter read     rdpmc (ecx = index - 1)     mrs PMEVCNTR<index-1>_EL0; index 32 is
 *                                                PMCCNTR_EL0, the cycle counter
 *   tick clock       rdtsc                       mrs cntvct_el0 (cntfrq_el0 Hz)
 *   fence            lfence                      isb
 *   x86-64 only      rdtscp, cpuid
 */
#ifndef PICOLLO_NATIVE_H
#define PICOLLO_NATIVE_H

#include <stdint.h>

/* The head of `struct perf_event_mmap_page` (linux/perf_event.h), the part a reader uses.
 * Our own declaration so tests can build fake pages; the offsets are checked below. */
typedef struct picollo_mmap_page {
    uint32_t version;
    uint32_t compat_version;
    uint32_t lock;          /* seqlock: changes whenever the kernel updates the page */
    uint32_t index;         /* hardware counter + 1; 0 = not on a counter right now */
    int64_t offset;         /* add the (sign-extended) rdpmc value to get the count */
    uint64_t time_enabled;
    uint64_t time_running;
    uint64_t capabilities;  /* bit 2 cap_user_rdpmc, 3 cap_user_time, 5 cap_user_time_short */
    uint16_t pmc_width;     /* bits of the hardware counter (48 on modern x86, 40 on Core2;
                               32 or 64 on arm64) */
    uint16_t time_shift;
    uint32_t time_mult;
    uint64_t time_offset;
    uint64_t time_zero;
    uint32_t size;
    uint32_t reserved_1;
    uint64_t time_cycles;
    uint64_t time_mask;
} picollo_mmap_page;

#define PICOLLO_CAP_USER_RDPMC (1ull << 2)
#define PICOLLO_CAP_USER_TIME (1ull << 3)
#define PICOLLO_CAP_USER_TIME_ZERO (1ull << 4)
#define PICOLLO_CAP_USER_TIME_SHORT (1ull << 5)

/* Outcome of a page read. Anything but OK means: use read(2) for this counter. */
enum {
    PICOLLO_PAGE_OK = 0,
    PICOLLO_PAGE_NO_RDPMC = 1,       /* cap_user_rdpmc is clear (x86 sysfs rdpmc=0; arm64
                                        perf_user_access=0; a software event) */
    PICOLLO_PAGE_NOT_SCHEDULED = 2,  /* index == 0: the event is not on a counter now */
    PICOLLO_PAGE_CONTENDED = 3,      /* the seqlock kept changing: gave up after many tries */
};

typedef struct picollo_page_reading {
    uint64_t count;    /* offset + sign-extended pmc: the 64-bit count, unscaled */
    uint64_t enabled;  /* time enabled, brought to now when the page has cap_user_time */
    uint64_t running;  /* time running, likewise */
    uint64_t scaled;   /* count × enabled / running; count when equal; 0 when 0 == running < enabled */
    uint32_t status;   /* PICOLLO_PAGE_* */
    uint32_t retries;  /* how often the seqlock made us start over */
} picollo_page_reading;

/* Counter and clock sources, so tests can drive the read loop with a fake page. `counter`
 * is the page's index - 1. */
typedef uint64_t (*picollo_pmc_source)(void *ctx, uint32_t counter);
typedef uint64_t (*picollo_tsc_source)(void *ctx);

/* Read `page` with the real counter read and tick clock of the table above. */
uint32_t picollo_native_page_read(const picollo_mmap_page *page, picollo_page_reading *out);
/* The same loop with stubbed sources (tests). */
uint32_t picollo_native_page_read_with(const picollo_mmap_page *page, picollo_pmc_source pmc,
                                picollo_tsc_source tsc, void *ctx, picollo_page_reading *out);

/* (int64)(raw << (64 - width)) >> (64 - width); width outside 1..64 counts as 64. */
uint64_t picollo_native_sign_extend(uint64_t raw, uint32_t width);

/* The tick clock, unserialized. */
uint64_t picollo_native_ticks(void);
/* fence; ticks: a timestamp no earlier instruction can drift past (start of a region). */
uint64_t picollo_native_ticks_begin(void);
/* Ticks after earlier instructions, then a fence: a timestamp no later instruction can drift
 * before (end of a region). x86-64: rdtscp; lfence. arm64: isb; mrs cntvct_el0; isb. */
uint64_t picollo_native_ticks_end(void);
/* lfence on x86-64, isb on arm64. */
void picollo_native_fence(void);
/* 256 dependent adds per block (about 256 cycles each), the loop itself in asm: every
 * block retires PICOLLO_ADD_CHAIN_BLOCK_INSTRUCTIONS instructions. Returns 256 × blocks. */
uint64_t picollo_native_add_chain(uint64_t blocks);
/* The adds and the loop's decrement and branch. */
#define PICOLLO_ADD_CHAIN_BLOCK_INSTRUCTIONS 258

#if defined(__x86_64__)
/* rdtscp: waits for earlier instructions; `aux` (may be NULL) receives IA32_TSC_AUX. */
uint64_t picollo_native_rdtscp(uint32_t *aux);
/* out[0..4] = eax, ebx, ecx, edx of cpuid(leaf, subleaf). */
void picollo_native_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4]);
#elif defined(__aarch64__)
/* cntfrq_el0: the tick clock's frequency in Hz. */
uint64_t picollo_native_tick_frequency(void);
#endif

#endif

/*
 * emulated_asm.h: loops of a known instruction count, in x86-64 and aarch64 assembly, so a
 * test can assert exact numbers that no compiler choice moves.
 *
 * A bracket_* loop makes the request (PICOLLO_EMULATED_SYSCALL, fd) itself, runs its loop,
 * and makes the request again, touching no memory but the loop's own in between: the two
 * records it leaves in the pipe differ by exactly the loop. From the instruction after the
 * first request to the second request included, both architectures run:
 *   - BRACKET_BASE: a zero test and branch before the loop; after it, setting the number
 *     (and on aarch64 the fd) and the request itself (x86-64: mov, syscall; aarch64: mov,
 *     mov, svc) — 4 in all, on both;
 *   - per step: CHAIN_STEP for a chain of adds (add, decrement, branch), ACCESS_STEP for a
 *     strided load or store (access, advance, decrement, branch).
 * access_passes runs several passes between requests, so that no other access (the test's
 * own, reading the records) comes between one pass and the next.
 */
#ifndef EMULATED_ASM_H
#define EMULATED_ASM_H

#include "picollo_emulated.h"

#define BRACKET_BASE 4
#define CHAIN_STEP 3
#define ACCESS_STEP 4

#if defined(__x86_64__)

/* The request (the number in eax, fd in rdi), and the operands and clobbers it needs. */
#define REQUEST "mov %[nr], %%eax\n\tsyscall"
#define REQUEST_INPUTS [nr] "i"(PICOLLO_EMULATED_SYSCALL), "D"((long)fd)
#define REQUEST_CLOBBERS "rax", "rcx", "r11", "memory"
/* n steps of `step` (then decrement, branch), skipped at n = 0; ends at local label 2. */
#define STEPS(step) "test %[n], %[n]\n\tjz 2f\n1:\n\t" step "\n\tdec %[n]\n\tjnz 1b\n2:"
/* The step bodies: an add to x; a load or a store of 8 bytes at p, then p += stride. */
#define ADD_STEP "add $1, %[x]"
#define LOAD_STEP "mov (%[p]), %%r8\n\tadd %[s], %[p]"
#define STORE_STEP "mov %[n], (%[p])\n\tadd %[s], %[p]"
/* The register LOAD_STEP loads into. */
#define LOAD_SCRATCH "r8"

/* Instructions a step of bracket_crossing runs: nop, add, decrement, branch. */
#define CROSSING_STEP 4

/* Request; n steps of a loop whose second instruction (a 4-byte add after a 1-byte nop at
 * the page's last 4 bytes) crosses into the next 4 KiB page; request. From the first
 * request on, n > 0 runs BRACKET_BASE + 1 (the jump into the loop) + CROSSING_STEP * n.
 * QEMU 7.2 ends a block before such an instruction yet still lists it to plugins: a count
 * per listed instruction would make each step 5. (x86-64 only.) */
static inline void bracket_crossing(int fd, unsigned long n)
{
    __asm__ volatile(REQUEST "\n\t"
                     "test %[n], %[n]\n\tjz 2f\n\tjmp 1f\n\t"
                     ".p2align 12\n\t.skip 4092, 0xcc\n"
                     "1:\n\tnop\n\t.byte 0x49, 0x83, 0xc0, 0x01\n\t" /* add $1, %r8 */
                     "dec %[n]\n\tjnz 1b\n"
                     "2:\n\t" REQUEST
                     : [n] "+r"(n)
                     : REQUEST_INPUTS
                     : REQUEST_CLOBBERS, "r8");
}

/* The text of access_passes (below) and the registers it uses besides the request's. */
#define PASSES                                                                              \
    REQUEST "\n"                                                                            \
    "1:\n\tmov %[n], %%r9\n\tmov %[p], %%r10\n\t"                                           \
    "test %%r9, %%r9\n\tjz 4f\n\ttest %[st], %[st]\n\tjz 3f\n"                              \
    "2:\n\tmov %%r9, (%%r10)\n\tadd %[s], %%r10\n\tdec %%r9\n\tjnz 2b\n\t"                  \
    "dec %[st]\n\tjmp 4f\n"                                                                 \
    "3:\n\tmov (%%r10), %%r8\n\tadd %[s], %%r10\n\tdec %%r9\n\tjnz 3b\n"                    \
    "4:\n\t" REQUEST "\n\tdec %[ps]\n\tjnz 1b"
#define PASSES_SCRATCH "r8", "r9", "r10"

#elif defined(__aarch64__)

/* The request (the number in x8, fd in x0), and the operands and clobbers it needs. */
#define REQUEST "mov x8, %[nr]\n\tmov x0, %[fd]\n\tsvc #0"
#define REQUEST_INPUTS [nr] "r"(PICOLLO_EMULATED_SYSCALL), [fd] "r"((long)fd)
#define REQUEST_CLOBBERS "x0", "x8", "memory", "cc"
/* n steps of `step` (then decrement, branch), skipped at n = 0; ends at local label 2. */
#define STEPS(step) "cbz %[n], 2f\n1:\n\t" step "\n\tsubs %[n], %[n], #1\n\tb.ne 1b\n2:"
/* The step bodies: an add to x; a load or a store of 8 bytes at p, then p += stride. */
#define ADD_STEP "add %[x], %[x], #1"
#define LOAD_STEP "ldr x9, [%[p]]\n\tadd %[p], %[p], %[s]"
#define STORE_STEP "str %[n], [%[p]]\n\tadd %[p], %[p], %[s]"
/* The register LOAD_STEP loads into. */
#define LOAD_SCRATCH "x9"

/* The text of access_passes (below) and the registers it uses besides the request's. */
#define PASSES                                                                              \
    REQUEST "\n"                                                                            \
    "1:\n\tmov x9, %[n]\n\tmov x10, %[p]\n\tcbz x9, 4f\n\tcbz %[st], 3f\n"                  \
    "2:\n\tstr x9, [x10]\n\tadd x10, x10, %[s]\n\tsubs x9, x9, #1\n\t"                      \
    "b.ne 2b\n\tsub %[st], %[st], #1\n\tb 4f\n"                                             \
    "3:\n\tldr x11, [x10]\n\tadd x10, x10, %[s]\n\tsubs x9, x9, #1\n\t"                     \
    "b.ne 3b\n"                                                                             \
    "4:\n\t" REQUEST "\n\t"                                                                 \
    "subs %[ps], %[ps], #1\n\tb.ne 1b"
#define PASSES_SCRATCH "x9", "x10", "x11"

#else
#error "emulated_asm.h: x86-64 or aarch64 only"
#endif

/* A request, n steps of `step`, a request. */
#define BRACKET(step) REQUEST "\n\t" STEPS(step) "\n\t" REQUEST

/* n steps of a chain of adds (no request): CHAIN_STEP * n instructions and a constant. */
static inline unsigned long chain_steps(unsigned long n)
{
    unsigned long x = 0;
    __asm__ volatile(STEPS(ADD_STEP) : [n] "+r"(n), [x] "+r"(x) : : "cc");
    return x;
}

/* Request; n steps of a chain of adds; request. */
static inline void bracket_chain(int fd, unsigned long n)
{
    unsigned long x = 0;
    __asm__ volatile(BRACKET(ADD_STEP)
                     : [n] "+r"(n), [x] "+r"(x)
                     : REQUEST_INPUTS
                     : REQUEST_CLOBBERS);
}

/* Request; n 8-byte loads at p, p + stride, ...; request. */
static inline void bracket_loads(int fd, const void *p, unsigned long n, unsigned long stride)
{
    __asm__ volatile(BRACKET(LOAD_STEP)
                     : [n] "+r"(n), [p] "+r"(p)
                     : REQUEST_INPUTS, [s] "r"(stride)
                     : REQUEST_CLOBBERS, LOAD_SCRATCH);
}

/* Request; n 8-byte stores at p, p + stride, ...; request. */
static inline void bracket_stores(int fd, void *p, unsigned long n, unsigned long stride)
{
    __asm__ volatile(BRACKET(STORE_STEP)
                     : [n] "+r"(n), [p] "+r"(p)
                     : REQUEST_INPUTS, [s] "r"(stride)
                     : REQUEST_CLOBBERS);
}

/* Request; then `passes` passes, each followed by a request: a pass is n 8-byte accesses
 * at p, p + stride, ..., stores for the first `stores` passes, loads after. No memory but
 * the passes' is touched from the first request to the last (instructions not fixed). */
static inline void access_passes(int fd, void *p, unsigned long n, unsigned long stride,
                                 unsigned long passes, unsigned long stores)
{
    __asm__ volatile(PASSES
                     : [ps] "+r"(passes), [st] "+r"(stores)
                     : REQUEST_INPUTS, [n] "r"(n), [p] "r"(p), [s] "r"(stride)
                     : REQUEST_CLOBBERS, PASSES_SCRATCH);
}

#endif

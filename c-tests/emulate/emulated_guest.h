/*
 * emulated_guest.h: what the guest programs under picollo_qemu_plugin.so share: asking for
 * this thread's record (picollo_emulated.h) and reading it, CHECK, and the exact-count
 * loops of emulated_asm.h.
 */
#ifndef EMULATED_GUEST_H
#define EMULATED_GUEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emulated_asm.h"
#include "picollo_emulated.h"

/* The pipe the plugin writes records into; the read end does not block. */
static int guest_pipe[2] __attribute__((unused));
static int failures __attribute__((unused)); /* what CHECK found */

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL line %d: %s: ", __LINE__, #cond);                                         \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

/* Makes the pipe (exit 2 if it cannot). */
static inline void guest_open(void)
{
    if (pipe(guest_pipe) != 0 || fcntl(guest_pipe[0], F_SETFL, O_NONBLOCK) != 0) {
        perror("pipe");
        exit(2);
    }
}

/* The next record in the pipe, or exit: 77 when there is none (no plugin), 3 when it is
 * not one of this build's records (another record version, named). */
static inline picollo_emulated_counts guest_take(void)
{
    picollo_emulated_counts r;
    ssize_t n = read(guest_pipe[0], &r, sizeof r);
    if (n < 0 && errno == EAGAIN) {
        printf("not running under the Picollo QEMU plugin: the system call %#llx gave no "
               "record (run: qemu-x86_64 -plugin picollo_qemu_plugin.so PROG)\n",
               (unsigned long long)PICOLLO_EMULATED_SYSCALL);
        exit(77);
    }
    if (n != (ssize_t)sizeof r || r.magic != PICOLLO_EMULATED_MAGIC) {
        printf("the plugin's record is unreadable (%zd bytes)\n", n);
        exit(3);
    }
    if (r.version != PICOLLO_EMULATED_VERSION) {
        printf("the plugin writes record version %llu; this program reads version %d: "
               "install the plugin of this build\n",
               (unsigned long long)r.version, PICOLLO_EMULATED_VERSION);
        exit(3);
    }
    return r;
}

/* This thread's counts now, through libc's syscall() and read(): the path a library takes. */
static inline picollo_emulated_counts guest_counts(void)
{
    syscall(PICOLLO_EMULATED_SYSCALL, guest_pipe[1]);
    return guest_take();
}

/* The two records a bracket_* loop left in the pipe, as their difference in *d (the
 * second's counts less the first's; thread and flags from the second). */
static inline void guest_bracket_delta(picollo_emulated_counts *d)
{
    picollo_emulated_counts a = guest_take(), b = guest_take();
    *d = b;
    d->instructions -= a.instructions;
    d->loads -= a.loads;
    d->stores -= a.stores;
    d->l1d_misses -= a.l1d_misses;
}

#endif

/*
 * picollo_emulated.h: the protocol between a guest program and picollo_qemu_plugin.c.
 *
 * Per thread: the guest makes the system call PICOLLO_EMULATED_SYSCALL with the write end
 * of a pipe as its first argument; under the plugin, one picollo_emulated_counts record of
 * the calling thread arrives on the pipe (the call itself fails with ENOSYS either way).
 *
 * Per run: with the plugin argument `totals=PATH`, the plugin writes one record at exit to
 * PATH, `thread` = PICOLLO_EMULATED_ALL_THREADS, the counts summed over every thread
 * (exited ones too).
 *
 * Every field is a uint64_t in the host's byte order; a record is 96 bytes (less than
 * PIPE_BUF, so a write of one is whole).
 */
#ifndef PICOLLO_EMULATED_H
#define PICOLLO_EMULATED_H

#include <stdint.h>

/* A system call number no Linux architecture uses ("PICo" in ASCII). */
#define PICOLLO_EMULATED_SYSCALL 0x5049436fLL
/* The first field of every record. */
#define PICOLLO_EMULATED_MAGIC 0x50494330454d5531ULL
/* The record's layout; a plugin of another version writes another number here. */
#define PICOLLO_EMULATED_VERSION 1
/* `thread` of the record written at exit (`totals=PATH`). */
#define PICOLLO_EMULATED_ALL_THREADS UINT64_MAX

/* `flags`: loads and stores are counted (plugin argument `mem=on`, or `l1d=...`). */
#define PICOLLO_EMULATED_MEMORY 1u
/* `flags`: the L1D cache model runs (plugin argument `l1d=on` or `l1d=BYTES:WAYS:LINE`). */
#define PICOLLO_EMULATED_L1D 2u
/* `flags`: some counts were lost (a thread past the plugin's capacity ran uncounted, or a
 * thread's cache model could not be allocated): set in every record from then on. */
#define PICOLLO_EMULATED_INCOMPLETE 4u

typedef struct picollo_emulated_counts {
    uint64_t magic;
    uint64_t version;
    /* The guest thread's vCPU index (PICOLLO_EMULATED_ALL_THREADS: the run's totals). */
    uint64_t thread;
    /* PICOLLO_EMULATED_MEMORY | PICOLLO_EMULATED_L1D | PICOLLO_EMULATED_INCOMPLETE. */
    uint64_t flags;
    /* Guest instructions executed, user space only. */
    uint64_t instructions;
    /* Guest memory loads and stores (0 unless PICOLLO_EMULATED_MEMORY). */
    uint64_t loads;
    uint64_t stores;
    /* Lines the loads and stores missed in the modelled L1D (0 unless PICOLLO_EMULATED_L1D):
     * an access across a line boundary touches, and may miss, both lines. */
    uint64_t l1d_misses;
    /* The modelled L1D: bytes, ways, line bytes (0 unless PICOLLO_EMULATED_L1D). */
    uint64_t l1d_bytes;
    uint64_t l1d_ways;
    uint64_t l1d_line;
    uint64_t reserved;
} picollo_emulated_counts;

#endif

/*
 * picollo_qemu_plugin.c: exact counts where there is no PMU. A TCG plugin for QEMU's user
 * mode (qemu-x86_64, qemu-aarch64; QEMU 7.2 and later) that counts, per guest thread (a vCPU
 * in user mode), the guest instructions executed and, with `mem=on`, the loads and stores;
 * with `l1d=...` it also runs each thread's accesses through an L1D model (picollo_l1d.h)
 * and counts its misses. The protocol is picollo_emulated.h: the guest asks for its own
 * thread's counts with a system call no kernel has, passing a pipe's write end (the host's
 * fd, in user mode) that this plugin writes one record to; with `totals=PATH` it writes the
 * run's sums to PATH at exit.
 *
 * Counting is per translated block: when a block starts, its instruction count is added to
 * its thread's total. A system call ends its block, so a read sees every instruction up to
 * and including its own system call instruction; the difference of two reads counts exactly
 * what ran between them, plus the read's own constant, which the caller subtracts.
 *
 * Arguments: mem=on|off, l1d=on|off|BYTES:WAYS:LINE (implies mem=on), totals=PATH,
 * verbose=on|off (say at start which plugin API version was chosen). Any other, or a bad
 * geometry, makes qemu_plugin_install fail, and QEMU refuses to start.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "picollo_emulated.h"
#include "picollo_l1d.h"
#include "picollo_qemu_api.h"

#define EXPORT __attribute__((visibility("default")))

/* The plugin API version this plugin declares: see choose_api_version. */
#ifdef PICOLLO_PLUGIN_API_VERSION
EXPORT int qemu_plugin_version = PICOLLO_PLUGIN_API_VERSION; /* a test's fixed choice */
#else
EXPORT int qemu_plugin_version = 1;
#endif

/* The record version this plugin writes (a test builds one of another version). */
#ifndef PICOLLO_PLUGIN_RECORD_VERSION
#define PICOLLO_PLUGIN_RECORD_VERSION PICOLLO_EMULATED_VERSION
#endif

/* vCPU slots. In user mode a new thread takes the lowest index above every live thread's,
 * so this bounds the threads alive at once, not the threads of a run (a test lowers it). */
#ifndef PICOLLO_PLUGIN_MAX_THREADS
#define PICOLLO_PLUGIN_MAX_THREADS 4096
#endif

/* One vCPU's counts. Only its own thread writes them; a line of its own, so threads that
 * count at once do not share one. A thread reusing an exited thread's index continues its
 * counts (and its cache), which keeps the run's totals whole. */
typedef struct {
    uint64_t instructions;
    uint64_t loads;
    uint64_t stores;
    uint64_t l1d_misses;
    picollo_l1d *l1d; /* allocated by the thread itself on its first access */
    /* The address of the last listed instruction of the block that ran last, when QEMU may
     * have dropped it (see `ghost_of`); 0 otherwise. */
    uint64_t pending;
} __attribute__((aligned(64))) slot;

static slot slots[PICOLLO_PLUGIN_MAX_THREADS];

/* The arguments, read at install. */
static struct {
    bool memory;
    bool l1d;
    bool verbose;
    picollo_l1d_geometry geometry;
    const char *totals; /* QEMU keeps argv for the plugin's life */
} config;

/* Set once any count was lost (a vCPU past the slots, a cache not allocated); every record
 * from then on says PICOLLO_EMULATED_INCOMPLETE. */
static bool incomplete;

/* Picks the plugin API version to declare, before QEMU reads it. QEMU 9.0 raised the lowest
 * version it loads from 0 to 2, and QEMU 7.2 to 8.2 load at most 1, so no one number loads
 * in both. QEMU's loader reads qemu_plugin_version after dlopen has run this constructor;
 * QEMU exports its API from its executable, so dlsym tells which functions it has. The
 * version declared is the newest that a function added in it shows: every function this
 * plugin calls is the same in versions 1 to 5 (picollo_qemu_api.h). A QEMU that changes
 * one of them must raise its minimum past 5, and then refuses this plugin by name. */
#ifndef PICOLLO_PLUGIN_API_VERSION
__attribute__((constructor)) static void choose_api_version(void)
{
    static const struct {
        int version;
        const char *added;
    } markers[] = {
        {5, "qemu_plugin_translate_vaddr"},   /* QEMU 10.1 */
        {4, "qemu_plugin_read_memory_vaddr"}, /* QEMU 9.2 */
        {2, "qemu_plugin_num_vcpus"},         /* QEMU 9.0; 9.1's version 3 added none */
    };
    for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
        if (dlsym(RTLD_DEFAULT, markers[i].added) != NULL) {
            qemu_plugin_version = markers[i].version;
            return;
        }
    }
    qemu_plugin_version = 1; /* none of them: QEMU 8.2 or older */
}
#endif

/* The vCPU's slot, or NULL past the last slot (and from then on the counts are incomplete). */
static slot *slot_of(unsigned int vcpu)
{
    if (vcpu < PICOLLO_PLUGIN_MAX_THREADS) {
        return &slots[vcpu];
    }
    __atomic_store_n(&incomplete, true, __ATOMIC_RELAXED);
    return NULL;
}

/* Adds to a counter that only the calling thread writes: a relaxed store, so the sum at
 * exit reads each counter whole while threads may still run. */
static void add(uint64_t *counter, uint64_t n)
{
    __atomic_store_n(counter, *counter + n, __ATOMIC_RELAXED);
}

/* Reads a counter (any thread's). */
static uint64_t get(const uint64_t *counter)
{
    return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

/* What a block's exec callback knows of it: where it starts, its listed instructions, and
 * the address of its last one when that one may be a dropped instruction (0: not). */
typedef struct {
    uint64_t start;
    uint64_t n;
    uint64_t ghost;
} block;

/* A block starts on a vCPU: all its instructions will run, and if the block before it
 * listed an instruction that QEMU dropped (this block starts there), that one did not. */
static void block_runs(unsigned int vcpu, void *udata)
{
    const block *b = udata;
    slot *s = slot_of(vcpu);
    if (s == NULL) {
        return;
    }
    add(&s->instructions, b->n - (s->pending != 0 && s->pending == b->start));
    s->pending = b->ghost;
}

/* The vCPU's cache model, made on its first access by its own thread. */
static picollo_l1d *l1d_of(slot *s)
{
    if (s->l1d == NULL) {
        s->l1d = picollo_l1d_new(&config.geometry);
        if (s->l1d == NULL) {
            __atomic_store_n(&incomplete, true, __ATOMIC_RELAXED);
        }
    }
    return s->l1d;
}

/* One guest load or store: counted, and with l1d= run through the thread's cache. */
static void memory_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
                          void *udata)
{
    slot *s = slot_of(vcpu);
    (void)udata;
    if (s == NULL) {
        return;
    }
    add(qemu_plugin_mem_is_store(info) ? &s->stores : &s->loads, 1);
    if (config.l1d) {
        picollo_l1d *cache = l1d_of(s);
        if (cache != NULL) {
            unsigned size = 1u << qemu_plugin_mem_size_shift(info);
            add(&s->l1d_misses, picollo_l1d_access(cache, vaddr, size));
        }
    }
}

/* Bytes of the guest pages a block's instructions are fetched from (x86's and arm64's 4 KiB). */
#define GUEST_PAGE 4096u

/* The address of `tb`'s last listed instruction when QEMU may have dropped it, else 0.
 * QEMU 7.2's x86 translator ends a block before an instruction (not the block's first) that
 * reaches past the block's first page, discarding what it fetched of it, yet still lists it
 * to plugins, cut at the page's end. Such a block's last listed instruction ends exactly at
 * a page's end; whether it ran shows when the next block starts: at its address, it did
 * not. (A branch ending there jumps elsewhere; later QEMUs list no dropped instruction.) */
static uint64_t ghost_of(const struct qemu_plugin_tb *tb, size_t n)
{
    const struct qemu_plugin_insn *last;
    uint64_t at;
    if (n < 2) {
        return 0;
    }
    last = qemu_plugin_tb_get_insn(tb, n - 1);
    at = qemu_plugin_insn_vaddr(last);
    return (at + qemu_plugin_insn_size(last)) % GUEST_PAGE == 0 ? at : 0;
}

/* A block is translated: count its instructions when it runs, and its accesses if asked.
 * Its description lives as long as the plugin (QEMU gives no notice of a block's end). */
static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    block *b = malloc(sizeof *b);
    (void)id;
    if (b == NULL) {
        __atomic_store_n(&incomplete, true, __ATOMIC_RELAXED); /* its instructions go uncounted */
        return;
    }
    b->start = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));
    b->n = n;
    b->ghost = ghost_of(tb, n);
    qemu_plugin_register_vcpu_tb_exec_cb(tb, block_runs, QEMU_PLUGIN_CB_NO_REGS, b);
    for (size_t i = 0; config.memory && i < n; i++) {
        qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), memory_access,
                                         QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
}

/* A record of `counts` (NULL: none, a vCPU past the slots) for `thread`, with the flags
 * and the cache geometry of this run; unused fields and `reserved` are 0. */
static picollo_emulated_counts record(uint64_t thread, const slot *counts)
{
    picollo_emulated_counts r;
    memset(&r, 0, sizeof r);
    r.magic = PICOLLO_EMULATED_MAGIC;
    r.version = PICOLLO_PLUGIN_RECORD_VERSION;
    r.thread = thread;
    r.flags = (config.memory ? PICOLLO_EMULATED_MEMORY : 0) |
              (config.l1d ? PICOLLO_EMULATED_L1D : 0) |
              (__atomic_load_n(&incomplete, __ATOMIC_RELAXED) ? PICOLLO_EMULATED_INCOMPLETE : 0);
    if (counts != NULL) {
        r.instructions = get(&counts->instructions);
        r.loads = get(&counts->loads);
        r.stores = get(&counts->stores);
        r.l1d_misses = get(&counts->l1d_misses);
    }
    if (config.l1d) {
        r.l1d_bytes = config.geometry.bytes;
        r.l1d_ways = config.geometry.ways;
        r.l1d_line = config.geometry.line;
    }
    return r;
}

/* The guest's request (PICOLLO_EMULATED_SYSCALL, fd): its thread's record into fd. Every
 * other system call passes untouched. */
static void system_call(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t fd,
                        uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
                        uint64_t a7, uint64_t a8)
{
    (void)id, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
    if (num != PICOLLO_EMULATED_SYSCALL) {
        return;
    }
    picollo_emulated_counts r = record(vcpu, slot_of(vcpu));
    /* A pipe of the guest's: one record is less than PIPE_BUF, so the write is whole. */
    (void)!write((int)fd, &r, sizeof r);
}

/* Writes the totals record to `path` (created, or truncated; mode 0600); a failure is told
 * on stderr, loudly, since QEMU's exit status is the guest's and cannot carry it. */
static void write_totals(const char *path, const picollo_emulated_counts *r)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ssize_t n = fd < 0 ? -1 : write(fd, r, sizeof *r);
    int error = errno;
    if (fd >= 0 && close(fd) != 0 && n == (ssize_t)sizeof *r) {
        n = -1;
        error = errno;
    }
    if (n != (ssize_t)sizeof *r) {
        fprintf(stderr, "picollo plugin: FAILED to write the totals to %s: %s\n", path,
                n < 0 ? strerror(error) : "short write");
    }
}

/* At exit: the run's totals, every slot summed (exited threads' too), to `totals=PATH`. */
static void at_exit(qemu_plugin_id_t id, void *unused)
{
    slot sum;
    (void)id, (void)unused;
    memset(&sum, 0, sizeof sum);
    for (size_t i = 0; i < PICOLLO_PLUGIN_MAX_THREADS; i++) {
        sum.instructions += get(&slots[i].instructions);
        sum.loads += get(&slots[i].loads);
        sum.stores += get(&slots[i].stores);
        sum.l1d_misses += get(&slots[i].l1d_misses);
    }
    picollo_emulated_counts r = record(PICOLLO_EMULATED_ALL_THREADS, &sum);
    write_totals(config.totals, &r);
}

/* Reads one `name=value` argument into config: NULL, or why it is not one. */
static const char *parse_argument(const char *arg)
{
    if (strcmp(arg, "mem=on") == 0 || strcmp(arg, "mem=off") == 0) {
        config.memory = arg[5] == 'n';
    } else if (strcmp(arg, "verbose=on") == 0 || strcmp(arg, "verbose=off") == 0) {
        config.verbose = arg[9] == 'n';
    } else if (strcmp(arg, "l1d=off") == 0) {
        config.l1d = false;
    } else if (strncmp(arg, "l1d=", 4) == 0) {
        const char *why = picollo_l1d_parse(arg + 4, &config.geometry);
        if (why != NULL) {
            return why;
        }
        config.l1d = true;
    } else if (strncmp(arg, "totals=", 7) == 0 && arg[7] != '\0') {
        config.totals = arg + 7;
    } else {
        return "unknown (known: mem=on|off, l1d=on|off|BYTES:WAYS:LINE, totals=PATH, "
               "verbose=on|off)";
    }
    return NULL;
}

/* Says what was chosen, for verbose=on: the API version against QEMU's range, the mode. */
static void tell_configuration(const qemu_info_t *info)
{
    fprintf(stderr,
            "picollo plugin: plugin API version %d (this QEMU loads %d to %d), target %s, "
            "mem=%s, l1d=",
            qemu_plugin_version, info->version.min, info->version.cur, info->target_name,
            config.memory ? "on" : "off");
    if (config.l1d) {
        fprintf(stderr, "%llu:%llu:%llu", (unsigned long long)config.geometry.bytes,
                (unsigned long long)config.geometry.ways,
                (unsigned long long)config.geometry.line);
    } else {
        fprintf(stderr, "off");
    }
    fprintf(stderr, ", totals=%s\n", config.totals ? config.totals : "(none)");
}

/* QEMU's entry point: reads the arguments, then asks for the callbacks. Non-zero (QEMU then
 * refuses to start) for system emulation, an unknown argument or a bad cache geometry. */
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                               char **argv)
{
    if (info->system_emulation) {
        fprintf(stderr, "picollo plugin: user mode only (qemu-x86_64, qemu-aarch64): a guest "
                        "thread is a vCPU there\n");
        return -1;
    }
    for (int i = 0; i < argc; i++) {
        const char *why = parse_argument(argv[i]);
        if (why != NULL) {
            fprintf(stderr, "picollo plugin: argument '%s': %s\n", argv[i], why);
            return -1;
        }
    }
    config.memory = config.memory || config.l1d; /* the model needs every access */
    if (config.verbose) {
        tell_configuration(info);
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
    qemu_plugin_register_vcpu_syscall_cb(id, system_call);
    if (config.totals != NULL) {
        qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    }
    return 0;
}

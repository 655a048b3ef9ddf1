/*
 * picollo_qemu_api.h: the part of QEMU's TCG plugin API that picollo_qemu_plugin.c uses,
 * declared here from QEMU's documentation ("QEMU TCG Plugins", docs/devel/tcg-plugins.rst);
 * no QEMU header or source is used.
 *
 * Every function and type below is the same in plugin API versions 1 to 5 (QEMU 7.2 to
 * 10.2): versions 2 to 5 removed or changed other functions (qemu_plugin_n_vcpus, the
 * *_exec_inline ops, qemu_plugin_insn_data) and added new ones, none of these. QEMU
 * exports the functions from its own executable; a plugin calling one that a QEMU lacks
 * would fail to load, so the plugin calls none outside this list.
 */
#ifndef PICOLLO_QEMU_API_H
#define PICOLLO_QEMU_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A plugin's identity, handed to qemu_plugin_install and the callbacks. */
typedef uint64_t qemu_plugin_id_t;
/* A translated block and one of its instructions (opaque; valid during a translation). */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
/* A memory access's size, direction and sign, packed (queried through the functions). */
typedef uint32_t qemu_plugin_meminfo_t;

/* What QEMU tells the plugin at install: the target, its plugin API range, the mode. */
typedef struct {
    const char *target_name;
    struct {
        int min;
        int cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus;
            int max_vcpus;
        } system;
    };
} qemu_info_t;

/* Whether a callback reads or writes guest registers (this plugin's never do). */
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
/* Which memory accesses a memory callback sees. */
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index,
                                              int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
                                              uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                                              uint64_t a8);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
                                      void *userdata);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
                                    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);

#endif

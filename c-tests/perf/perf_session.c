/* The session getting-started in C: fixed counters (cycles, instructions, ref-cycles),
 * branch misses and L1D/L1I read misses around add_chain(1000) (256,000 dependent adds,
 * about 256,000 cycles), one table per counter. Each counter this machine cannot count is
 * dropped with the reason; without a hardware PMU the session shows Software:TaskClock. */
#include <stdio.h>
#include <string.h>

#include "common.h"

int main(void)
{
    print_discovery();

    const char *wanted[] = {
        "Hardware:CpuCycles",        "Hardware:Instructions",     "Hardware:RefCpuCycles",
        "Hardware:BranchMisses",     "HardwareCache:L1DReadMiss", "HardwareCache:L1IReadMiss",
    };
    struct picollo_perf_config cfg = picollo_perf_config_default();
    cfg.pid = 0;            /* this thread */
    cfg.cpu = -1;           /* on any CPU */
    cfg.pinned = 1;         /* all or nothing on the PMU: never multiplexed */
    cfg.include_kernel = 0; /* user space only: what perf_event_paranoid = 2 allows */
    struct picollo_perf_session *s = NULL;
    TRY(picollo_perf_session_new(&cfg, &s));

    size_t added = 0;
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        if (picollo_perf_counter_supported(wanted[i]) != PICOLLO_STATUS_OK) {
            printf("- skipping %s\n", picollo_last_error_message());
            continue;
        }
        TRY(picollo_perf_session_add_named(s, wanted[i]));
        added++;
    }
    if (added == 0) {
        printf("No hardware counter available: showing Software:TaskClock (nanoseconds on CPU).\n");
        TRY(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK));
    }
    TRY(picollo_perf_session_open(s));

    uint64_t sink = 0;
    for (int i = 0; i < 10000; i++) {
        /* The syscall path reads the whole group at once: stable, slower than rdpmc. */
        TRY(picollo_perf_session_read(s, 1, NULL));
        sink += picollo_add_chain(1000);
        TRY(picollo_perf_session_read(s, 1, NULL));
        TRY(picollo_perf_session_record(s));
        if (i == 1000)
            TRY(picollo_perf_session_reset(s)); /* drop the warm-up */
    }

    size_t n = 0;
    TRY(picollo_perf_session_counter_count(s, &n));
    for (size_t k = 0; k < n; k++) {
        char name[64];
        struct picollo_histogram *h = NULL; /* borrowed: freed with the session */
        TRY(picollo_perf_session_counter_name(s, k, name, sizeof name, NULL));
        TRY(picollo_perf_session_counter_histogram(s, k, &h));
        print_table(h, name);
    }
    struct picollo_perf_derived d;
    TRY(picollo_perf_session_derived_means(s, &d));
    printf("Derived (histogram means): IPC=%.3f, branch-miss ratio=%.4f (NaN: counter missing)\n",
           d.ipc, d.branch_miss_ratio);
    printf("(%llu additions)\n", (unsigned long long)sink);
    picollo_perf_session_free(s);
    return 0;
}

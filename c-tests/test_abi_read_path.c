/*
 * test_abi_read_path.c: counter sessions on the user-space read path, run natively and under
 * valgrind memcheck (c-tests/run.sh sets PICOLLO_TEST_UNDER_VALGRIND=1 for that run).
 * Valgrind's CPU cannot run rdpmc (SIGILL): the library must see valgrind and read through
 * read(2), saying so (reason INSTRUMENTED), both for a session forced onto user-space reads
 * and for one opened disabled under AUTO and read before its first enable. Where the PMU
 * counts instructions the session counts them (the page exists: rdpmc would run); without a
 * PMU (hardware events give ENOENT) it counts task-clock, which has no page, and says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A session of `policy` (opened enabled or not) counting instructions, or task-clock where
 * the PMU has none; NULL when neither opens. `*hardware` says which. */
static picollo_perf_session *open_session(uint32_t policy, uint32_t enabled, int *hardware)
{
    for (*hardware = 1; *hardware >= 0; --*hardware) {
        picollo_perf_config cfg = picollo_perf_config_default();
        cfg.rdpmc = policy;
        cfg.enabled = enabled;
        picollo_perf_session *s = NULL;
        if (picollo_perf_session_new(&cfg, &s) != PICOLLO_STATUS_OK) {
            return NULL;
        }
        picollo_status added = *hardware
                                   ? picollo_perf_session_add_hardware(s, PICOLLO_PERF_HARDWARE_EVENT_INSTRUCTIONS)
                                   : picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK);
        if (added == PICOLLO_STATUS_OK && picollo_perf_session_open(s) == PICOLLO_STATUS_OK) {
            return s;
        }
        picollo_perf_session_free(s);
    }
    return NULL;
}

/* Open `policy`'s session, check its path and reason, and read it 100 times without forcing
 * read(2): under valgrind every read must take read(2). */
static void check_session(uint32_t policy, uint32_t enabled, int valgrind, uint32_t native_reason)
{
    int hardware = 0;
    picollo_perf_session *s = open_session(policy, enabled, &hardware);
    if (!CHECKF(s != NULL, "no session opens: %s", picollo_last_error_message())) {
        return;
    }
    picollo_perf_path_choice c;
    char line[512];
    EXPECT(picollo_perf_session_path_choice(s, &c), PICOLLO_STATUS_OK);
    EXPECT(picollo_perf_session_path_describe(s, line, sizeof line, NULL), PICOLLO_STATUS_OK);
    printf("read path (policy %u, %s, %s): %s\n", policy, enabled ? "enabled" : "disabled",
           hardware ? "instructions" : "task-clock", line);
    if (valgrind) {
        CHECKF(c.path == PICOLLO_PERF_READ_PATH_SYSCALL && c.reason == PICOLLO_PERF_PATH_REASON_INSTRUMENTED,
               "under valgrind: path %u reason %u", c.path, c.reason);
        CHECKF(strstr(line, "valgrind") != NULL, "the line says valgrind: %s", line);
    } else if (!hardware) {
        CHECKF(c.reason == native_reason, "natively, no page: reason %u, want %u", c.reason, native_reason);
    }
    CHECKF((strstr(line, "valgrind") != NULL) == valgrind, "valgrind said iff it runs: %s", line);
    int syscall = 0;
    for (int i = 0; i < 100; ++i) {
        uint32_t path = PICOLLO_PERF_READ_PATH_NONE;
        EXPECT(picollo_perf_session_read(s, 0, &path), PICOLLO_STATUS_OK);
        syscall += path == PICOLLO_PERF_READ_PATH_SYSCALL;
    }
    CHECKF(!valgrind || syscall == 100, "under valgrind %d of 100 reads took read(2)", syscall);
    if (!hardware) {
        printf("read path: no PMU here (hardware events give ENOENT): the session counted "
               "task-clock, which has no page, so no rdpmc was possible\n");
    }
    picollo_perf_session_free(s);
}

void test_read_path_under_valgrind(void)
{
    const char *env = getenv("PICOLLO_TEST_UNDER_VALGRIND");
    int valgrind = env != NULL && strcmp(env, "1") == 0;
    check_session(PICOLLO_PERF_READ_POLICY_USER_SPACE, 1, valgrind, PICOLLO_PERF_PATH_REASON_NO_PAGE);
    /* Opened disabled under AUTO: natively the choice waits for the first enable. */
    check_session(PICOLLO_PERF_READ_POLICY_AUTO, 0, valgrind, PICOLLO_PERF_PATH_REASON_PENDING);
}

/* Tests of the perf C ABI: sessions of software counters on this machine (task-clock grows
 * with work, page faults counted on fresh pages, deltas recorded into the borrowed
 * histograms with the right totals), hardware counters where a PMU exists (skipped with the
 * printed reason where not), discovery, timers, scopes, CPU helpers, and every error path
 * with its status and message. Prints "N passed, M failed"; exits 1 on any failure.
 *
 * Built by run.sh with -std=c99 -Wall -Wextra -Werror and run under valgrind memcheck. */
#define _GNU_SOURCE /* sched_getcpu, MAP_ANONYMOUS, madvise */
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "picollo.h"

static int passed, failed;

#define CHECK(cond, ...)                                                                    \
    do {                                                                                    \
        if (cond) {                                                                         \
            passed++;                                                                       \
        } else {                                                                            \
            failed++;                                                                       \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                     \
            printf(__VA_ARGS__);                                                            \
            printf("\n");                                                                   \
        }                                                                                   \
    } while (0)

/* A call must fail with `want` and leave a message containing `needle`. */
#define EXPECT_STATUS(call, want, needle)                                                   \
    do {                                                                                    \
        picollo_status got_ = (call);                                                       \
        const char *msg_ = picollo_last_error_message();                                    \
        CHECK(got_ == (want) && strstr(msg_, (needle)) != NULL,                             \
              "%s: status %u (%s), want %u; message \"%s\" should contain \"%s\"", #call,   \
              (unsigned)got_, picollo_status_str(got_), (unsigned)(want), msg_, (needle));  \
    } while (0)

#define OK(call)                                                                            \
    do {                                                                                    \
        picollo_status st_ = (call);                                                        \
        CHECK(st_ == PICOLLO_STATUS_OK, "%s: %s: %s", #call, picollo_status_str(st_),       \
              picollo_last_error_message());                                                \
    } while (0)

static struct picollo_perf_session *new_session(void)
{
    struct picollo_perf_config cfg = picollo_perf_config_default();
    struct picollo_perf_session *s = NULL;
    OK(picollo_perf_session_new(&cfg, &s));
    return s;
}

static uint64_t spin(uint64_t blocks)
{
    return picollo_add_chain(blocks);
}

/* --- configuration -------------------------------------------------------------------- */

static void test_config(void)
{
    struct picollo_perf_config cfg = picollo_perf_config_default();
    CHECK(cfg.struct_size == sizeof(struct picollo_perf_config), "struct_size %u", cfg.struct_size);
    CHECK(sizeof(struct picollo_perf_config) == 48, "config is 48 bytes");
    CHECK(cfg.pid == 0 && cfg.cpu == -1 && cfg.pinned == 0 && cfg.include_kernel == 0 &&
              cfg.enabled == 1 && cfg.calibrate == 1 && cfg.rdpmc == PICOLLO_PERF_READ_POLICY_AUTO &&
              cfg.relative_error == 0.001 && cfg.record_kind == PICOLLO_PERF_RECORD_KIND_DELTA,
          "defaults");

    struct picollo_perf_session *s = NULL;
    EXPECT_STATUS(picollo_perf_session_new(NULL, &s), PICOLLO_STATUS_NULL_POINTER, "config");
    EXPECT_STATUS(picollo_perf_session_new(&cfg, NULL), PICOLLO_STATUS_NULL_POINTER, "out");

    struct picollo_perf_config small = cfg;
    small.struct_size = 40;
    EXPECT_STATUS(picollo_perf_session_new(&small, &s), PICOLLO_STATUS_STRUCT_SIZE,
                  "picollo_perf_config_default");
    CHECK(s == NULL, "no session on failure");

    /* A caller built against a newer, larger struct: accepted when the tail is zero. */
    struct {
        struct picollo_perf_config cfg;
        uint64_t future[2];
    } big;
    memset(&big, 0, sizeof big);
    big.cfg = cfg;
    big.cfg.struct_size = sizeof big;
    OK(picollo_perf_session_new(&big.cfg, &s));
    picollo_perf_session_free(s);
    s = NULL;
    big.future[1] = 7;
    EXPECT_STATUS(picollo_perf_session_new(&big.cfg, &s), PICOLLO_STATUS_STRUCT_SIZE,
                  "are zero");

    /* `cfg` with one field set to `value`: refused as an invalid argument naming `needle`. */
#define REFUSED_FIELD(field, value, needle)                                                 \
    do {                                                                                    \
        struct picollo_perf_config bad = cfg;                                               \
        bad.field = (value);                                                                \
        EXPECT_STATUS(picollo_perf_session_new(&bad, &s), PICOLLO_STATUS_INVALID_ARGUMENT,  \
                      needle);                                                              \
    } while (0)
    REFUSED_FIELD(pinned, 2, "pinned is 2");
    REFUSED_FIELD(rdpmc, 3, "read policy");
    REFUSED_FIELD(relative_error, 0.0, "relative");
    REFUSED_FIELD(relative_error, NAN, "relative");
    REFUSED_FIELD(record_kind, 9, "record kind 9");
    REFUSED_FIELD(reserved, 1, "reserved");
    REFUSED_FIELD(pid, -2, "pid -2");
#undef REFUSED_FIELD
    CHECK(s == NULL, "outputs are written only on success");
    picollo_perf_session_free(NULL); /* accepted */
}

/* --- error paths ---------------------------------------------------------------------- */

static void test_null_arguments(void)
{
    struct picollo_perf_session *s = new_session();
    size_t n = 0;
    uint32_t u = 0;
    char buf[64];
    struct picollo_perf_counter_values v;
    struct picollo_perf_delta d[4];
    struct picollo_perf_derived dv;
    struct picollo_histogram *h = NULL;
    const picollo_status null = PICOLLO_STATUS_NULL_POINTER;

    EXPECT_STATUS(picollo_perf_session_add_hardware(NULL, 0), null, "session");
    EXPECT_STATUS(picollo_perf_session_add_cache(NULL, 0, 0, 0), null, "session");
    EXPECT_STATUS(picollo_perf_session_add_software(NULL, 1), null, "session");
    EXPECT_STATUS(picollo_perf_session_add_raw(NULL, 1, 1, 0, 0), null, "session");
    EXPECT_STATUS(picollo_perf_session_add_fixed(NULL), null, "session");
    EXPECT_STATUS(picollo_perf_session_add_named(NULL, "Software:TaskClock"), null, "session");
    EXPECT_STATUS(picollo_perf_session_add_named(s, NULL), null, "name");
    EXPECT_STATUS(picollo_perf_session_open(NULL), null, "session");
    EXPECT_STATUS(picollo_perf_session_read(NULL, 0, NULL), null, "session");
    EXPECT_STATUS(picollo_perf_session_deltas(NULL, d, 4, NULL), null, "session");
    EXPECT_STATUS(picollo_perf_session_record(NULL), null, "session");
    EXPECT_STATUS(picollo_perf_session_record_kind(NULL, 0), null, "session");
    EXPECT_STATUS(picollo_perf_session_enable(NULL), null, "session");
    EXPECT_STATUS(picollo_perf_session_disable(NULL), null, "session");
    EXPECT_STATUS(picollo_perf_session_reset(NULL), null, "session");
    EXPECT_STATUS(picollo_perf_session_is_open(NULL, &u), null, "session");
    EXPECT_STATUS(picollo_perf_session_is_open(s, NULL), null, "out");
    EXPECT_STATUS(picollo_perf_session_counter_count(NULL, &n), null, "session");
    EXPECT_STATUS(picollo_perf_session_counter_count(s, NULL), null, "out");
    EXPECT_STATUS(picollo_perf_session_counter_name(NULL, 0, buf, sizeof buf, NULL), null, "session");
    EXPECT_STATUS(picollo_perf_session_counter_values(NULL, 0, &v), null, "session");
    EXPECT_STATUS(picollo_perf_session_counter_histogram(NULL, 0, &h), null, "session");
    EXPECT_STATUS(picollo_perf_session_derived(NULL, &dv), null, "session");
    EXPECT_STATUS(picollo_perf_session_derived_means(NULL, &dv), null, "session");
    EXPECT_STATUS(picollo_perf_session_derived_means(s, NULL), null, "out");
    EXPECT_STATUS(picollo_perf_discover(NULL), null, "out");
    EXPECT_STATUS(picollo_perf_counter_supported(NULL), null, "name");
    EXPECT_STATUS(picollo_scope_end(NULL, NULL), null, "scope");

    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK));
    EXPECT_STATUS(picollo_perf_session_counter_histogram(s, 0, NULL), null, "out");
    OK(picollo_perf_session_open(s));
    EXPECT_STATUS(picollo_perf_session_counter_values(s, 0, NULL), null, "out");
    EXPECT_STATUS(picollo_perf_session_derived(s, NULL), null, "out");
    EXPECT_STATUS(picollo_perf_session_deltas(s, NULL, 1, NULL), null, "out");
    picollo_perf_session_free(s);
}

static void test_bad_ids_and_names(void)
{
    struct picollo_perf_session *s = new_session();
    const picollo_status inval = PICOLLO_STATUS_INVALID_ARGUMENT;
    EXPECT_STATUS(picollo_perf_session_add_hardware(s, 10), inval, "hardware event id 10");
    EXPECT_STATUS(picollo_perf_session_add_software(s, 99), inval, "software event id 99");
    EXPECT_STATUS(picollo_perf_session_add_cache(s, 7, 0, 0), inval, "cache level 7");
    EXPECT_STATUS(picollo_perf_session_add_cache(s, 0, 3, 0), inval, "cache operation 3");
    EXPECT_STATUS(picollo_perf_session_add_cache(s, 0, 0, 2), inval, "cache result 2");
    EXPECT_STATUS(picollo_perf_session_add_named(s, "Software:Nope"), inval, "Software:Nope");
    EXPECT_STATUS(picollo_perf_session_add_named(s, "TaskClock"), inval, "did you mean `Software:TaskClock`?");
    EXPECT_STATUS(picollo_perf_session_add_named(s, "Software:Nope"), inval, "the Software events: CpuClock, TaskClock");
    EXPECT_STATUS(picollo_perf_session_add_named(s, "Software:Task\xff"), PICOLLO_STATUS_INVALID_UTF8, "UTF-8");
    EXPECT_STATUS(picollo_perf_counter_supported("Hardware:Nope"), inval, "Hardware:Nope");
    size_t n = 99;
    OK(picollo_perf_session_counter_count(s, &n));
    CHECK(n == 0, "rejected counters are not added (%zu)", n);

    /* Duplicates, through any door. */
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK));
    EXPECT_STATUS(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK),
                  inval, "Software:TaskClock: added to the session twice");
    EXPECT_STATUS(picollo_perf_session_add_named(s, "Software:TaskClock"), inval, "twice");
    OK(picollo_perf_session_add_hardware(s, PICOLLO_PERF_HARDWARE_EVENT_INSTRUCTIONS));
    EXPECT_STATUS(picollo_perf_session_add_fixed(s), inval, "Hardware:Instructions");
    OK(picollo_perf_session_add_cache(s, PICOLLO_PERF_CACHE_LEVEL_L1D, PICOLLO_PERF_CACHE_OP_READ,
                                      PICOLLO_PERF_CACHE_RESULT_MISS));
    EXPECT_STATUS(picollo_perf_session_add_named(s, "HardwareCache:L1DReadMiss"), inval, "twice");
    OK(picollo_perf_session_add_raw(s, 4, 0x1c2, 0, 0));
    EXPECT_STATUS(picollo_perf_session_add_named(s, "Raw:4:0x1c2"), inval, "Raw:4:0x1c2");
    OK(picollo_perf_session_counter_count(s, &n));
    CHECK(n == 4, "four counters (%zu)", n);

    /* Names, snprintf-style. */
    char name[64];
    size_t needed = 0;
    OK(picollo_perf_session_counter_name(s, 0, name, sizeof name, &needed));
    CHECK(strcmp(name, "Software:TaskClock") == 0 && needed == 18, "name %s (%zu)", name, needed);
    OK(picollo_perf_session_counter_name(s, 2, name, sizeof name, NULL));
    CHECK(strcmp(name, "HardwareCache:L1DReadMiss") == 0, "name %s", name);
    EXPECT_STATUS(picollo_perf_session_counter_name(s, 0, name, 5, &needed),
                  PICOLLO_STATUS_BUFFER_TOO_SMALL, "19 needed");
    CHECK(strcmp(name, "Soft") == 0 && needed == 18, "truncated name %s", name);
    EXPECT_STATUS(picollo_perf_session_counter_name(s, 0, NULL, 0, &needed),
                  PICOLLO_STATUS_BUFFER_TOO_SMALL, "needed");
    EXPECT_STATUS(picollo_perf_session_counter_name(s, 4, name, sizeof name, NULL),
                  PICOLLO_STATUS_OUT_OF_RANGE, "counter index 4");
    struct picollo_histogram *h = NULL;
    EXPECT_STATUS(picollo_perf_session_counter_histogram(s, 9, &h), PICOLLO_STATUS_OUT_OF_RANGE,
                  "has 4 counters");
    picollo_perf_session_free(s);
}

static void test_state_errors(void)
{
    const picollo_status inval = PICOLLO_STATUS_INVALID_ARGUMENT;
    struct picollo_perf_session *s = new_session();
    struct picollo_perf_counter_values v;
    struct picollo_perf_delta d[2];
    struct picollo_perf_derived dv;

    EXPECT_STATUS(picollo_perf_session_open(s), inval, "at least one counter");
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK));

    /* Before open. */
    EXPECT_STATUS(picollo_perf_session_read(s, 0, NULL), inval, "not open");
    EXPECT_STATUS(picollo_perf_session_deltas(s, d, 2, NULL), inval, "not open");
    EXPECT_STATUS(picollo_perf_session_record(s), inval, "not open");
    EXPECT_STATUS(picollo_perf_session_enable(s), inval, "not open");
    EXPECT_STATUS(picollo_perf_session_disable(s), inval, "not open");
    EXPECT_STATUS(picollo_perf_session_reset(s), inval, "not open");
    EXPECT_STATUS(picollo_perf_session_counter_values(s, 0, &v), inval, "not open");
    EXPECT_STATUS(picollo_perf_session_derived(s, &dv), inval, "not open");
    uint32_t open = 9;
    OK(picollo_perf_session_is_open(s, &open));
    CHECK(open == 0, "not open yet");
    /* The histogram exists before open. */
    struct picollo_histogram *h = NULL;
    OK(picollo_perf_session_counter_histogram(s, 0, &h));
    CHECK(h != NULL, "histogram before open");

    OK(picollo_perf_session_open(s));
    OK(picollo_perf_session_is_open(s, &open));
    CHECK(open == 1, "open");
    EXPECT_STATUS(picollo_perf_session_open(s), inval, "already open");
    EXPECT_STATUS(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_PAGE_FAULTS),
                  inval, "already open");
    EXPECT_STATUS(picollo_perf_session_read(s, 2, NULL), inval, "force_syscall is 2");
    EXPECT_STATUS(picollo_perf_session_record_kind(s, 4), inval, "record kind 4");
    EXPECT_STATUS(picollo_perf_session_counter_values(s, 1, &v), PICOLLO_STATUS_OUT_OF_RANGE,
                  "counter index 1");
    size_t count = 0;
    EXPECT_STATUS(picollo_perf_session_deltas(s, d, 0, &count), PICOLLO_STATUS_BUFFER_TOO_SMALL,
                  "room for 0 deltas");
    CHECK(count == 1, "count reported on BUFFER_TOO_SMALL (%zu)", count);
    picollo_perf_session_free(s);
}

static void test_raw_and_unavailable_events(void)
{
    /* A PMU type no kernel has: the open fails, names the counter, and leaves the session
     * unopened with its counters. */
    struct picollo_perf_session *s = new_session();
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK));
    OK(picollo_perf_session_add_raw(s, 0x7fff0000u, 0x1, 0, 0));
    picollo_status st = picollo_perf_session_open(s);
    const char *msg = picollo_last_error_message();
    CHECK(st == PICOLLO_STATUS_INVALID_ARGUMENT &&
              strstr(msg, "Raw:2147418112:0x1: unknown perf event type 2147418112") != NULL,
          "bogus raw type: %s: %s", picollo_status_str(st), msg);
    printf("bogus raw type -> %s: %s\n", picollo_status_str(st), msg);
    uint32_t open = 1;
    size_t n = 0;
    OK(picollo_perf_session_is_open(s, &open));
    OK(picollo_perf_session_counter_count(s, &n));
    CHECK(open == 0 && n == 2, "failed open leaves the session unopened (%u, %zu)", open, n);
    picollo_perf_session_free(s);

    /* Hardware cycles: open here or say why not. */
    st = picollo_perf_counter_supported("Hardware:CpuCycles");
    msg = picollo_last_error_message();
    CHECK(st == PICOLLO_STATUS_OK ||
              ((st == PICOLLO_STATUS_UNSUPPORTED || st == PICOLLO_STATUS_PERMISSION_DENIED) &&
               strstr(msg, "Hardware:CpuCycles: ") == msg),
          "cycles supported? %s: %s", picollo_status_str(st), msg);
    OK(picollo_perf_counter_supported("Software:TaskClock"));
}

/* --- discovery ------------------------------------------------------------------------ */

static void test_discovery(void)
{
    struct picollo_perf_info info;
    memset(&info, 0xab, sizeof info);
    OK(picollo_perf_discover(&info));
    size_t needed = 0;
    EXPECT_STATUS(picollo_perf_describe(NULL, 0, &needed), PICOLLO_STATUS_BUFFER_TOO_SMALL, "needed");
    char *line = malloc(needed + 1);
    OK(picollo_perf_describe(line, needed + 1, NULL));
    printf("discovery: %s\n", line);
    CHECK(info.present <= 1 && info.vendor <= PICOLLO_CPU_VENDOR_OTHER && info.pmu_count >= 1,
          "info fields in their domains");
    if (info.present) {
        CHECK(strncmp(line, "CPU PMU: fixedCounters=", 23) == 0, "%s", line);
        CHECK(info.cycles_errno == 0 || info.cycles_errno == 1 || info.cycles_errno == 13,
              "present: cycles open or only permission stands in the way");
    } else {
        CHECK(strncmp(line, "no hardware PMU (CPUID 0xA version ", 35) == 0, "%s", line);
        CHECK(info.fixed_counters == 0 && info.programmable_counters == 0 && info.cycles_errno != 0,
              "no PMU: no counters, cycles errno %d", info.cycles_errno);
    }
    if (info.paranoid_known) {
        FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
        int p = -100;
        if (f) {
            CHECK(fscanf(f, "%d", &p) == 1, "read paranoid");
            fclose(f);
        }
        CHECK(p == info.paranoid, "paranoid %d vs %d", p, info.paranoid);
    }
    free(line);
}

/* --- real sessions of software counters ----------------------------------------------- */

static uint64_t delta_of(struct picollo_perf_session *s, size_t k)
{
    struct picollo_perf_counter_values v;
    OK(picollo_perf_session_counter_values(s, k, &v));
    return v.delta.scaled;
}

static void test_task_clock_grows_with_work(void)
{
    struct picollo_perf_session *s = new_session();
    OK(picollo_perf_session_add_named(s, "Software:TaskClock"));
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_CONTEXT_SWITCHES));
    OK(picollo_perf_session_open(s));
    uint32_t path = 99;
    OK(picollo_perf_session_read(s, 0, &path));
    CHECK(path == PICOLLO_PERF_READ_PATH_SYSCALL, "software counters are read by the syscall (%u)", path);
    uint64_t small = 0, large = 0;
    for (int round = 0; round < 3; round++) { /* the best of three: robust to preemption */
        OK(picollo_perf_session_read(s, 1, &path));
        spin(2000);
        OK(picollo_perf_session_read(s, 1, &path));
        uint64_t a = delta_of(s, 0);
        OK(picollo_perf_session_read(s, 1, &path));
        spin(200000);
        OK(picollo_perf_session_read(s, 1, &path));
        uint64_t b = delta_of(s, 0);
        if (round == 0 || b - a > large - small) {
            small = a;
            large = b;
        }
    }
    printf("task-clock: %llu ns for 2,000 blocks, %llu ns for 200,000 blocks\n",
           (unsigned long long)small, (unsigned long long)large);
    CHECK(large > 0 && large > small * 5, "100x the work takes more task-clock (%llu vs %llu)",
          (unsigned long long)large, (unsigned long long)small);

    struct picollo_perf_counter_values v;
    OK(picollo_perf_session_counter_values(s, 0, &v));
    CHECK(v.delta.raw == v.current.value - v.previous.value, "delta = current - previous");
    CHECK(v.multiplexed == 0 && v.has_page == 0 && v.delta.running == v.delta.enabled,
          "software counters are never multiplexed and have no page");
    CHECK(v.current.value >= large, "the running count includes the delta");

    /* disable stops counting; enable resumes. */
    OK(picollo_perf_session_disable(s));
    OK(picollo_perf_session_read(s, 0, NULL));
    spin(50000);
    OK(picollo_perf_session_read(s, 0, NULL));
    CHECK(delta_of(s, 0) == 0, "disabled: task-clock does not move (%llu)",
          (unsigned long long)delta_of(s, 0));
    OK(picollo_perf_session_enable(s));
    OK(picollo_perf_session_read(s, 0, NULL));
    spin(50000);
    OK(picollo_perf_session_read(s, 0, NULL));
    CHECK(delta_of(s, 0) > 0, "enabled again: it moves");

    struct picollo_perf_derived dv;
    OK(picollo_perf_session_derived(s, &dv));
    CHECK(isnan(dv.ipc) && isnan(dv.cache_miss_ratio) && isnan(dv.branch_miss_ratio),
          "no hardware counters: derived figures are NaN");
    picollo_perf_session_free(s);
}

static void test_page_faults_on_fresh_pages(void)
{
    const size_t pages = 256;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    struct picollo_perf_session *s = new_session();
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_PAGE_FAULTS));
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_MINOR_PAGE_FAULTS));
    OK(picollo_perf_session_open(s));
    unsigned char *mem = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(mem != MAP_FAILED, "mmap");
    if (mem == MAP_FAILED) {
        picollo_perf_session_free(s);
        return;
    }
#ifdef MADV_NOHUGEPAGE
    madvise(mem, pages * page, MADV_NOHUGEPAGE); /* one fault per 4 KiB page, not per 2 MiB */
#endif
    OK(picollo_perf_session_read(s, 0, NULL));
    for (size_t i = 0; i < pages; i++)
        mem[i * page] = (unsigned char)i;
    OK(picollo_perf_session_read(s, 0, NULL));
    struct picollo_perf_delta d[2];
    size_t count = 0;
    OK(picollo_perf_session_deltas(s, d, 2, &count));
    printf("page faults touching %zu fresh pages: %llu (minor %llu)\n", pages,
           (unsigned long long)d[0].scaled, (unsigned long long)d[1].scaled);
    CHECK(count == 2, "two deltas");
    CHECK(d[0].scaled >= pages && d[0].scaled < pages * 2, "about one fault per page: %llu",
          (unsigned long long)d[0].scaled);
    CHECK(d[1].scaled >= pages, "minor faults too: %llu", (unsigned long long)d[1].scaled);
    munmap(mem, pages * page);
    picollo_perf_session_free(s);
}

static void test_deltas_recorded_into_borrowed_histograms(void)
{
    enum { ROUNDS = 200 };
    struct picollo_perf_session *s = new_session();
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK));
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_PAGE_FAULTS));
    OK(picollo_perf_session_open(s));
    struct picollo_histogram *h[2] = {NULL, NULL};
    OK(picollo_perf_session_counter_histogram(s, 0, &h[0]));
    OK(picollo_perf_session_counter_histogram(s, 1, &h[1]));
    struct picollo_histogram *again = NULL;
    OK(picollo_perf_session_counter_histogram(s, 0, &again));
    CHECK(again == h[0] && h[0] != h[1], "one stable handle per counter");

    double sum[2] = {0, 0};
    uint64_t max0 = 0;
    for (int i = 0; i < ROUNDS; i++) {
        OK(picollo_perf_session_read(s, 0, NULL));
        spin(500 + (uint64_t)i * 20);
        OK(picollo_perf_session_read(s, 0, NULL));
        OK(picollo_perf_session_record(s));
        struct picollo_perf_delta d[2];
        OK(picollo_perf_session_deltas(s, d, 2, NULL));
        sum[0] += (double)d[0].scaled;
        sum[1] += (double)d[1].scaled;
        if (d[0].scaled > max0)
            max0 = d[0].scaled;
    }
    for (int k = 0; k < 2; k++) {
        struct picollo_histogram_info info;
        OK(picollo_histogram_get_info(h[k], &info));
        CHECK(info.total == ROUNDS && info.overflow == 0 && info.underflow == 0,
              "counter %d: %llu values recorded, want %d", k, (unsigned long long)info.total, ROUNDS);
        CHECK(info.relative_error <= 0.001, "the session's relative error");
    }
    double mean = 0, stdev = 0;
    OK(picollo_histogram_mean_stdev(h[0], &mean, &stdev));
    double exact = sum[0] / ROUNDS;
    CHECK(fabs(mean - exact) <= exact * 0.002 + 1, "histogram mean %.1f vs exact mean %.1f", mean, exact);
    struct picollo_percentile p100;
    OK(picollo_histogram_percentile(h[0], 100.0, &p100));
    CHECK(p100.lower <= max0 && max0 <= p100.highest, "P100's bucket holds the largest delta");

    /* The borrowed handle works with the rest of the histogram API. */
    struct picollo_summary summary;
    OK(picollo_histogram_summary(h[0], &summary));
    CHECK(summary.total == ROUNDS, "summary total");
    size_t needed = 0;
    (void)picollo_histogram_table(h[0], "Software:TaskClock", NULL, 0, &needed);
    char *table = malloc(needed + 1);
    OK(picollo_histogram_table(h[0], "Software:TaskClock", table, needed + 1, NULL));
    CHECK(strstr(table, "##### Software:TaskClock") != NULL, "table title");
    free(table);
    struct picollo_snapshot *snap = NULL;
    OK(picollo_snapshot_new(h[0], &snap));
    picollo_snapshot_free(snap);

    /* Other record kinds. */
    OK(picollo_perf_session_record_kind(s, PICOLLO_PERF_RECORD_KIND_VALUE));
    OK(picollo_perf_session_record_kind(s, PICOLLO_PERF_RECORD_KIND_CORRECTED));
    struct picollo_histogram_info info;
    OK(picollo_histogram_get_info(h[0], &info));
    CHECK(info.total == ROUNDS + 2, "record_kind adds one value each");

    struct picollo_perf_derived means;
    OK(picollo_perf_session_derived_means(s, &means));
    CHECK(isnan(means.ipc), "no IPC without cycles");

    /* reset zeroes the histograms and the deltas. */
    OK(picollo_perf_session_reset(s));
    OK(picollo_histogram_get_info(h[0], &info));
    CHECK(info.total == 0, "reset empties the histograms (%llu)", (unsigned long long)info.total);
    struct picollo_perf_counter_values v;
    OK(picollo_perf_session_counter_values(s, 0, &v));
    CHECK(v.delta.raw == 0, "reset rebases the deltas");
    picollo_perf_session_free(s); /* frees h[0], h[1]: never picollo_histogram_free them */
}

static void test_hardware_counters(void)
{
    /* The user-space read forced: under QEMU's emulated PMU the guest checks the page's path. */
    struct picollo_perf_config cfg = picollo_perf_config_default();
    cfg.rdpmc = PICOLLO_PERF_READ_POLICY_USER_SPACE;
    struct picollo_perf_session *s = NULL;
    OK(picollo_perf_session_new(&cfg, &s));
    OK(picollo_perf_session_add_hardware(s, PICOLLO_PERF_HARDWARE_EVENT_CPU_CYCLES));
    OK(picollo_perf_session_add_hardware(s, PICOLLO_PERF_HARDWARE_EVENT_INSTRUCTIONS));
    picollo_status st = picollo_perf_session_open(s);
    if (st == PICOLLO_STATUS_UNSUPPORTED || st == PICOLLO_STATUS_PERMISSION_DENIED) {
        printf("SKIP hardware counters (%s): %s\n", picollo_status_str(st),
               picollo_last_error_message());
        passed++;
        picollo_perf_session_free(s);
        return;
    }
    CHECK(st == PICOLLO_STATUS_OK, "open cycles+instructions: %s", picollo_last_error_message());
    uint64_t best = UINT64_MAX;
    uint32_t path = 0;
    for (int i = 0; i < 20; i++) {
        OK(picollo_perf_session_read(s, 0, &path));
        spin(1000);
        OK(picollo_perf_session_read(s, 0, &path));
        uint64_t c = delta_of(s, 0);
        if (c < best)
            best = c;
    }
    printf("hardware: add_chain(1000) took %llu cycles (min of 20, read path %u)\n",
           (unsigned long long)best, path);
    CHECK(best >= 200000 && best < 2000000, "about 256,000 cycles: %llu", (unsigned long long)best);
    struct picollo_perf_derived dv;
    OK(picollo_perf_session_derived(s, &dv));
    CHECK(dv.ipc > 0.3 && dv.ipc < 8, "IPC %.3f", dv.ipc);
    picollo_perf_session_free(s);
}

/* --- timers, scopes, CPU helpers ------------------------------------------------------ */

static void test_timers(void)
{
    uint64_t prev_t = picollo_ticks(), prev_n = picollo_monotonic_nanos();
    int monotonic = 1;
    for (int i = 0; i < 10000; i++) {
        uint64_t t = picollo_ticks_begin(), n = picollo_monotonic_nanos();
        if (t < prev_t || n < prev_n)
            monotonic = 0;
        prev_t = picollo_ticks_end();
        prev_n = n;
    }
    CHECK(monotonic, "ticks and monotonic nanos never go back");
    uint64_t f = picollo_tick_frequency();
    printf("tick frequency: %llu Hz\n", (unsigned long long)f);
    CHECK(f >= 1000000 && f <= 20000000000ull, "plausible frequency %llu", (unsigned long long)f);

    /* 10^6 seconds of ticks: the naive ticks * 10^9 / f overflows; ours is exact. */
    CHECK(picollo_ticks_to_nanos(f * 1000000ull) == 1000000000000000ull,
          "10^6 s of ticks is 10^15 ns (%llu)", (unsigned long long)picollo_ticks_to_nanos(f * 1000000ull));
    const uint64_t freqs[] = {1000000000ull, 2999999998ull, 3700000000ull, 5000000000ull};
    for (size_t i = 0; i < sizeof freqs / sizeof freqs[0]; i++) {
        uint64_t ticks = freqs[i] * 1000000ull + freqs[i] / 2;
        CHECK(picollo_convert_ticks(ticks, freqs[i], 1000000000ull) == 1000000500000000ull,
              "10^6 s and a half at %llu Hz", (unsigned long long)freqs[i]);
        CHECK(picollo_convert_ticks(ticks, freqs[i], 1000ull) == 1000000500ull, "in ms");
    }
    CHECK(picollo_convert_ticks(UINT64_MAX, 1, 1000000000ull) == UINT64_MAX, "saturates");
    CHECK(picollo_convert_ticks(5, 0, 1000) == 0, "no division by zero");
    CHECK(picollo_ticks_to_nanos(UINT64_MAX) > UINT64_MAX / 20, "no wrap at UINT64_MAX");

    CHECK(picollo_add_chain(0) == 0 && picollo_add_chain(1000) == 256000, "add_chain counts its adds");
}

static struct picollo_histogram *histogram(void)
{
    struct picollo_histogram_config cfg = picollo_histogram_config_default();
    struct picollo_histogram *h = NULL;
    OK(picollo_histogram_new(&cfg, &h));
    return h;
}

static void test_scopes(void)
{
    struct picollo_histogram *us = histogram(), *ticks = histogram();
    uint64_t elapsed = 0;
    for (int i = 0; i < 3; i++) {
        struct picollo_scope scope = picollo_scope_begin(us, PICOLLO_TIME_UNIT_MICROS);
        usleep(2000);
        OK(picollo_scope_end(&scope, &elapsed));
        CHECK(elapsed >= 1900 && elapsed < 2000000, "2 ms sleep took %llu us", (unsigned long long)elapsed);
        EXPECT_STATUS(picollo_scope_end(&scope, NULL), PICOLLO_STATUS_NULL_POINTER, "already ended");
    }
    struct picollo_histogram_info info;
    OK(picollo_histogram_get_info(us, &info));
    CHECK(info.total == 3, "three scopes, three values (%llu)", (unsigned long long)info.total);

    struct picollo_scope t = picollo_scope_begin(ticks, PICOLLO_TIME_UNIT_TICKS);
    spin(1000);
    OK(picollo_scope_end(&t, &elapsed));
    CHECK(elapsed > 0, "ticks elapsed");

    struct picollo_scope none = picollo_scope_begin(NULL, PICOLLO_TIME_UNIT_NANOS);
    EXPECT_STATUS(picollo_scope_end(&none, NULL), PICOLLO_STATUS_NULL_POINTER, "begun with NULL");
    struct picollo_scope bad = picollo_scope_begin(ticks, 9);
    EXPECT_STATUS(picollo_scope_end(&bad, NULL), PICOLLO_STATUS_INVALID_ARGUMENT, "scope unit 9");
    OK(picollo_histogram_get_info(ticks, &info));
    CHECK(info.total == 1, "a bad scope records nothing");

    /* A scope can record into a session's borrowed histogram too. */
    struct picollo_perf_session *s = new_session();
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK));
    struct picollo_histogram *borrowed = NULL;
    OK(picollo_perf_session_counter_histogram(s, 0, &borrowed));
    struct picollo_scope sc = picollo_scope_begin(borrowed, PICOLLO_TIME_UNIT_NANOS);
    OK(picollo_scope_end(&sc, NULL));
    OK(picollo_histogram_get_info(borrowed, &info));
    CHECK(info.total == 1, "scope into a borrowed histogram");
    picollo_perf_session_free(s);
    picollo_histogram_free(us);
    picollo_histogram_free(ticks);
}

/* --- the read path ----------------------------------------------------------------------- */

/* A session of task-clock (no page) opened with `policy`: the path it took and why, and its line. */
static struct picollo_perf_path_choice path_choice(uint32_t policy, char *line, size_t len)
{
    struct picollo_perf_config cfg = picollo_perf_config_default();
    cfg.rdpmc = policy;
    struct picollo_perf_session *s = NULL;
    struct picollo_perf_path_choice c;
    memset(&c, 0xff, sizeof c);
    OK(picollo_perf_session_new(&cfg, &s));
    OK(picollo_perf_session_add_software(s, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK));
    EXPECT_STATUS(picollo_perf_session_path_choice(s, &c), PICOLLO_STATUS_INVALID_ARGUMENT, "not open");
    OK(picollo_perf_session_open(s));
    OK(picollo_perf_session_path_choice(s, &c));
    OK(picollo_perf_session_path_describe(s, line, len, NULL));
    EXPECT_STATUS(picollo_perf_session_path_choice(s, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
    picollo_perf_session_free(s);
    return c;
}

/* PICOLLO_TEST_UNDER_VALGRIND=1 (c-tests/perf/run.sh sets it for the valgrind run): the library
 * must see valgrind and keep every session off rdpmc, even one forced onto user-space reads; a
 * native run must not see it. Where valgrind runs on a PMU host, rdpmc would die of SIGILL. */
static void test_read_path(void)
{
    const char *env = getenv("PICOLLO_TEST_UNDER_VALGRIND");
    int valgrind = env != NULL && strcmp(env, "1") == 0;
    char line[256];
    struct picollo_perf_path_choice c = path_choice(PICOLLO_PERF_READ_POLICY_USER_SPACE, line, sizeof line);
    uint32_t want = valgrind ? PICOLLO_PERF_PATH_REASON_INSTRUMENTED : PICOLLO_PERF_PATH_REASON_NO_PAGE;
    CHECK(c.path == PICOLLO_PERF_READ_PATH_SYSCALL && c.reason == want &&
              c.policy == PICOLLO_PERF_READ_POLICY_USER_SPACE && c.reserved == 0,
          "forced user space, %s: path %u reason %u (want %u) policy %u", valgrind ? "valgrind" : "native",
          c.path, c.reason, want, c.policy);
    CHECK(isnan(c.user_ns) && isnan(c.syscall_ns), "nothing timed: %g %g", c.user_ns, c.syscall_ns);
    CHECK((strstr(line, "valgrind") != NULL) == valgrind, "the line says valgrind iff it runs: %s", line);
    printf("read path (forced user space): %s\n", line);
    c = path_choice(PICOLLO_PERF_READ_POLICY_SYSCALL, line, sizeof line);
    CHECK(c.path == PICOLLO_PERF_READ_PATH_SYSCALL && c.reason == PICOLLO_PERF_PATH_REASON_FORCED,
          "read(2) asked for: reason %u", c.reason);

    char info[512];
    OK(picollo_perf_describe(info, sizeof info, NULL));
    CHECK((strstr(info, "under valgrind") != NULL) == valgrind, "discovery says valgrind iff it runs: %s", info);
}

static void test_cpu_helpers(void)
{
    int cpu = sched_getcpu();
    CHECK(cpu >= 0, "sched_getcpu");
    if (cpu >= 0) {
        OK(picollo_pin_thread((uint32_t)cpu));
        CHECK(sched_getcpu() == cpu, "pinned to CPU %d", cpu);
    }
    EXPECT_STATUS(picollo_pin_thread(1u << 20), PICOLLO_STATUS_INVALID_ARGUMENT, "CPU 1048576");
    OK(picollo_set_thread_nice(1));
    picollo_status st = picollo_set_thread_nice(-20);
    CHECK(st == PICOLLO_STATUS_OK || st == PICOLLO_STATUS_PERMISSION_DENIED,
          "raising priority works or is refused: %s", picollo_last_error_message());
    if (st != PICOLLO_STATUS_OK)
        printf("set_thread_nice(-20): %s\n", picollo_last_error_message());
    EXPECT_STATUS(picollo_set_thread_nice(20), PICOLLO_STATUS_INVALID_ARGUMENT, "-20..=19");
}

int main(void)
{
    test_config();
    test_null_arguments();
    test_bad_ids_and_names();
    test_state_errors();
    test_raw_and_unavailable_events();
    test_discovery();
    test_task_clock_grows_with_work();
    test_page_faults_on_fresh_pages();
    test_deltas_recorded_into_borrowed_histograms();
    test_hardware_counters();
    test_timers();
    test_scopes();
    test_cpu_helpers();
    test_read_path();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

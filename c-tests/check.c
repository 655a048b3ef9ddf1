/*
 * check.c: the check counters, the status expectation with its fresh-message proof, and the
 * helpers (generator, layout model, histogram shortcuts) shared by the C test parts.
 */
#include "check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long passed, failed;

/* A histogram used only to provoke a known failure before each EXPECT. */
static picollo_histogram *marker;
static char marker_message[256];
/* Not a picollo_value_selection: set_value_selection refuses it with its own message. */
#define MARKER_SELECTION 0xC0FFEEu

int check_at(int line, int ok, const char *expr, const char *fmt, ...)
{
    if (ok) {
        passed++;
        return 1;
    }
    failed++;
    fprintf(stderr, "FAIL line %d: %s", line, expr);
    if (fmt != NULL) {
        va_list ap;
        va_start(ap, fmt);
        fputs(": ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    return 0;
}

void prime_error(void)
{
    (void)picollo_histogram_set_value_selection(marker, MARKER_SELECTION);
}

int expect_at(int line, const char *call, picollo_status got, picollo_status want,
              const char *needle)
{
    /* Read the message before anything else can replace it. */
    const char *msg = picollo_last_error_message();
    int ok = check_at(line, got == want, call, "returned %u (%s), expected %u (%s); last error \"%s\"",
                      (unsigned)got, picollo_status_str(got), (unsigned)want,
                      picollo_status_str(want), msg ? msg : "(NULL)");
    if (want != PICOLLO_STATUS_OK) {
        ok &= check_at(line, msg != NULL && msg[0] != '\0' && strcmp(msg, marker_message) != 0,
                       call, "the failure left no fresh message for picollo_last_error_message (\"%s\")",
                       msg ? msg : "(NULL)");
        if (needle != NULL) {
            ok &= check_at(line, msg != NULL && strstr(msg, needle) != NULL, call,
                           "message \"%s\" does not mention \"%s\"", msg ? msg : "(NULL)", needle);
        }
    }
    return ok;
}

void check_init(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    const char *msg;
    c.relative_error = 0.1;
    c.min_trackable = 0;
    c.max_trackable = 1;
    if (picollo_histogram_new(&c, &marker) != PICOLLO_STATUS_OK || marker == NULL) {
        fprintf(stderr, "FATAL: cannot create the marker histogram: %s\n",
                picollo_last_error_message());
        exit(2);
    }
    if (picollo_histogram_set_value_selection(marker, MARKER_SELECTION) !=
        PICOLLO_STATUS_INVALID_ARGUMENT) {
        fprintf(stderr, "FATAL: the marker selection was accepted\n");
        exit(2);
    }
    msg = picollo_last_error_message();
    if (msg == NULL || msg[0] == '\0' || strlen(msg) >= sizeof marker_message) {
        fprintf(stderr, "FATAL: unusable marker message\n");
        exit(2);
    }
    strcpy(marker_message, msg);
}

int check_finish(void)
{
    picollo_histogram_free(marker);
    marker = NULL;
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

/* ---- helpers ---- */

const double standard_ranks[PICOLLO_SUMMARY_PERCENTILES] = {
    0.0, 1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 92.5, 95.0, 97.5, 99.0, 99.9, 99.99, 99.999, 100.0,
};

uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

double rng_unit(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) / 9007199254740992.0; /* 2^53 */
}

uint64_t model_block_size(double e)
{
    uint64_t b = 1;
    uint64_t want;
    if (e < 1e-6) {
        e = 1e-6;
    } else if (e > 0.1) {
        e = 0.1;
    }
    /* Rounded up, so that the guaranteed error 0.5 / B never exceeds the requested e. */
    want = (uint64_t)ceil(0.5 / e);
    while (b < want) {
        b <<= 1;
    }
    return b;
}

layout_model model_of_block_size(uint64_t block_size)
{
    layout_model m;
    m.scale = 0;
    while ((UINT64_C(1) << m.scale) < block_size) {
        m.scale++;
    }
    m.block_size = block_size;
    return m;
}

uint64_t model_index(layout_model m, uint64_t v)
{
    /* Which block: 0 below block_size, then one block per extra bit. */
    unsigned block = 0;
    unsigned step;
    uint64_t x = v >> m.scale;
    while (x != 0) {
        block++;
        x >>= 1;
    }
    step = block == 0 ? 0 : block - 1;
    return ((uint64_t)block << m.scale) + ((v >> step) & (m.block_size - 1));
}

uint64_t model_lower(layout_model m, uint64_t index)
{
    uint64_t block = index >> m.scale;
    uint64_t j = index & (m.block_size - 1);
    return block == 0 ? j : (m.block_size + j) << (block - 1);
}

uint64_t model_highest(layout_model m, uint64_t index)
{
    uint64_t block = index >> m.scale;
    uint64_t width = block == 0 ? 1 : UINT64_C(1) << (block - 1);
    return model_lower(m, index) + (width - 1);
}

picollo_histogram_config config_of(uint32_t mode, uint32_t counter_bits, double relative_error)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    c.mode = mode;
    c.counter_bits = counter_bits;
    c.relative_error = relative_error;
    return c;
}

picollo_histogram *new_or_exit(const picollo_histogram_config *c)
{
    picollo_histogram *h = NULL;
    if (picollo_histogram_new(c, &h) != PICOLLO_STATUS_OK || h == NULL) {
        fprintf(stderr,
                "FATAL: picollo_histogram_new(mode %u, threshold %u, %u bits, e=%g, %llu..%llu): "
                "%s\n",
                (unsigned)c->mode, (unsigned)c->approx_threshold, (unsigned)c->counter_bits,
                c->relative_error, (unsigned long long)c->min_trackable,
                (unsigned long long)c->max_trackable, picollo_last_error_message());
        exit(2);
    }
    return h;
}

picollo_histogram *make_histogram(uint32_t counter_bits, double relative_error, uint64_t min,
                                  uint64_t max)
{
    picollo_histogram_config c =
        config_of(PICOLLO_MODE_SINGLE_WRITER, counter_bits, relative_error);
    c.min_trackable = min;
    c.max_trackable = max;
    return new_or_exit(&c);
}

/* A failed check naming `what` when a getter's status is not OK. */
static void got(picollo_status st, const char *what)
{
    if (st != PICOLLO_STATUS_OK) {
        check_at(__LINE__, 0, what, "%s", picollo_last_error_message());
    }
}

picollo_histogram_info info_of(const picollo_histogram *h)
{
    picollo_histogram_info i;
    memset(&i, 0, sizeof i);
    got(picollo_histogram_get_info(h, &i), "picollo_histogram_info");
    return i;
}

picollo_summary summary_of(const picollo_histogram *h)
{
    picollo_summary s;
    memset(&s, 0, sizeof s);
    got(picollo_histogram_summary(h, &s), "picollo_histogram_summary");
    return s;
}

int same_summary(const picollo_summary *a, const picollo_summary *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

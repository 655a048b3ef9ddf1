/*
 * pkgconfig_smoke.c: built from a `cargo cinstall` tree with the flags of
 * `pkg-config --cflags --libs picollo`, the way a user of the installed library builds.
 * Records, queries and prints the table; exits non-zero on any mismatch.
 */
#include <picollo/picollo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what)
{
    fprintf(stderr, "pkgconfig smoke: FAIL: %s (%s)\n", what, picollo_last_error_message());
    return 1;
}

int main(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *h = NULL;
    picollo_percentile p;
    size_t needed = 0;
    char *text;
    uint64_t v;
    int rc = 0;

    if (picollo_abi_version() != PICOLLO_ABI_VERSION) {
        return fail("the installed library and header disagree on the ABI version");
    }
    c.relative_error = 0.01;
    c.min_trackable = 10000;
    c.max_trackable = 30000;
    if (picollo_histogram_new(&c, &h) != PICOLLO_STATUS_OK) {
        return fail("picollo_histogram_new");
    }
    for (v = 10000; v < 30000; v += 10) {
        picollo_histogram_record(h, v);
    }
    picollo_histogram_record(h, 24900);
    if (picollo_histogram_percentile(h, 50.0, &p) != PICOLLO_STATUS_OK || p.lower > 20000 ||
        p.highest < 20000) {
        rc = fail("P50 is not in the bucket of 20,000");
    }
    if (picollo_histogram_table(h, "pkg-config", NULL, 0, &needed) !=
            PICOLLO_STATUS_BUFFER_TOO_SMALL ||
        (text = malloc(needed + 1)) == NULL) {
        picollo_histogram_free(h);
        return fail("size query");
    }
    if (picollo_histogram_table(h, "pkg-config", text, needed + 1, NULL) != PICOLLO_STATUS_OK ||
        strncmp(text, "##### pkg-config\n| Percentile ", 30) != 0 ||
        strstr(text, "| Precision: ") == NULL || strstr(text, " 2,001 |") == NULL) {
        rc = fail("table");
    }
    if (rc == 0) {
        fputs(text, stdout);
        puts("pkgconfig smoke: ok");
    }
    free(text);
    picollo_histogram_free(h);
    return rc;
}

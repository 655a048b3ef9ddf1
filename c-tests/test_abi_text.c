/*
 * test_abi_text.c: every text function (summary table, diff, one-line, JSON, percentile,
 * histogram table) through the snprintf-style buffer protocol (text_protocol.c: the
 * (NULL, 0) size query, the exact fit, one byte short and every shorter length, truncated on
 * a UTF-8 boundary, NUL-terminated, nothing written past `len`, BUFFER_TOO_SMALL, `needed`
 * right), plus the content of each text, bad UTF-8 arguments and NULLs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_protocol.h"

/* The Picollo .NET announcement's getting-started distribution, 10,000 values, plus one value each side. */
static picollo_histogram *seed_histogram(void)
{
    picollo_histogram *h = make_histogram(32, 0.01, 10000, 30000);
    uint64_t seed = 0;
    int k;
    for (k = 0; k < 10000; k++) {
        double r = rng_unit(&seed);
        double dev = (0.5 - rng_unit(&seed)) * 1000.0 + r * r * 5000.0;
        picollo_histogram_record(h, (uint64_t)(20000.0 + dev));
    }
    picollo_histogram_record(h, 40000);
    picollo_histogram_record(h, 5000);
    return h;
}

static void test_table(void)
{
    picollo_histogram *h = seed_histogram();
    picollo_summary s = summary_of(h);
    text_args t;
    char *text, *htext, g[64], want[128];
    int aligned;
    size_t lines;

    memset(&t, 0, sizeof t);
    t.a = &s;
    t.h = h;
    t.title = "Histogram Before";
    text = RENDER("picollo_summary_table", call_table, &t);
    if (text != NULL) {
        CHECK(starts_with(text, "##### Histogram Before\n| Percentile "));
        CHECK(strstr(text, "| Value ") && strstr(text, "| ± ") && strstr(text, "| Count "));
        lines = aligned_lines(text, &aligned);
        CHECKF(aligned && lines == 2 + 16 + 2 + 4, "aligned %d, %zu lines", aligned, lines);
        CHECK(strstr(text, "| Underflow ") != NULL && strstr(text, "| Overflow ") != NULL);
        CHECK(strstr(text, "Saturated") == NULL);
        CHECK(strstr(text, "| Precision: ") && strstr(text, " 0.7813% "));
        sprintf(want, " %s |\n", grouped(s.total, g));
        CHECK(strstr(strstr(text, "Total:"), want) != NULL);
        CHECK(strstr(text, "Range Min:") && strstr(text, " 10,000 ") && strstr(text, " 30,000 |"));
        sprintf(want, "| 99 ");
        CHECK(strstr(text, want) != NULL);
        sprintf(want, " %s |", grouped(s.percentiles[11].value, g));
        CHECK(strstr(strstr(text, "| 99 "), want) != NULL);
        sprintf(want, "| ±%s ", grouped(s.percentiles[11].plus_minus, g)); /* left-aligned */
        CHECK(strstr(strstr(text, "| 99 "), want) != NULL);
        CHECK(strstr(text, "| 92.5 ") && strstr(text, "| 99.999 ") && strstr(text, "| 100 "));
        sprintf(g, "%.2f", s.mean);
        CHECK(strlen(g) == 8); /* e.g. 21667.12, shown as 21,667.12 */
        sprintf(want, " %c%c,%.6s |", g[0], g[1], g + 2);
        CHECKF(strstr(text, want) != NULL, "mean cell \"%s\"", want);
        check_no_split_at(__LINE__, "picollo_summary_table", call_table, &t, text, "±");
        htext = RENDER("picollo_histogram_table", call_htable, &t);
        CHECK(htext != NULL && strcmp(text, htext) == 0);
        free(htext);
    }
    free(text);

    /* No title: no heading. */
    t.title = NULL;
    text = RENDER("picollo_summary_table (no title)", call_table, &t);
    CHECK(text != NULL && starts_with(text, "| Percentile "));
    free(text);
    t.title = "";
    text = RENDER("picollo_summary_table (empty title)", call_table, &t);
    CHECK(text != NULL && starts_with(text, "| Percentile "));
    free(text);
    /* A UTF-8 title is copied as it is. */
    t.title = "Latenz \xc3\xbc \xce\x94t";
    text = RENDER("picollo_summary_table (UTF-8 title)", call_table, &t);
    CHECK(text != NULL && starts_with(text, "##### Latenz \xc3\xbc \xce\x94t\n"));
    free(text);

    /* Huge counts: the Saturated row appears. */
    {
        picollo_histogram *sat = make_histogram(32, 0.01, 0, 1000);
        picollo_summary ss;
        picollo_histogram_record_n(sat, 500, UINT64_MAX);
        ss = summary_of(sat);
        t.a = &ss;
        t.title = "saturated";
        text = RENDER("picollo_summary_table (saturated)", call_table, &t);
        CHECK(text != NULL && strstr(text, "| Saturated ") &&
              strstr(text, grouped(UINT64_MAX - UINT32_MAX, g)));
        free(text);
        picollo_histogram_free(sat);
    }

    /* An empty histogram: dashes, n/a. */
    {
        picollo_histogram *e = make_histogram(64, 0.01, 0, 1000);
        picollo_summary es = summary_of(e);
        t.a = &es;
        t.h = e;
        t.title = "empty";
        text = RENDER("picollo_summary_table (empty)", call_table, &t);
        CHECK(text != NULL && strstr(text, "| 50 ") && strstr(text, " - |") &&
              strstr(text, "n/a"));
        htext = RENDER("picollo_histogram_table (empty)", call_htable, &t);
        CHECK(text != NULL && htext != NULL && strcmp(text, htext) == 0);
        free(htext);
        free(text);
        picollo_histogram_free(e);
    }
    picollo_histogram_free(h);
}

static void test_diff(void)
{
    /* a = {1..5}, b = {3..9}: exact buckets; Cohen's d with sample variances = 3/sqrt(3.8). */
    picollo_histogram *ha = make_histogram(64, 0.01, 0, 100);
    picollo_histogram *hb = make_histogram(64, 0.01, 0, 100);
    picollo_histogram *he = make_histogram(64, 0.01, 0, 100);
    const uint64_t va[] = {1, 2, 3, 4, 5}, vb[] = {3, 4, 5, 6, 7, 8, 9};
    picollo_summary a, b, e;
    text_args t;
    char *text, *p;
    int aligned;
    size_t lines;

    EXPECT(picollo_histogram_record_many(ha, va, 5), PICOLLO_STATUS_OK);
    EXPECT(picollo_histogram_record_many(hb, vb, 7), PICOLLO_STATUS_OK);
    a = summary_of(ha);
    b = summary_of(hb);
    e = summary_of(he);
    memset(&t, 0, sizeof t);
    t.a = &a;
    t.b = &b;
    t.title = "Cohen";
    t.name_a = "Before";
    t.name_b = "After";
    text = RENDER("picollo_summary_diff", call_diff, &t);
    if (text != NULL) {
        CHECK(starts_with(text, "##### Cohen\n| Percentile | Before "));
        CHECK(strstr(text, " | After ") != NULL && strstr(text, " | Δ% ") != NULL);
        lines = aligned_lines(text, &aligned);
        CHECKF(aligned && lines == 2 + 16 + 1 + 5, "aligned %d, %zu lines", aligned, lines);
        p = strstr(text, "| D-value:");
        CHECKF(p != NULL && strstr(p, " 1.54 |") != NULL, "D-value row: %.60s", p ? p : "-");
        p = strstr(text, "| 50 ");
        /* P50: 3 → 6 is +100.0 %. */
        CHECK(p != NULL && strstr(p, " 3 | ") && strstr(p, " 6 | ") && strstr(p, "+100.0% |"));
        CHECK(strstr(text, "| Mean: ") && strstr(text, " 3.00 | ") && strstr(text, " 6.00 | "));
        CHECK(strstr(text, "| Total: ") && strstr(text, "+40.0% |"));
        check_no_split_at(__LINE__, "picollo_summary_diff", call_diff, &t, text, "Δ");
    }
    free(text);

    /* Default names; an empty side: n/a. */
    t.name_a = NULL;
    t.name_b = NULL;
    t.b = &e;
    t.title = NULL;
    text = RENDER("picollo_summary_diff (empty side)", call_diff, &t);
    if (text != NULL) {
        CHECK(starts_with(text, "| Percentile | A ") && strstr(text, " | B ") != NULL);
        p = strstr(text, "| D-value:");
        CHECK(p != NULL && strstr(p, "n/a |") != NULL);
        CHECK(count_of(text, " n/a |") >= 16);
    }
    free(text);

    /* A summary against itself: every Δ is 0.0 %; D is undefined (no difference, spread). */
    t.b = &a;
    t.name_a = "same";
    t.name_b = "";
    text = RENDER("picollo_summary_diff (itself)", call_diff, &t);
    if (text != NULL) {
        CHECK(starts_with(text, "| Percentile | same ") && strstr(text, " | B ") != NULL);
        CHECKF(count_of(text, " 0.0% |") == 16 + 4, "%zu", count_of(text, " 0.0% |"));
        p = strstr(text, "| D-value:");
        CHECK(p != NULL && strstr(p, " 0.00 |") != NULL);
    }
    free(text);
    picollo_histogram_free(ha);
    picollo_histogram_free(hb);
    picollo_histogram_free(he);
}

static void test_line_json_format(void)
{
    picollo_histogram *h = seed_histogram();
    picollo_summary s = summary_of(h);
    text_args t;
    char *text, g[64], want[160];
    int k;

    memset(&t, 0, sizeof t);
    t.a = &s;
    t.title = "before";
    text = RENDER("picollo_summary_line", call_line, &t);
    if (text != NULL) {
        sprintf(want, "before: Total=%s, Overflow=1, Underflow=1, Mean=", grouped(s.total, g));
        CHECKF(strncmp(text, want, strlen(want)) == 0, "%s", text);
        CHECK(strchr(text, '\n') == NULL);
        sprintf(want, ", P99=%s, ", grouped(s.percentiles[11].value, g));
        CHECK(strstr(text, want) != NULL);
        sprintf(want, ", P100=%s", grouped(s.percentiles[15].value, g));
        CHECK(strlen(text) > strlen(want) && strcmp(text + strlen(text) - strlen(want), want) == 0);
        CHECK(strstr(text, ", P0=") && strstr(text, ", P25=") && strstr(text, ", P50=") &&
              strstr(text, ", P90=") && strstr(text, ", P95=") && strstr(text, ", P999="));
    }
    free(text);
    t.title = NULL;
    text = RENDER("picollo_summary_line (no name)", call_line, &t);
    CHECK(text != NULL && starts_with(text, "Total="));
    free(text);

    text = RENDER("picollo_summary_json", call_json, &t);
    if (text != NULL) {
        const char *p;
        int values_ok = 1;
        sprintf(want, "{\"minTrackableValue\":10000,\"maxTrackableValue\":30000,\"totalCount\":%llu,"
                      "\"underflowCount\":1,\"overflowCount\":1,",
                (unsigned long long)s.total);
        CHECKF(strncmp(text, want, strlen(want)) == 0, "%.120s", text);
        CHECK(text[strlen(text) - 1] == '}' && strstr(text, "]}") != NULL);
        CHECK(count_of(text, "\"rank\":") == 16 && count_of(text, "\"cumulativeCount\":") == 16);
        p = strstr(text, "\"mean\":");
        /* Shortest round-trip digits: the parsed number is the same double. */
        CHECK(p != NULL && strtod(p + 7, NULL) == s.mean);
        p = strstr(text, "\"stDev\":");
        CHECK(p != NULL && strtod(p + 8, NULL) == s.stdev);
        p = strstr(text, "\"precision\":");
        CHECK(p != NULL && strtod(p + 12, NULL) == 0.0078125);
        p = text;
        for (k = 0; k < 16; k++) {
            p = strstr(p, "\"rank\":");
            if (p == NULL) {
                values_ok = 0;
                break;
            }
            values_ok &= strtod(p + 7, NULL) == standard_ranks[k];
            p = strstr(p, "\"value\":");
            values_ok &= p != NULL && strtoull(p + 8, NULL, 10) == s.percentiles[k].value;
        }
        CHECK(values_ok);
    }
    free(text);
    {
        picollo_histogram *e = make_histogram(64, 0.01, 0, 1000);
        picollo_summary es = summary_of(e);
        t.a = &es;
        text = RENDER("picollo_summary_json (empty)", call_json, &t);
        CHECK(text != NULL && strstr(text, "\"totalCount\":0,") && strstr(text, "\"mean\":null") &&
              strstr(text, "\"stDev\":null"));
        free(text);
        t.title = "empty";
        text = RENDER("picollo_summary_line (empty)", call_line, &t);
        CHECK(text != NULL && strstr(text, "Mean=n/a") && strstr(text, ", P50=-,"));
        free(text);
        picollo_histogram_free(e);
    }

    /* A percentile: the announcement's P99 line. */
    {
        picollo_histogram *one = make_histogram(32, 0.01, 10000, 30000);
        picollo_percentile p;
        picollo_histogram_record(one, 24900);
        EXPECT(picollo_histogram_percentile(one, 99.0, &p), PICOLLO_STATUS_OK);
        t.p = &p;
        text = RENDER("picollo_percentile_format", call_format, &t);
        CHECKF(text != NULL && strcmp(text, "P99=24,960 [83 / 609]: [24,832, 25,088) 1") == 0,
               "\"%s\"", text ? text : "");
        free(text);
        EXPECT(picollo_histogram_percentile(one, 99.9, &p), PICOLLO_STATUS_OK);
        text = RENDER("picollo_percentile_format (99.9)", call_format, &t);
        CHECK(text != NULL && starts_with(text, "P99.9=24,960 "));
        free(text);
        picollo_histogram_free(one);
    }
    /* The topmost bucket's exclusive bound is 2^64, printed in full. */
    {
        picollo_histogram *top = make_histogram(64, 0.001, 0, UINT64_MAX);
        picollo_percentile p;
        picollo_histogram_record(top, UINT64_MAX);
        EXPECT(picollo_histogram_percentile(top, 100.0, &p), PICOLLO_STATUS_OK);
        t.p = &p;
        text = RENDER("picollo_percentile_format (top bucket)", call_format, &t);
        CHECKF(text != NULL && strstr(text, ", 18,446,744,073,709,551,616) 1") != NULL, "\"%s\"",
               text ? text : "");
        free(text);
        picollo_histogram_free(top);
    }
    picollo_histogram_free(h);
}

/* NULL inputs and bad UTF-8 fail before anything is written, `needed` included. */
static void test_text_bad_arguments(void)
{
    picollo_histogram *h = seed_histogram();
    picollo_summary s = summary_of(h);
    picollo_percentile p = s.percentiles[5];
    char buf[64];
    size_t needed = 777;
    const char *bad = "bad \xff\xfe utf-8";
    const char *cut = "cut \xce";

    memset(buf, CANARY, sizeof buf);
    EXPECT_MSG(picollo_summary_table(NULL, "t", buf, sizeof buf, &needed),
               PICOLLO_STATUS_NULL_POINTER, "summary");
    EXPECT_MSG(picollo_summary_diff(NULL, &s, NULL, NULL, NULL, buf, sizeof buf, &needed),
               PICOLLO_STATUS_NULL_POINTER, "a");
    EXPECT_MSG(picollo_summary_diff(&s, NULL, NULL, NULL, NULL, buf, sizeof buf, &needed),
               PICOLLO_STATUS_NULL_POINTER, "b");
    EXPECT_MSG(picollo_summary_line(NULL, "n", buf, sizeof buf, &needed),
               PICOLLO_STATUS_NULL_POINTER, "summary");
    EXPECT_MSG(picollo_summary_json(NULL, buf, sizeof buf, &needed), PICOLLO_STATUS_NULL_POINTER,
               "summary");
    EXPECT_MSG(picollo_percentile_format(NULL, buf, sizeof buf, &needed),
               PICOLLO_STATUS_NULL_POINTER, "p");
    EXPECT_MSG(picollo_histogram_table(NULL, "t", buf, sizeof buf, &needed),
               PICOLLO_STATUS_NULL_POINTER, "h");
    /* Argument errors come before the size query. */
    EXPECT(picollo_summary_table(NULL, NULL, NULL, 0, &needed), PICOLLO_STATUS_NULL_POINTER);
    EXPECT(picollo_histogram_table(NULL, NULL, NULL, 0, NULL), PICOLLO_STATUS_NULL_POINTER);

    EXPECT_MSG(picollo_summary_table(&s, bad, buf, sizeof buf, &needed),
               PICOLLO_STATUS_INVALID_UTF8, "title");
    EXPECT_MSG(picollo_summary_table(&s, cut, buf, sizeof buf, &needed),
               PICOLLO_STATUS_INVALID_UTF8, "title");
    EXPECT_MSG(picollo_histogram_table(h, bad, buf, sizeof buf, &needed),
               PICOLLO_STATUS_INVALID_UTF8, "title");
    EXPECT_MSG(picollo_summary_diff(&s, &s, bad, NULL, NULL, buf, sizeof buf, &needed),
               PICOLLO_STATUS_INVALID_UTF8, "title");
    EXPECT_MSG(picollo_summary_diff(&s, &s, NULL, bad, NULL, buf, sizeof buf, &needed),
               PICOLLO_STATUS_INVALID_UTF8, "name_a");
    EXPECT_MSG(picollo_summary_diff(&s, &s, NULL, NULL, cut, buf, sizeof buf, &needed),
               PICOLLO_STATUS_INVALID_UTF8, "name_b");
    EXPECT_MSG(picollo_summary_line(&s, bad, buf, sizeof buf, &needed),
               PICOLLO_STATUS_INVALID_UTF8, "name");
    CHECK(needed == 777 && canary_intact(buf, 0, sizeof buf));

    /* Caller-made structs are plain data: any values give a defined answer. */
    {
        picollo_summary odd = s;
        picollo_percentile oddp = p;
        char big[8192];
        int k;
        odd.total = UINT64_MAX;
        odd.mean = -1.5e18;
        odd.stdev = NAN;
        odd.precision = INFINITY;
        odd.min_trackable = UINT64_MAX;
        odd.max_trackable = 0;
        for (k = 0; k < PICOLLO_SUMMARY_PERCENTILES; k++) {
            odd.percentiles[k].rank = NAN;
            odd.percentiles[k].value = UINT64_MAX - (uint64_t)k;
            odd.percentiles[k].plus_minus = UINT64_MAX;
        }
        EXPECT(picollo_summary_table(&odd, "odd", big, sizeof big, NULL), PICOLLO_STATUS_OK);
        EXPECT(picollo_summary_diff(&odd, &s, "odd", NULL, NULL, big, sizeof big, NULL),
               PICOLLO_STATUS_OK);
        EXPECT(picollo_summary_line(&odd, "odd", big, sizeof big, NULL), PICOLLO_STATUS_OK);
        EXPECT(picollo_summary_json(&odd, big, sizeof big, NULL), PICOLLO_STATUS_OK);
        CHECK(strstr(big, "\"stDev\":null") != NULL);
        oddp.rank = -INFINITY;
        oddp.highest = UINT64_MAX;
        oddp.lower = UINT64_MAX;
        EXPECT(picollo_percentile_format(&oddp, big, sizeof big, NULL), PICOLLO_STATUS_OK);
        oddp.rank = 1e300;
        EXPECT(picollo_percentile_format(&oddp, big, sizeof big, NULL), PICOLLO_STATUS_OK);
        /* Values no histogram produces and the fixed-width table cannot hold: refused as
         * an argument error, with nothing written. */
        odd = s;
        odd.mean = 1e300;
        memset(big, CANARY, sizeof big);
        needed = 777;
        EXPECT_MSG(picollo_summary_table(&odd, NULL, big, sizeof big, &needed),
                   PICOLLO_STATUS_INVALID_ARGUMENT, "values");
        EXPECT(picollo_summary_diff(&s, &odd, NULL, NULL, NULL, big, sizeof big, &needed),
               PICOLLO_STATUS_INVALID_ARGUMENT);
        CHECK(needed == 777 && canary_intact(big, 0, sizeof big));
        /* The one-line form and JSON have no cells: they print it. */
        EXPECT(picollo_summary_line(&odd, NULL, big, sizeof big, NULL), PICOLLO_STATUS_OK);
        EXPECT(picollo_summary_json(&odd, big, sizeof big, NULL), PICOLLO_STATUS_OK);
        CHECK(strtod(strstr(big, "\"mean\":") + 7, NULL) == 1e300);
    }
    picollo_histogram_free(h);
}

/* The CSV of buckets by name: a row per bucket of picollo_histogram_next_bucket, the one
 * iteration of the library, and the same name listed by picollo_format_names. */
static void test_format_by_name(void)
{
    picollo_histogram *h = seed_histogram();
    char csv[1 << 16], row[128], names[1024];
    size_t cursor = 0, at, needed = 0;
    picollo_bucket b;
    EXPECT(picollo_histogram_format(h, "csv", NULL, 0, (uint8_t *)csv, sizeof csv, &needed), PICOLLO_STATUS_OK);
    CHECK(strncmp(csv, "lower,upper,count\n", 18) == 0);
    at = 18;
    while (picollo_histogram_next_bucket(h, &cursor, &b) == PICOLLO_STATUS_OK) {
        int n = snprintf(row, sizeof row, "%llu,%llu,%llu\n", (unsigned long long)b.lower,
                         (unsigned long long)b.highest, (unsigned long long)b.count);
        CHECK(strncmp(csv + at, row, (size_t)n) == 0);
        at += (size_t)n;
    }
    CHECK(at == needed && csv[at] == '\0');
    EXPECT(picollo_format_names(names, sizeof names, NULL), PICOLLO_STATUS_OK);
    CHECK(strstr(names, "\ncsv\n") != NULL || strncmp(names, "csv\n", 4) == 0);
    picollo_histogram_free(h);
}

void test_text(void)
{
    test_table();
    test_diff();
    test_line_json_format();
    test_text_bad_arguments();
    test_format_by_name();
}

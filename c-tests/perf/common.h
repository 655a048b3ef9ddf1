/* Helpers shared by the perf examples: die on an unexpected status, print a table. */
#ifndef PICOLLO_PERF_EXAMPLE_COMMON_H
#define PICOLLO_PERF_EXAMPLE_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "picollo.h"

/* Exit with the library's message when a call fails. */
#define TRY(call)                                                                           \
    do {                                                                                    \
        picollo_status st_ = (call);                                                        \
        if (st_ != PICOLLO_STATUS_OK) {                                                     \
            fprintf(stderr, "%s failed: %s: %s\n", #call, picollo_status_str(st_),          \
                    picollo_last_error_message());                                          \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

/* Print discovery's line: the counters the PMU has, or why there is none. */
static inline void print_discovery(void)
{
    struct picollo_perf_info info;
    char line[512];
    TRY(picollo_perf_discover(&info));
    if (picollo_perf_describe(line, sizeof line, NULL) != PICOLLO_STATUS_OK)
        line[0] = '\0';
    if (info.present)
        printf("CPU PMU: fixedCounters=%u, programmableCounters=%u\n", info.fixed_counters,
               info.programmable_counters);
    else
        printf("CPU PMU: unavailable: %s\n", line);
}

/* Print the Markdown table of a histogram, sized with a (NULL, 0) call first. */
static inline void print_table(const struct picollo_histogram *h, const char *title)
{
    size_t needed = 0;
    (void)picollo_histogram_table(h, title, NULL, 0, &needed);
    char *text = malloc(needed + 1);
    if (!text)
        exit(1);
    TRY(picollo_histogram_table(h, title, text, needed + 1, NULL));
    printf("%s\n", text);
    free(text);
}

#endif

/*
 * picollo_l1d.h: the L1 data cache model of picollo_qemu_plugin.c (plugin argument `l1d=`).
 *
 * Set-associative, LRU replacement, write-allocate (a store that misses fills its line as a
 * load does), no prefetching, no write-backs; indexed by the guest's virtual address. An
 * access touches every line it spans (an 8-byte load across a line boundary touches two);
 * each line touched that is not in the cache is one miss. One model per guest thread: the
 * threads' caches are private, as L1D caches are.
 *
 * The model is this header alone (static functions), so that the plugin is one translation
 * unit that any build compiles with one command (perf/build.rs does). Each set keeps its
 * ways in order of use, most recent first: LRU is "move to the front", the victim the last.
 */
#ifndef PICOLLO_L1D_H
#define PICOLLO_L1D_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The model's size in bytes, ways per set and line size in bytes: powers of two. */
typedef struct picollo_l1d_geometry {
    uint64_t bytes;
    uint64_t ways;
    uint64_t line;
} picollo_l1d_geometry;

/* `l1d=on`: 32 KiB, 8 ways, 64-byte lines (64 sets), an L1D of many x86-64 and Arm cores. */
#define PICOLLO_L1D_DEFAULT {32768, 8, 64}
/* The most lines a model may have (8 MiB of tags per thread). */
#define PICOLLO_L1D_MAX_LINES (1u << 20)

typedef struct picollo_l1d {
    unsigned line_shift; /* log2 of the line size: an address's line is vaddr >> line_shift */
    uint64_t set_mask;   /* sets - 1: a line's set is line & set_mask (sets is a power of two) */
    uint64_t ways;
    /* sets × ways tags, each set most recent first; a tag is its line number + 1 (0: empty,
     * so a cold cache is all zero). */
    uint64_t tags[];
} picollo_l1d;

/* Whether v is a power of two (1 included). */
static bool l1d_power_of_two(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* One decimal field of "BYTES:WAYS:LINE" ending at `end` (':' or '\0'); false if it is not. */
static bool l1d_field(const char **text, char end, uint64_t *out)
{
    char *stop;
    if (**text < '0' || **text > '9') {
        return false; /* strtoull would accept a sign or spaces */
    }
    errno = 0;
    *out = strtoull(*text, &stop, 10);
    if (errno != 0 || *stop != end) {
        return false;
    }
    *text = end ? stop + 1 : stop;
    return true;
}

/* Reads "on" or "BYTES:WAYS:LINE" into *out: NULL, or why it is not a geometry (powers of
 * two, at least one set, at most 2^20 lines). */
static const char *picollo_l1d_parse(const char *text, picollo_l1d_geometry *out)
{
    picollo_l1d_geometry g = PICOLLO_L1D_DEFAULT;
    if (strcmp(text, "on") != 0 &&
        !(l1d_field(&text, ':', &g.bytes) && l1d_field(&text, ':', &g.ways) &&
          l1d_field(&text, '\0', &g.line))) {
        return "want on or BYTES:WAYS:LINE, three decimal numbers";
    }
    if (!l1d_power_of_two(g.bytes) || !l1d_power_of_two(g.ways) || !l1d_power_of_two(g.line)) {
        return "BYTES, WAYS and LINE must be powers of two";
    }
    /* Division, not ways * line, which could wrap: at least one set of `ways` lines. */
    if (g.line > g.bytes / g.ways) {
        return "WAYS lines of LINE bytes do not fit in BYTES (no set)";
    }
    if (g.bytes / g.line > PICOLLO_L1D_MAX_LINES) {
        return "more than 2^20 lines (BYTES / LINE)";
    }
    *out = g;
    return NULL;
}

/* A cold cache of a parsed geometry (NULL if out of memory): every tag 0, empty. */
static picollo_l1d *picollo_l1d_new(const picollo_l1d_geometry *geometry)
{
    uint64_t lines = geometry->bytes / geometry->line;
    picollo_l1d *cache = calloc(1, sizeof *cache + lines * sizeof cache->tags[0]);
    if (cache == NULL) {
        return NULL;
    }
    cache->line_shift = (unsigned)__builtin_ctzll(geometry->line);
    cache->set_mask = lines / geometry->ways - 1;
    cache->ways = geometry->ways;
    return cache;
}

/* Uses one line: true if it was cached. Either way it becomes its set's most recent. */
static bool l1d_touch(picollo_l1d *cache, uint64_t line)
{
    uint64_t *set = &cache->tags[(line & cache->set_mask) * cache->ways];
    uint64_t tag = line + 1, i = 0;
    /* Stop at the line, or at the last way: the least recently used, the victim on a miss. */
    while (i + 1 < cache->ways && set[i] != tag) {
        i++;
    }
    bool hit = set[i] == tag;
    /* The ways used more recently than way i age by one; way i's line (or victim) goes. */
    memmove(&set[1], &set[0], i * sizeof *set);
    set[0] = tag;
    return hit;
}

/* Touches the lines of `size` bytes at `vaddr` (size >= 1; two across a line boundary):
 * the number of them that missed. */
static unsigned picollo_l1d_access(picollo_l1d *cache, uint64_t vaddr, unsigned size)
{
    uint64_t line = vaddr >> cache->line_shift;
    uint64_t last = (vaddr + size - 1) >> cache->line_shift;
    unsigned misses = 0;
    for (; line <= last; line++) {
        misses += !l1d_touch(cache, line);
    }
    return misses;
}

#endif

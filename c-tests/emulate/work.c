/*
 * work.c: guest work of a known size for the checks scripts/emulate.sh makes from outside
 * the guest (the plugin's `totals=PATH` record, and PICOLLO_EMULATED_INCOMPLETE):
 *   work chain N        N chain steps (emulated_asm.h: 3 instructions each), nothing else;
 *                       two runs whose N have the same number of digits differ by exactly
 *                       3 * (N2 - N1) instructions in their totals
 *   work threads WANT   two threads alive at once (vCPUs 1 and 2) each read their record,
 *                       then the main thread reads its own; WANT "complete": no record is
 *                       flagged incomplete; "incomplete" (a plugin with 2 slots, so vCPU 2
 *                       runs uncounted): every record is flagged, vCPU 2's counts are 0
 */
#include "emulated_guest.h"

#include <pthread.h>
#include <string.h>

static pthread_barrier_t together;
static picollo_emulated_counts seen[2];

/* Reads its own record while the other thread is alive too, one thread at a time. */
static void *reader(void *arg)
{
    int me = (int)(long)arg;
    for (int turn = 0; turn < 2; turn++) {
        pthread_barrier_wait(&together);
        if (turn == me) {
            seen[me] = guest_counts();
        }
    }
    pthread_barrier_wait(&together);
    return NULL;
}

/* The records of two concurrent threads and then the main thread's, against `want`. */
static int threads(bool want_incomplete)
{
    pthread_t t[2];
    guest_open();
    pthread_barrier_init(&together, NULL, 2);
    for (long i = 0; i < 2; i++) {
        pthread_create(&t[i], NULL, reader, (void *)i);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
    }
    picollo_emulated_counts last = guest_counts();
    for (int i = 0; i < 2; i++) {
        const picollo_emulated_counts *r = &seen[i];
        bool flagged = r->flags & PICOLLO_EMULATED_INCOMPLETE;
        printf("work: vCPU %llu: flags %#llx, %llu instructions\n",
               (unsigned long long)r->thread, (unsigned long long)r->flags,
               (unsigned long long)r->instructions);
        /* Both threads have run before either reads: with 2 slots, vCPU 2 was lost first. */
        CHECK(flagged == want_incomplete, "vCPU %llu flagged: %d", (unsigned long long)r->thread,
              flagged);
        CHECK(!(want_incomplete && r->thread >= 2 && r->instructions != 0),
              "vCPU %llu, past the slots, has counts", (unsigned long long)r->thread);
    }
    CHECK(!!(last.flags & PICOLLO_EMULATED_INCOMPLETE) == want_incomplete,
          "the main thread's record after them: flags %#llx", (unsigned long long)last.flags);
    printf("work: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "chain") == 0) {
        chain_steps(strtoul(argv[2], NULL, 10));
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "threads") == 0) {
        return threads(strcmp(argv[2], "incomplete") == 0);
    }
    fprintf(stderr, "usage: work chain N | work threads complete|incomplete\n");
    return 2;
}

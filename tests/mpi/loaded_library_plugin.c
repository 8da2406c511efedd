/* The library loaded_library.c opens with dlopen in every rank: globals of every kind a
 * library has (initialised data with a relocation, .bss, a long run written by its
 * constructor, thread-locals, a heap block its constructor allocates), each set per rank by
 * plugin_set and checked by plugin_check. Each rank runs the constructor itself, as each process
 * does natively: run once and copied, every rank's `slot` would point at one block. */
#include <stdlib.h>
#include <string.h>

#define TABLE_INTS (64 * 1024) /* 256 KiB: switched by written page, remapped when written whole */

static const char *who = "constructor has not run"; /* relocated at load */
static int calls;                                    /* .bss */
static int table[TABLE_INTS] = {1};                  /* .data */
static __thread int tls_value = 7;                   /* thread-locals of a library loaded late */
static int *slot;                                    /* the constructor's heap block */
static int constructions;

__attribute__((constructor)) static void construct(void)
{
    int i;
    for (i = 0; i < TABLE_INTS; ++i) table[i] = -1; /* every page written at load */
    who = "constructed";
    slot = malloc(sizeof *slot);
    *slot = -1;
    ++constructions;
}

int plugin_set(int rank)
{
    int i, fresh = calls == 0 && tls_value == 7 && table[0] == -1 && table[TABLE_INTS - 1] == -1 &&
                   strcmp(who, "constructed") == 0 && constructions == 1 && *slot == -1;
    ++calls;
    *slot = rank;
    tls_value = rank;
    for (i = 0; i < TABLE_INTS; ++i) table[i] = rank;
    return fresh;
}

int plugin_check(int rank)
{
    int i, bad = (calls != 1) + (tls_value != rank) + (strcmp(who, "constructed") != 0) + (constructions != 1) +
                 (*slot != rank);
    for (i = 0; i < TABLE_INTS; ++i) bad += table[i] != rank;
    return bad;
}

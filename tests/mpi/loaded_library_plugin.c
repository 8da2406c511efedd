/* The library loaded_library.c opens with dlopen in every rank: globals of every kind a
 * library has (initialised data with a relocation, .bss, a long run written by its
 * constructor, thread-locals), each set per rank by plugin_set and checked by plugin_check. */
#include <string.h>

#define TABLE_INTS (64 * 1024) /* 256 KiB: switched by written page, remapped when written whole */

static const char *who = "constructor has not run"; /* relocated at load */
static int calls;                                    /* .bss */
static int table[TABLE_INTS] = {1};                  /* .data */
static __thread int tls_value = 7;                   /* thread-locals of a library loaded late */

__attribute__((constructor)) static void construct(void)
{
    int i;
    for (i = 0; i < TABLE_INTS; ++i) table[i] = -1; /* every page written at load */
    who = "constructed";
}

int plugin_set(int rank)
{
    int i, fresh = calls == 0 && tls_value == 7 && table[0] == -1 && table[TABLE_INTS - 1] == -1 &&
                   strcmp(who, "constructed") == 0;
    ++calls;
    tls_value = rank;
    for (i = 0; i < TABLE_INTS; ++i) table[i] = rank;
    return fresh;
}

int plugin_check(int rank)
{
    int i, bad = (calls != 1) + (tls_value != rank) + (strcmp(who, "constructed") != 0);
    for (i = 0; i < TABLE_INTS; ++i) bad += table[i] != rank;
    return bad;
}

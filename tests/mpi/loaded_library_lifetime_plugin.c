/* The library loaded_library_lifetime.c opens and closes: its constructor counts itself in the
 * program's globals and in its own (a fresh copy of the library starts at zero), and registers
 * two exit handlers (atexit, and __cxa_atexit for an object of its own, as a C++ compiler
 * registers a static's destructor); its destructor counts itself in the program's globals.
 * It counts its constructions in a thread-local of its own too. */
#include <stdio.h>
#include <stdlib.h>

extern int lifetime_constructions, lifetime_destructions, lifetime_exit_handlers; /* the program's */
extern void *__dso_handle;
extern int __cxa_atexit(void (*function)(void *), void *arg, void *dso_handle);

static int object;        /* 1 while constructed */
static int constructions; /* the library's own count: 1 in each copy of the library */
static __thread int thread_constructions; /* the same in a thread-local */

static void at_exit(void) { ++lifetime_exit_handlers; }

static void destroy(void *arg)
{
    int *o = (int *)arg;
    if (o != &object || *o != 1)
        printf("FAIL loaded_library_lifetime: the library's object was destroyed in state %d\n", *o);
    *o = 0;
    ++lifetime_exit_handlers;
}

__attribute__((constructor)) static void construct(void)
{
    ++lifetime_constructions;
    ++constructions;
    ++thread_constructions;
    object = 1;
    atexit(at_exit);
    __cxa_atexit(destroy, &object, &__dso_handle);
}

__attribute__((destructor)) static void destruct(void) { ++lifetime_destructions; }

int lifetime_own_constructions(void) { return constructions; }
int lifetime_thread_constructions(void) { return thread_constructions; }
int lifetime_object(void) { return object; }

/* The library loaded_library_constructors.c opens: its constructor counts itself in the
 * program's globals and in its own, and registers two exit handlers that count their runs in
 * the program's globals: one with atexit, one with __cxa_atexit for an object of the
 * library's own (as a C++ compiler registers a static's destructor). */
#include <stdio.h>
#include <stdlib.h>

extern int plugin_constructions, plugin_exit_handlers; /* the program's */
extern void *__dso_handle;
extern int __cxa_atexit(void (*function)(void *), void *arg, void *dso_handle);

static int object;        /* 1 while constructed */
static int constructions; /* the library's own count */

static void at_exit(void) { ++plugin_exit_handlers; }

static void destroy(void *arg)
{
    int *o = (int *)arg;
    if (o != &object || *o != 1)
        printf("FAIL loaded_library_constructors: the library's object was destroyed in state %d\n", *o);
    *o = 0;
    ++plugin_exit_handlers;
}

__attribute__((constructor)) static void construct(void)
{
    ++plugin_constructions;
    ++constructions;
    object = 1;
    atexit(at_exit);
    __cxa_atexit(destroy, &object, &__dso_handle);
}

int plugin_own_constructions(void) { return constructions; }

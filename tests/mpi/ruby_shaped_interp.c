/* The interpreter library of ruby_shaped_main.c (a stand-in for libruby): its globals are the
 * interpreter's state, which must be each simulated rank's own. ruby_options takes the
 * extension module's path from the command line, ruby_run_node loads it (dlopen) and runs its
 * Init function, which registers itself here (as ruby-mpi's Init_mpi calls rb_define_module)
 * and then runs the MPI program. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* extension_path;
static int registered_modules; /* the interpreter's state: one registration per interpreter */
static char last_module[64];

void* ruby_options(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "FAIL ruby_shaped: usage: %s <extension.so> (argc %d)\n", argv[0], argc);
        return NULL;
    }
    extension_path = argv[1];
    return (void*)extension_path;
}

/* Called back by the extension (it imports this from the interpreter's library). */
int rb_shaped_define_module(const char* name) {
    snprintf(last_module, sizeof last_module, "%s", name);
    return ++registered_modules;
}

const char* rb_shaped_last_module(void) {
    return last_module;
}

int ruby_run_node(void* node) {
    if (!node) return 2;
    void* extension = dlopen((const char*)node, RTLD_NOW | RTLD_GLOBAL);
    if (!extension) {
        fprintf(stderr, "FAIL ruby_shaped: dlopen: %s\n", dlerror());
        return 1;
    }
    int (*init)(void) = (int (*)(void))dlsym(extension, "Init_ruby_shaped_ext");
    if (!init) {
        fprintf(stderr, "FAIL ruby_shaped: no Init_ruby_shaped_ext\n");
        return 1;
    }
    return init();
}

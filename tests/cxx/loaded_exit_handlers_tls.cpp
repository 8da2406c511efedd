// Opened by loaded_exit_handlers.cpp before loaded_exit_handlers_plugin.cpp: a library with
// thread-locals, which the loader allocates on the heap when a library is loaded late, so
// that the addresses of its per-rank globals enclose those of the libraries loaded after it.
thread_local int tls_value = 7;
extern "C" int tls_use(int rank) {
    const int fresh = tls_value == 7;
    tls_value = rank;
    return fresh;
}

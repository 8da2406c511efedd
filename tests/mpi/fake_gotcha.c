/* A stand-in for GOTCHA's gotcha_get_wrappee (Caliper's default build): a tool that set up its
 * wrappers in one simulated rank reads its handle in another rank's copy of its globals, where
 * it is still null, and crashes in GOTCHA's code (rank_crash.c, segv_in_gotcha). */
void *gotcha_get_wrappee(void *handle);

void *gotcha_get_wrappee(void *handle) { return *(void *volatile *)handle; }

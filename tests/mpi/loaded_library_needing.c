/* A library that needs loaded_library_needed.c's (DT_NEEDED), for loaded_library_constructors.c:
 * its constructor counts itself in the program's globals and notes whether the library it
 * needs was constructed before it, in the same image, as the loader orders them. */
extern int needing_constructions, needing_saw_needed; /* the program's */
int needed_constructed(void);

__attribute__((constructor)) static void construct(void)
{
    ++needing_constructions;
    needing_saw_needed = needed_constructed();
}

/* A library that loaded_library_needing.c needs (DT_NEEDED), for loaded_library_constructors.c:
 * its constructor counts itself in the program's globals and in its own. */
extern int needed_constructions; /* the program's */

static int constructed;

__attribute__((constructor)) static void construct(void)
{
    ++needed_constructions;
    ++constructed;
}

int needed_constructed(void) { return constructed; }

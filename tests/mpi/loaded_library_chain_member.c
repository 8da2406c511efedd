/* One library of loaded_library_chain.c's chains, built once per member with CHAIN_INDEX (its
 * index) and, for a library that needs another (DT_NEEDED), CHAIN_NEEDS (that one's index).
 * Its constructor counts itself in the program's globals, notes the order of constructions,
 * and whether the library it needs was constructed before it in the same image (calling it:
 * the reference that makes the link keep the DT_NEEDED entry). */
extern int chain_constructions[], chain_order[], chain_saw_needed[], chain_seq; /* the program's */

#define JOIN2(a, b) a##b
#define JOIN(a, b) JOIN2(a, b)
#define MEMBER(i) JOIN(chain_member_, i)

static int constructed;

int MEMBER(CHAIN_INDEX)(void) { return constructed; }

#ifdef CHAIN_NEEDS
int MEMBER(CHAIN_NEEDS)(void);
#endif

__attribute__((constructor)) static void construct(void)
{
    ++constructed;
    ++chain_constructions[CHAIN_INDEX];
    chain_order[chain_seq++ % 8] = CHAIN_INDEX;
#ifdef CHAIN_NEEDS
    chain_saw_needed[CHAIN_INDEX] = MEMBER(CHAIN_NEEDS)() == 1 && chain_constructions[CHAIN_NEEDS] >= 1;
#else
    chain_saw_needed[CHAIN_INDEX] = 1;
#endif
}

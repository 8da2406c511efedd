/* The MPI tool information interface (MPI 3.1 chapter 14, MPI_T_*): every call before
 * MPI_T_init_thread and after the matching MPI_T_finalize gives MPI_T_ERR_NOT_INITIALIZED;
 * control variables are enumerated with their names, found again by name, one integer
 * cvar is read (the same value on every rank) and an enumeration of a cvar that has one is
 * listed; init/finalize cycles; performance variables: the count, a session created and freed, start/stop/reset
 * of MPI_T_PVAR_ALL_HANDLES on it; categories: count, changed stamp; error codes for bad
 * indices and names; nested init/finalize. Runs natively too (the reference); under xsim,
 * which has no performance variables or categories of its own (the real library's would
 * count the real processes' traffic, not the simulated ranks'), it also checks that both
 * counts are 0 and that bad handles, sessions and enumerations are refused (Open MPI 4.1
 * crashes on them). */
#include "conformance.h"

#define NAME_LEN 256

/* An index out of range is MPI_T_ERR_INVALID_INDEX (MPI 3.1 section 14.3.9); Open MPI 4.1
 * gives MPI_T_ERR_INVALID for some, which only the native run accepts. */
static int index_refused(int rc, int under_xsim) {
    return rc == MPI_T_ERR_INVALID_INDEX || (!under_xsim && rc == MPI_T_ERR_INVALID);
}
/* An enumeration item out of range: MPI_T_ERR_INVALID_ITEM (Open MPI 4.1: INVALID_INDEX). */
static int item_refused(int rc, int under_xsim) {
    return rc == MPI_T_ERR_INVALID_ITEM || (!under_xsim && rc == MPI_T_ERR_INVALID_INDEX);
}

/* Every MPI_T call that needs MPI_T initialized, with harmless arguments: each must give
 * MPI_T_ERR_NOT_INITIALIZED. Returns the number that did not. */
static int count_not_refused(const char* when, int rank) {
    int n = 0, bad = 0, i = 0, stamp = 0;
    char name[NAME_LEN], desc[NAME_LEN];
    int name_len = NAME_LEN, desc_len = NAME_LEN, verbosity, bind, scope, var_class, ro, cont, atomic;
    MPI_Datatype dt;
    MPI_T_enum et;
    MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
    int codes[8];
    codes[0] = MPI_T_cvar_get_num(&n);
    codes[1] = MPI_T_cvar_get_info(0, name, &name_len, &verbosity, &dt, &et, desc, &desc_len, &bind, &scope);
    codes[2] = MPI_T_pvar_get_num(&n);
    codes[3] = MPI_T_pvar_get_info(0, name, &name_len, &verbosity, &var_class, &dt, &et, desc, &desc_len, &bind, &ro,
                                   &cont, &atomic);
    codes[4] = MPI_T_pvar_session_create(&session);
    codes[5] = MPI_T_category_get_num(&n);
    codes[6] = MPI_T_category_changed(&stamp);
    codes[7] = MPI_T_cvar_get_index("mpi_param_check", &i);
    for (i = 0; i < 8; i++) {
        if (codes[i] != MPI_T_ERR_NOT_INITIALIZED) {
            fprintf(stderr, "tool_interface: rank %d: %s: call %d returned %d, not MPI_T_ERR_NOT_INITIALIZED\n", rank,
                    when, i, codes[i]);
            bad++;
        }
    }
    return bad;
}

/* Cycles of init and finalize, as a tool that looks up one variable does. (Under xsim the
 * ranks of a process get here one after another: passing each cycle to Open MPI would
 * reopen all its components every time.) Returns
 * the number of failures. */
static int init_finalize_cycles(void) {
    int cycle, bad = 0;
    for (cycle = 0; cycle < 2; cycle++) {
        int n = -1, provided = -1;
        if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS || MPI_T_cvar_get_num(&n) != MPI_SUCCESS ||
            n <= 0 || MPI_T_finalize() != MPI_SUCCESS)
            bad++;
    }
    return bad;
}

/* Control variables: names, lookup by name, one read, one enumeration. */
static void cvars(conf_t* t, int under_xsim) {
    int num = -1, i, read_index = -1, enum_index = -1;
    CONF_CALL(t, MPI_T_cvar_get_num(&num));
    CONF_CHECK(t, num > 0, "MPI_T_cvar_get_num %d", num);
    for (i = 0; i < num; i++) {
        char name[NAME_LEN], desc[1024];
        int name_len = NAME_LEN, desc_len = (int)sizeof desc, verbosity = -1, bind = -1, scope = -1, found = -1;
        MPI_Datatype dt = MPI_DATATYPE_NULL;
        MPI_T_enum et = MPI_T_ENUM_NULL;
        int rc = MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &dt, &et, desc, &desc_len, &bind, &scope);
        if (rc == MPI_T_ERR_INVALID_INDEX) continue; /* a variable deregistered since: allowed */
        CONF_CHECK(t, rc == MPI_SUCCESS, "MPI_T_cvar_get_info(%d) returned %d", i, rc);
        if (rc != MPI_SUCCESS) continue;
        CONF_CHECK(t, name_len > 1 && (int)strlen(name) + 1 == name_len, "cvar %d: name '%s' length %d", i, name,
                   name_len);
        CONF_CHECK(t, bind >= MPI_T_BIND_NO_OBJECT && bind <= MPI_T_BIND_MPI_INFO, "cvar %d '%s': bind %d", i, name,
                   bind);
        if (i < 50 || i % 37 == 0) { /* lookup by name, for a sample */
            CONF_CALL(t, MPI_T_cvar_get_index(name, &found));
            CONF_CHECK(t, found == i, "MPI_T_cvar_get_index('%s') %d, expected %d", name, found, i);
        }
        if (read_index < 0 && dt == MPI_INT && bind == MPI_T_BIND_NO_OBJECT && et == MPI_T_ENUM_NULL)
            read_index = i;
        if (enum_index < 0 && et != MPI_T_ENUM_NULL) {
            int items = -1, enum_len = NAME_LEN, value = -1, item_len = NAME_LEN;
            char enum_name[NAME_LEN], item_name[NAME_LEN];
            CONF_CALL(t, MPI_T_enum_get_info(et, &items, enum_name, &enum_len));
            CONF_CHECK(t, items > 0, "cvar '%s': enumeration '%s' of %d items", name, enum_name, items);
            if (items > 0) {
                CONF_CALL(t, MPI_T_enum_get_item(et, 0, &value, item_name, &item_len));
                CONF_CHECK(t, item_len > 1 && (int)strlen(item_name) + 1 == item_len,
                           "cvar '%s': enumeration item 0 '%s' length %d", name, item_name, item_len);
                item_len = NAME_LEN;
                CONF_CHECK(t, item_refused(MPI_T_enum_get_item(et, items, &value, item_name, &item_len), under_xsim),
                           "cvar '%s': enumeration item %d (one past the end) not refused", name, items);
            }
            enum_index = i;
        }
    }
    CONF_CHECK(t, enum_index >= 0, "no cvar has an enumeration");
    CONF_CHECK(t, read_index >= 0, "no unbound MPI_INT cvar to read");
    if (read_index >= 0) {
        MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
        int count = -1, value[64], lo, hi;
        CONF_CALL(t, MPI_T_cvar_handle_alloc(read_index, NULL, &h, &count));
        CONF_CHECK(t, count >= 1 && count <= 64, "cvar %d: count %d", read_index, count);
        if (count >= 1 && count <= 64) {
            CONF_CALL(t, MPI_T_cvar_read(h, value));
            /* The same on every rank: the variables configure the one library. */
            MPI_Allreduce(&value[0], &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            MPI_Allreduce(&value[0], &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            CONF_CHECK(t, lo == hi, "cvar %d reads %d..%d across ranks", read_index, lo, hi);
        }
        CONF_CALL(t, MPI_T_cvar_handle_free(&h));
        CONF_CHECK(t, h == MPI_T_CVAR_HANDLE_NULL, "MPI_T_cvar_handle_free did not null the handle");
    }
    /* Bad indices and names. */
    {
        char name[NAME_LEN];
        int name_len = NAME_LEN, verbosity, bind, scope, found = -1, count = -1;
        MPI_Datatype dt;
        MPI_T_enum et;
        MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
        CONF_CHECK(t, index_refused(MPI_T_cvar_get_info(num, name, &name_len, &verbosity, &dt, &et, NULL, NULL, &bind,
                                                        &scope), under_xsim), "MPI_T_cvar_get_info(num) not refused");
        CONF_CHECK(t, index_refused(MPI_T_cvar_get_info(-1, name, &name_len, &verbosity, &dt, &et, NULL, NULL, &bind,
                                                        &scope), under_xsim), "MPI_T_cvar_get_info(-1) not refused");
        CONF_CHECK(t, index_refused(MPI_T_cvar_handle_alloc(num, NULL, &h, &count), under_xsim),
                   "MPI_T_cvar_handle_alloc(num) not refused");
        CONF_CHECK(t, MPI_T_cvar_get_index("xsim_no_such_cvar", &found) == MPI_T_ERR_INVALID_NAME,
                   "MPI_T_cvar_get_index of an unknown name not refused");
        if (read_index >= 0) { /* a null string with a length asks for the length (MPI 3.1 14.3.3) */
            int full = 1, again = NAME_LEN;
            CONF_CALL(t, MPI_T_cvar_get_info(read_index, NULL, &full, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
            CONF_CALL(t, MPI_T_cvar_get_info(read_index, name, &again, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
            CONF_CHECK(t, full > 1 && full == again && (int)strlen(name) + 1 == full,
                       "cvar %d: the length alone %d, with the name %d ('%s')", read_index, full, again, name);
        }
        if (under_xsim) { /* Open MPI dereferences these */
            int value = 0;
            CONF_CHECK(t, MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &value) == MPI_T_ERR_INVALID_HANDLE,
                       "MPI_T_cvar_read of MPI_T_CVAR_HANDLE_NULL not refused");
            CONF_CHECK(t, MPI_T_enum_get_info((MPI_T_enum)0x31415926, &value, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE,
                       "MPI_T_enum_get_info of a garbage handle not refused");
            CONF_CHECK(t, MPI_T_pvar_get_num(NULL) == MPI_T_ERR_INVALID, "MPI_T_pvar_get_num(NULL) not refused");
        }
    }
}

/* Performance variables: whatever their number, index `num` is invalid, an unknown name is
 * refused, and a session without handles starts, stops and resets all of them. */
static void pvars(conf_t* t, int under_xsim) {
    int num = -1, found = -1, count = -1, name_len = NAME_LEN, verbosity, var_class, bind, ro, cont, atomic;
    char name[NAME_LEN];
    MPI_Datatype dt;
    MPI_T_enum et;
    MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL, other = MPI_T_PVAR_SESSION_NULL;
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    CONF_CALL(t, MPI_T_pvar_get_num(&num));
    CONF_CHECK(t, num >= 0, "MPI_T_pvar_get_num %d", num);
    if (under_xsim) CONF_CHECK(t, num == 0, "xsim has no performance variables, MPI_T_pvar_get_num gave %d", num);
    CONF_CHECK(t, index_refused(MPI_T_pvar_get_info(num, name, &name_len, &verbosity, &var_class, &dt, &et, NULL, NULL,
                                                    &bind, &ro, &cont, &atomic), under_xsim),
               "MPI_T_pvar_get_info(num) not refused");
    CONF_CHECK(t, MPI_T_pvar_get_index("xsim_no_such_pvar", MPI_T_PVAR_CLASS_COUNTER, &found) == MPI_T_ERR_INVALID_NAME,
               "MPI_T_pvar_get_index of an unknown name not refused");
    CONF_CALL(t, MPI_T_pvar_session_create(&session));
    CONF_CHECK(t, session != MPI_T_PVAR_SESSION_NULL, "MPI_T_pvar_session_create gave MPI_T_PVAR_SESSION_NULL");
    CONF_CALL(t, MPI_T_pvar_session_create(&other));
    CONF_CHECK(t, other != session, "two sessions share a handle");
    CONF_CHECK(t, index_refused(MPI_T_pvar_handle_alloc(session, num, NULL, &h, &count), under_xsim),
               "MPI_T_pvar_handle_alloc(num) not refused");
    CONF_CALL(t, MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES));
    CONF_CALL(t, MPI_T_pvar_stop(session, MPI_T_PVAR_ALL_HANDLES));
    CONF_CALL(t, MPI_T_pvar_reset(session, MPI_T_PVAR_ALL_HANDLES));
    if (under_xsim) { /* Open MPI does not check these (it dereferences them) */
        long long buf = 0;
        CONF_CHECK(t, MPI_T_pvar_start(session, MPI_T_PVAR_HANDLE_NULL) == MPI_T_ERR_INVALID_HANDLE,
                   "MPI_T_pvar_start of MPI_T_PVAR_HANDLE_NULL not refused");
        CONF_CHECK(t, MPI_T_pvar_read(session, MPI_T_PVAR_ALL_HANDLES, &buf) == MPI_T_ERR_INVALID_HANDLE,
                   "MPI_T_pvar_read of MPI_T_PVAR_ALL_HANDLES not refused");
        CONF_CHECK(t, MPI_T_pvar_start(MPI_T_PVAR_SESSION_NULL, MPI_T_PVAR_ALL_HANDLES) == MPI_T_ERR_INVALID_SESSION,
                   "MPI_T_pvar_start on MPI_T_PVAR_SESSION_NULL not refused");
    }
    CONF_CALL(t, MPI_T_pvar_session_free(&other));
    CONF_CALL(t, MPI_T_pvar_session_free(&session));
    CONF_CHECK(t, session == MPI_T_PVAR_SESSION_NULL && other == MPI_T_PVAR_SESSION_NULL,
               "MPI_T_pvar_session_free did not set MPI_T_PVAR_SESSION_NULL");
    if (under_xsim)
        CONF_CHECK(t, MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES) == MPI_T_ERR_INVALID_SESSION,
                   "MPI_T_pvar_start on a freed session not refused");
}

static void categories(conf_t* t, int under_xsim) {
    int num = -1, stamp = -1, found = -1, name_len = NAME_LEN, ncvars, npvars, ncats, indices[4];
    char name[NAME_LEN];
    CONF_CALL(t, MPI_T_category_get_num(&num));
    CONF_CHECK(t, num >= 0, "MPI_T_category_get_num %d", num);
    if (under_xsim) CONF_CHECK(t, num == 0, "xsim has no categories, MPI_T_category_get_num gave %d", num);
    CONF_CALL(t, MPI_T_category_changed(&stamp));
    CONF_CHECK(t, index_refused(MPI_T_category_get_info(num, name, &name_len, NULL, NULL, &ncvars, &npvars, &ncats),
                                under_xsim), "MPI_T_category_get_info(num) not refused");
    CONF_CHECK(t, MPI_T_category_get_index("xsim_no_such_category", &found) == MPI_T_ERR_INVALID_NAME,
               "MPI_T_category_get_index of an unknown name not refused");
    CONF_CHECK(t, index_refused(MPI_T_category_get_cvars(num, 4, indices), under_xsim),
               "MPI_T_category_get_cvars(num) not refused");
    CONF_CHECK(t, index_refused(MPI_T_category_get_pvars(num, 4, indices), under_xsim),
               "MPI_T_category_get_pvars(num) not refused");
    CONF_CHECK(t, index_refused(MPI_T_category_get_categories(num, 4, indices), under_xsim),
               "MPI_T_category_get_categories(num) not refused");
}

int main(int argc, char** argv) {
    conf_t t;
    int provided = -1, again = -1, early_bad, rank = -1, under_xsim;
    /* Before MPI_T_init_thread (and before MPI_Init, which MPI_T does not need). */
    early_bad = count_not_refused("before MPI_T_init_thread", -1);
    early_bad += init_finalize_cycles();
    early_bad += count_not_refused("after init/finalize cycles", -1);
    int init_rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Init(&argc, &argv);
    conf_init(&t, "tool_interface");
    rank = t.rank;
    under_xsim = conf_under_xsim();
    early_bad += init_finalize_cycles(); /* and after MPI_Init, before any rank waits for another */
    CONF_CHECK(&t, early_bad == 0, "%d failures before MPI_Init (uninitialized calls not refused, init/finalize cycles)",
               early_bad);
    CONF_CHECK(&t, init_rc == MPI_SUCCESS, "MPI_T_init_thread returned %d", init_rc);
    CONF_CHECK(&t, provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided %d", provided);
    cvars(&t, under_xsim);
    pvars(&t, under_xsim);
    categories(&t, under_xsim);
    /* Nested: a second init needs a second finalize. */
    CONF_CALL(&t, MPI_T_init_thread(MPI_THREAD_SINGLE, &again));
    CONF_CALL(&t, MPI_T_finalize());
    {
        int n = -1;
        CONF_CALL(&t, MPI_T_pvar_get_num(&n));
    }
    CONF_CALL(&t, MPI_T_finalize());
    CONF_CHECK(&t, count_not_refused("after MPI_T_finalize", rank) == 0, "calls after MPI_T_finalize not refused");
    CONF_CHECK(&t, MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED, "a third MPI_T_finalize not refused");
    /* And again, after MPI_T was finalized. */
    CONF_CALL(&t, MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    {
        int n = -1;
        CONF_CALL(&t, MPI_T_cvar_get_num(&n));
        CONF_CHECK(&t, n > 0, "MPI_T_cvar_get_num after re-initialization: %d", n);
    }
    CONF_CALL(&t, MPI_T_finalize());
    return conf_finish(&t);
}

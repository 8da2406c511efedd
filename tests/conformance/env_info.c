/* The environment and local objects: MPI_Initialized / Finalized around Init and
 * Finalize, MPI_Init_thread and MPI_Query_thread agreeing, MPI_Get_version,
 * MPI_Get_library_version, MPI_Get_processor_name (the simulated node: ranks of one node
 * share a name, other nodes' ranks differ), MPI_Wtick, MPI_Alloc_mem / Free_mem and the
 * MPI_Info calls (create, set, get, get_valuelen, get_nkeys, get_nthkey, delete, dup, free). */
#include "conformance.h"

static void info_calls(conf_t* t) {
    MPI_Info info, copy;
    char value[64], key[MPI_MAX_INFO_KEY];
    int flag = 0, len = 0, n = -1;
    CONF_CALL(t, MPI_Info_create(&info));
    CONF_CALL(t, MPI_Info_set(info, "color", "blue"));
    CONF_CALL(t, MPI_Info_set(info, "size", "12345"));
    CONF_CALL(t, MPI_Info_get_nkeys(info, &n));
    CONF_CHECK(t, n == 2, "MPI_Info_get_nkeys %d", n);
    CONF_CALL(t, MPI_Info_get(info, "color", 63, value, &flag));
    CONF_CHECK(t, flag && strcmp(value, "blue") == 0, "MPI_Info_get color: %d '%s'", flag, value);
    CONF_CALL(t, MPI_Info_get_valuelen(info, "size", &len, &flag));
    CONF_CHECK(t, flag && len == 5, "MPI_Info_get_valuelen %d", len);
    CONF_CALL(t, MPI_Info_get_nthkey(info, 1, key));
    CONF_CHECK(t, strcmp(key, "size") == 0, "MPI_Info_get_nthkey(1) '%s'", key);
    CONF_CALL(t, MPI_Info_dup(info, &copy));
    CONF_CALL(t, MPI_Info_delete(info, "color"));
    CONF_CALL(t, MPI_Info_get(info, "color", 63, value, &flag));
    CONF_CHECK(t, !flag, "deleted key still there");
    CONF_CALL(t, MPI_Info_get(copy, "color", 63, value, &flag));
    CONF_CHECK(t, flag && strcmp(value, "blue") == 0, "the duplicate lost its key");
    CONF_CALL(t, MPI_Info_free(&info));
    CONF_CALL(t, MPI_Info_free(&copy));
    CONF_CHECK(t, info == MPI_INFO_NULL && copy == MPI_INFO_NULL, "MPI_Info_free did not null the handle");
}

int main(int argc, char** argv) {
    conf_t t;
    int flag = -1, provided = -1, queried = -1, version = 0, subversion = 0, len = 0, other_len = 0;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], name[MPI_MAX_PROCESSOR_NAME], other[MPI_MAX_PROCESSOR_NAME];
    int* mem = NULL;
    int initialized_before = -1, finalized_before = -1;
    MPI_Initialized(&initialized_before);
    MPI_Finalized(&finalized_before);
    MPI_Get_version(&version, &subversion); /* allowed before MPI_Init */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    conf_init(&t, "env_info");
    CONF_CHECK(&t, initialized_before == 0 && finalized_before == 0, "before MPI_Init: initialized %d finalized %d",
               initialized_before, finalized_before);
    CONF_CALL(&t, MPI_Initialized(&flag));
    CONF_CHECK(&t, flag == 1, "MPI_Initialized after MPI_Init_thread: %d", flag);
    CONF_CALL(&t, MPI_Query_thread(&queried));
    CONF_CHECK(&t, provided == MPI_THREAD_SINGLE && queried == provided, "thread level provided %d, queried %d",
               provided, queried);
    CONF_CALL(&t, MPI_Is_thread_main(&flag));
    CONF_CHECK(&t, flag == 1, "MPI_Is_thread_main");
    CONF_CHECK(&t, version == MPI_VERSION && subversion == MPI_SUBVERSION, "MPI_Get_version %d.%d", version,
               subversion);
    CONF_CALL(&t, MPI_Get_library_version(lib, &len));
    CONF_CHECK(&t, len > 0 && (int)strlen(lib) <= len, "MPI_Get_library_version length %d", len);
    CONF_CHECK(&t, MPI_Wtick() > 0 && MPI_Wtick() <= 1e-6, "MPI_Wtick %g", MPI_Wtick());
    /* Processor names: ranks exchange names with their neighbours. */
    CONF_CALL(&t, MPI_Get_processor_name(name, &len));
    CONF_CHECK(&t, len > 0 && len < MPI_MAX_PROCESSOR_NAME && (int)strlen(name) == len, "processor name length %d",
               len);
    {
        const int to = (t.rank + 1) % t.size, from = (t.rank + t.size - 1) % t.size;
        CONF_CALL(&t, MPI_Sendrecv(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, to, 1, other, MPI_MAX_PROCESSOR_NAME,
                                   MPI_CHAR, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        other_len = (int)strlen(other);
        CONF_CHECK(&t, other_len > 0, "neighbour's processor name empty");
        if (strstr(lib, "xsim")) {
            /* The default machine has 16 ranks per node: names are "xsim-node<rank / 16>". */
            char expect[MPI_MAX_PROCESSOR_NAME];
            snprintf(expect, sizeof expect, "xsim-node%d", t.rank / 16);
            CONF_CHECK(&t, strcmp(name, expect) == 0, "processor name '%s', expected '%s'", name, expect);
            CONF_CHECK(&t, (strcmp(name, other) == 0) == (t.rank / 16 == from / 16),
                       "ranks %d and %d: names '%s' and '%s'", t.rank, from, name, other);
        }
    }
    CONF_CALL(&t, MPI_Alloc_mem(1000 * sizeof(int), MPI_INFO_NULL, &mem));
    CONF_CHECK(&t, mem != NULL, "MPI_Alloc_mem gave NULL");
    if (mem) {
        int i;
        long sum = 0;
        for (i = 0; i < 1000; i++) mem[i] = i;
        for (i = 0; i < 1000; i++) sum += mem[i];
        CONF_CHECK(&t, sum == 499500, "MPI_Alloc_mem memory");
        CONF_CALL(&t, MPI_Free_mem(mem));
    }
    info_calls(&t);
    CONF_CALL(&t, MPI_Finalized(&flag));
    CONF_CHECK(&t, flag == 0, "MPI_Finalized before MPI_Finalize: %d", flag);
    {
        const int status = conf_finish(&t);
        MPI_Finalized(&flag);
        MPI_Initialized(&initialized_before);
        if (flag != 1 || initialized_before != 1) {
            printf("FAIL env_info: after MPI_Finalize, finalized %d initialized %d\n", flag, initialized_before);
            return 1;
        }
        return status;
    }
}

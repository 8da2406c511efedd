/* The C half of attr_languages.f90: C keyvals with C callbacks, and C reads and sets of
 * attributes on handles the Fortran half passes (MPI-4.0 section 19.3.7). Globals are per
 * simulated rank, like every global of the program. */
#include <mpi.h>

static MPI_Aint target;            /* what C-set attributes point to */
static MPI_Aint deleted_pointer;   /* the last value a C delete callback got */
static MPI_Aint deleted_pointee;   /* ... and the MPI_Aint it pointed to */
static int deletes;

static void note_delete(void* value) {
    deleted_pointer = (MPI_Aint)value;
    deleted_pointee = *(MPI_Aint*)value;
    ++deletes;
}
static int comm_delete(MPI_Comm c, int k, void* value, void* extra) {
    (void)c, (void)k, (void)extra;
    note_delete(value);
    return MPI_SUCCESS;
}
static int win_delete(MPI_Win w, int k, void* value, void* extra) {
    (void)w, (void)k, (void)extra;
    note_delete(value);
    return MPI_SUCCESS;
}
static int type_delete(MPI_Datatype t, int k, void* value, void* extra) {
    (void)t, (void)k, (void)extra;
    note_delete(value);
    return MPI_SUCCESS;
}

/* Keyvals made in C: communicators' copy with MPI_COMM_DUP_FN (dup_key) or
 * MPI_COMM_NULL_COPY_FN (null_key), datatypes' with MPI_TYPE_DUP_FN. */
void c_create_keyvals(MPI_Fint* dup_key, MPI_Fint* null_key, MPI_Fint* win_key, MPI_Fint* type_key) {
    int k;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, comm_delete, &k, NULL);
    *dup_key = k;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, &k, NULL);
    *null_key = k;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &k, NULL);
    *win_key = k;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &k, NULL);
    *type_key = k;
}

void c_free_keyvals(MPI_Fint dup_key, MPI_Fint null_key, MPI_Fint win_key, MPI_Fint type_key) {
    int k = dup_key;
    MPI_Comm_free_keyval(&k);
    k = null_key;
    MPI_Comm_free_keyval(&k);
    k = win_key;
    MPI_Win_free_keyval(&k);
    k = type_key;
    MPI_Type_free_keyval(&k);
}

/* Sets what C-set attributes point to; returns its address. */
MPI_Aint c_target_address(MPI_Aint value) {
    target = value;
    return (MPI_Aint)&target;
}

MPI_Fint c_truncated(MPI_Aint value) { return (MPI_Fint)value; }

/* kind: 0 communicator, 1 window, 2 datatype. Sets &target; returns the error code. */
int c_set(int kind, MPI_Fint handle, MPI_Fint key) {
    switch (kind) {
    case 0: return MPI_Comm_set_attr(MPI_Comm_f2c(handle), key, &target);
    case 1: return MPI_Win_set_attr(MPI_Win_f2c(handle), key, &target);
    default: return MPI_Type_set_attr(MPI_Type_f2c(handle), key, &target);
    }
}

/* Reads an attribute in C: the pointer, and what it points to, read as `deref`
 * (0 an MPI_Aint, 1 an int, 2 nothing). Returns the flag (-1 on an error). */
int c_get(int kind, MPI_Fint handle, MPI_Fint key, int deref, MPI_Aint* pointer, MPI_Aint* pointee) {
    void* value = NULL;
    int flag = 0, rc;
    switch (kind) {
    case 0: rc = MPI_Comm_get_attr(MPI_Comm_f2c(handle), key, &value, &flag); break;
    case 1: rc = MPI_Win_get_attr(MPI_Win_f2c(handle), key, &value, &flag); break;
    default: rc = MPI_Type_get_attr(MPI_Type_f2c(handle), key, &value, &flag); break;
    }
    if (rc != MPI_SUCCESS) return -1;
    if (!flag) return 0;
    *pointer = (MPI_Aint)value;
    if (deref == 0) *pointee = *(MPI_Aint*)value;
    else if (deref == 1) *pointee = *(int*)value;
    return 1;
}

void c_deleted(MPI_Aint* pointer, MPI_Aint* pointee, MPI_Fint* count) {
    *pointer = deleted_pointer;
    *pointee = deleted_pointee;
    *count = deletes;
}

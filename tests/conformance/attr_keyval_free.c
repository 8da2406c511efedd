/* Freeing a keyval that attributes still use (MPI-4.0 section 7.7.2): "it is not erroneous
 * to free an attribute key that is in use, because the actual free does not transpire
 * until after all references ... to the key have been freed", by MPI_Comm_delete_attr or
 * MPI_Comm_free. So after MPI_Comm_free_keyval the attributes stay readable and copyable
 * (MPI_Comm_dup still calls the copy callback), and their deletion still calls the delete
 * callback, once per attribute; after the last one the keyval is gone (as Open MPI does).
 * Datatype keyvals likewise. A dup whose copy callback fails deletes the copies it had
 * made (their delete callbacks run), so they hold no keyval. */
#include "conformance.h"

/* Counts the calls in the rank's own counter (extra_state): no globals under xsim. */
static int count_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
    (void)comm, (void)keyval, (void)value;
    ++*(int*)extra;
    return MPI_SUCCESS;
}
static int count_type_delete(MPI_Datatype type, int keyval, void* value, void* extra) {
    (void)type, (void)keyval, (void)value;
    ++*(int*)extra;
    return MPI_SUCCESS;
}

/* A keyval's copies and deletes, counted in its extra_state. */
typedef struct {
    int copies, deletes;
} copy_counts_t;
static int count_copy(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
    (void)comm, (void)keyval;
    ++((copy_counts_t*)extra)->copies;
    *(void**)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int count_copy_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
    (void)comm, (void)keyval, (void)value;
    ++((copy_counts_t*)extra)->deletes;
    return MPI_SUCCESS;
}
static int failing_copy(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
    (void)comm, (void)keyval, (void)extra, (void)in, (void)out, (void)flag;
    return MPI_ERR_OTHER;
}

int main(int argc, char** argv) {
    conf_t t;
    int deletes = 0, type_deletes = 0, keyval, saved, flag = 0, value = 42;
    int* got = NULL;
    MPI_Comm a, b, c;
    MPI_Datatype type;
    MPI_Init(&argc, &argv);
    conf_init(&t, "attr_keyval_free");

    CONF_CALL(&t, MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &keyval, &deletes));
    saved = keyval;
    CONF_CALL(&t, MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CONF_CALL(&t, MPI_Comm_dup(MPI_COMM_WORLD, &b));
    CONF_CALL(&t, MPI_Comm_set_attr(a, keyval, &value));
    CONF_CALL(&t, MPI_Comm_set_attr(b, keyval, &value));
    CONF_CALL(&t, MPI_Comm_free_keyval(&keyval));
    CONF_CHECK(&t, keyval == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval left the keyval %d", keyval);
    CONF_CHECK(&t, deletes == 0, "freeing the keyval deleted %d attributes", deletes);

    /* Still in use: readable, and copied by MPI_Comm_dup (MPI_COMM_DUP_FN). */
    CONF_CALL(&t, MPI_Comm_get_attr(a, saved, &got, &flag));
    CONF_CHECK(&t, flag && got == &value, "the attribute is not readable after its keyval was freed");
    CONF_CALL(&t, MPI_Comm_dup(a, &c));
    flag = 0;
    CONF_CALL(&t, MPI_Comm_get_attr(c, saved, &got, &flag));
    CONF_CHECK(&t, flag && got == &value, "MPI_Comm_dup did not copy the attribute of a freed keyval");

    /* Each deletion calls the delete callback: explicitly, then by freeing communicators. */
    CONF_CALL(&t, MPI_Comm_delete_attr(a, saved));
    CONF_CHECK(&t, deletes == 1, "MPI_Comm_delete_attr: %d delete callbacks, expected 1", deletes);
    CONF_CALL(&t, MPI_Comm_free(&b));
    CONF_CHECK(&t, deletes == 2, "MPI_Comm_free: %d delete callbacks, expected 2", deletes);
    CONF_CALL(&t, MPI_Comm_free(&c));
    CONF_CHECK(&t, deletes == 3, "MPI_Comm_free of the copy: %d delete callbacks, expected 3", deletes);
    CONF_CALL(&t, MPI_Comm_free(&a));
    CONF_CHECK(&t, deletes == 3, "a deleted attribute was deleted again (%d callbacks)", deletes);
    /* The last reference is gone: so is the keyval. */
    CONF_CHECK(&t, conf_error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, saved, &value)) != MPI_SUCCESS,
               "a keyval freed with no attribute left still accepts new attributes");
    CONF_CHECK(&t, conf_error_class(MPI_Comm_free_keyval(&saved)) != MPI_SUCCESS,
               "a keyval was freed twice without an error");

    /* A dup whose second copy callback fails: the first's copy is deleted again, and the
     * keyval freed meanwhile is gone once the original's attribute is deleted too. */
    {
        copy_counts_t counts = {0, 0};
        int failing;
        CONF_CALL(&t, MPI_Comm_create_keyval(count_copy, count_copy_delete, &keyval, &counts));
        saved = keyval;
        CONF_CALL(&t, MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &failing, NULL));
        CONF_CALL(&t, MPI_Comm_dup(MPI_COMM_WORLD, &a));
        CONF_CALL(&t, MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN));
        CONF_CALL(&t, MPI_Comm_set_attr(a, saved, &value));
        CONF_CALL(&t, MPI_Comm_set_attr(a, failing, &value));
        CONF_CALL(&t, MPI_Comm_free_keyval(&keyval));
        c = MPI_COMM_WORLD;
        CONF_CHECK(&t, conf_error_class(MPI_Comm_dup(a, &c)) != MPI_SUCCESS,
                   "MPI_Comm_dup ignored a failed copy callback");
        CONF_CHECK(&t, c == MPI_COMM_NULL, "a failed MPI_Comm_dup did not return MPI_COMM_NULL");
        CONF_CHECK(&t, counts.deletes == counts.copies,
                   "a failed MPI_Comm_dup made %d copies and deleted %d of them", counts.copies, counts.deletes);
        CONF_CALL(&t, MPI_Comm_free(&a));
        CONF_CHECK(&t, counts.deletes == counts.copies + 1, "MPI_Comm_free: %d delete callbacks, expected %d",
                   counts.deletes, counts.copies + 1);
        CONF_CALL(&t, MPI_Comm_free_keyval(&failing));
        CONF_CHECK(&t, conf_error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, saved, &value)) != MPI_SUCCESS,
                   "a copy made by a failed MPI_Comm_dup still holds its freed keyval");
    }

    /* Datatype keyvals. */
    CONF_CALL(&t, MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_type_delete, &keyval, &type_deletes));
    saved = keyval;
    CONF_CALL(&t, MPI_Type_contiguous(2, MPI_INT, &type));
    CONF_CALL(&t, MPI_Type_set_attr(type, keyval, &value));
    CONF_CALL(&t, MPI_Type_free_keyval(&keyval));
    CONF_CHECK(&t, keyval == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval left the keyval %d", keyval);
    CONF_CALL(&t, MPI_Type_delete_attr(type, saved));
    CONF_CHECK(&t, type_deletes == 1, "MPI_Type_delete_attr: %d delete callbacks, expected 1", type_deletes);
    CONF_CALL(&t, MPI_Type_free(&type));
    return conf_finish(&t);
}

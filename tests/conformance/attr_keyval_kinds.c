/* A keyval belongs to one kind of object (MPI-4.0 section 7.7): a keyval made by
 * MPI_Win_create_keyval is no keyval for a communicator, and one made by
 * MPI_Comm_create_keyval (or MPI_Keyval_create) none for a window, and a datatype's
 * (MPI_Type_create_keyval) none for either. Setting, getting,
 * deleting and freeing with the other kind's keyval is MPI_ERR_KEYVAL, and leaves the
 * keyval usable with its own kind (MPICH's errors/attr/keyvalmis). */
#include "conformance.h"

static void expect_keyval_error(conf_t* t, int rc, const char* what) {
    CONF_CHECK(t, conf_error_class(rc) == MPI_ERR_KEYVAL, "%s: error class %d, expected MPI_ERR_KEYVAL",
               what, conf_error_class(rc));
}

int main(int argc, char** argv) {
    conf_t t;
    int comm_keyval, win_keyval, type_keyval, value = 7, flag = 0, buf = 0;
    int* got = NULL;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    conf_init(&t, "attr_keyval_kinds");

    CONF_CALL(&t, MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_keyval, NULL));
    CONF_CALL(&t, MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &win_keyval, NULL));
    CONF_CALL(&t, MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &type_keyval, NULL));
    CONF_CALL(&t, MPI_Win_create(&buf, sizeof buf, sizeof buf, MPI_INFO_NULL, MPI_COMM_SELF, &win));
    CONF_CALL(&t, MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    /* The other kind's keyval. */
    expect_keyval_error(&t, MPI_Comm_set_attr(MPI_COMM_WORLD, win_keyval, &value), "MPI_Comm_set_attr(win keyval)");
    expect_keyval_error(&t, MPI_Comm_get_attr(MPI_COMM_WORLD, win_keyval, &got, &flag), "MPI_Comm_get_attr(win keyval)");
    expect_keyval_error(&t, MPI_Comm_delete_attr(MPI_COMM_WORLD, win_keyval), "MPI_Comm_delete_attr(win keyval)");
    expect_keyval_error(&t, MPI_Attr_put(MPI_COMM_WORLD, win_keyval, &value), "MPI_Attr_put(win keyval)");
    expect_keyval_error(&t, MPI_Win_set_attr(win, comm_keyval, &value), "MPI_Win_set_attr(comm keyval)");
    expect_keyval_error(&t, MPI_Win_get_attr(win, comm_keyval, &got, &flag), "MPI_Win_get_attr(comm keyval)");
    expect_keyval_error(&t, MPI_Win_delete_attr(win, comm_keyval), "MPI_Win_delete_attr(comm keyval)");
    expect_keyval_error(&t, MPI_Comm_free_keyval(&win_keyval), "MPI_Comm_free_keyval(win keyval)");
    expect_keyval_error(&t, MPI_Win_free_keyval(&comm_keyval), "MPI_Win_free_keyval(comm keyval)");
    expect_keyval_error(&t, MPI_Type_set_attr(MPI_INT, comm_keyval, &value), "MPI_Type_set_attr(comm keyval)");
    expect_keyval_error(&t, MPI_Type_get_attr(MPI_INT, win_keyval, &got, &flag), "MPI_Type_get_attr(win keyval)");
    expect_keyval_error(&t, MPI_Type_delete_attr(MPI_INT, comm_keyval), "MPI_Type_delete_attr(comm keyval)");
    expect_keyval_error(&t, MPI_Comm_set_attr(MPI_COMM_WORLD, type_keyval, &value), "MPI_Comm_set_attr(type keyval)");
    expect_keyval_error(&t, MPI_Win_get_attr(win, type_keyval, &got, &flag), "MPI_Win_get_attr(type keyval)");
    expect_keyval_error(&t, MPI_Type_free_keyval(&comm_keyval), "MPI_Type_free_keyval(comm keyval)");
    expect_keyval_error(&t, MPI_Comm_free_keyval(&type_keyval), "MPI_Comm_free_keyval(type keyval)");
    CONF_CHECK(&t, win_keyval != MPI_KEYVAL_INVALID && comm_keyval != MPI_KEYVAL_INVALID &&
                       type_keyval != MPI_KEYVAL_INVALID,
               "a refused free reset the keyval to MPI_KEYVAL_INVALID");

    /* Each still works with its own kind. */
    CONF_CALL(&t, MPI_Comm_set_attr(MPI_COMM_WORLD, comm_keyval, &value));
    CONF_CALL(&t, MPI_Comm_get_attr(MPI_COMM_WORLD, comm_keyval, &got, &flag));
    CONF_CHECK(&t, flag && got == &value, "the communicator's attribute was not kept");
    CONF_CALL(&t, MPI_Win_set_attr(win, win_keyval, &value));
    flag = 0;
    CONF_CALL(&t, MPI_Win_get_attr(win, win_keyval, &got, &flag));
    CONF_CHECK(&t, flag && got == &value, "the window's attribute was not kept");
    CONF_CALL(&t, MPI_Type_set_attr(MPI_INT, type_keyval, &value));
    flag = 0;
    CONF_CALL(&t, MPI_Type_get_attr(MPI_INT, type_keyval, &got, &flag));
    CONF_CHECK(&t, flag && got == &value, "the datatype's attribute was not kept");
    /* No attribute on MPI_DATATYPE_NULL. */
    CONF_EXPECT_CLASS(&t, MPI_ERR_TYPE, MPI_Type_set_attr(MPI_DATATYPE_NULL, type_keyval, &value));
    /* Predefined window attributes stay readable. */
    flag = 0;
    CONF_CALL(&t, MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &got, &flag));
    CONF_CHECK(&t, flag && *got == (int)sizeof buf, "MPI_WIN_DISP_UNIT is not %d", (int)sizeof buf);

    CONF_CALL(&t, MPI_Comm_delete_attr(MPI_COMM_WORLD, comm_keyval));
    CONF_CALL(&t, MPI_Win_delete_attr(win, win_keyval));
    CONF_CALL(&t, MPI_Win_free(&win));
    CONF_CALL(&t, MPI_Comm_free_keyval(&comm_keyval));
    CONF_CALL(&t, MPI_Win_free_keyval(&win_keyval));
    CONF_CALL(&t, MPI_Type_delete_attr(MPI_INT, type_keyval));
    CONF_CALL(&t, MPI_Type_free_keyval(&type_keyval));
    return conf_finish(&t);
}

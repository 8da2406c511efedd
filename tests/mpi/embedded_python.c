/* embedded_python: a program that embeds the Python interpreter of the system's libpython, as
 * Smilei does to read its input file (Py_Initialize, then the namelist's Main(...) block in
 * the interpreter's globals). Natively each process has its own interpreter. Under xsim the
 * ranks of a real process shared libpython's globals, so the second rank found the first
 * one's interpreter running and its objects defined (Smilei: "cannot define block Main()
 * twice"). Every rank checks that no interpreter runs before it starts its own, defines an
 * object in it, lets the other ranks run (a barrier), and checks the object is still its
 * own. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "xsim_test.h"

int main(int argc, char **argv)
{
    xt_t t;
    xt_init(&t, &argc, &argv, "embedded_python");
    const int already = Py_IsInitialized();
    XT_CHECK(&t, !already, "rank %d found an interpreter already initialized (another rank's)", t.rank);
    Py_InitializeEx(0);
    char code[256];
    snprintf(code, sizeof code,
             "import builtins\n"
             "if hasattr(builtins, 'xsim_owner'):\n"
             "    raise SystemExit('found xsim_owner = %%d already defined' %% builtins.xsim_owner)\n"
             "builtins.xsim_owner = %d\n",
             t.rank);
    XT_CHECK(&t, PyRun_SimpleString(code) == 0, "rank %d: defining its object in its interpreter failed", t.rank);
    MPI_Barrier(MPI_COMM_WORLD); /* the other ranks of the process run their interpreters */
    snprintf(code, sizeof code,
             "import builtins\n"
             "if builtins.xsim_owner != %d:\n"
             "    raise SystemExit('xsim_owner is %%d' %% builtins.xsim_owner)\n",
             t.rank);
    XT_CHECK(&t, PyRun_SimpleString(code) == 0, "rank %d's object in its interpreter was changed by another rank",
             t.rank);
    XT_CHECK(&t, Py_FinalizeEx() == 0, "rank %d: Py_FinalizeEx failed", t.rank);
    return xt_finish(&t, NULL);
}

// User callbacks written in Fortran: reduction functions (MPI_OP_CREATE) and error
// handlers (MPI_COMM_CREATE_ERRHANDLER, MPI-1 MPI_ERRHANDLER_CREATE, MPI_WIN_CREATE_ERRHANDLER,
// MPI_FILE_CREATE_ERRHANDLER). The C side calls a C function with C handles; a
// Fortran one wants INTEGER handles by reference. Each distinct Fortran function gets a
// slot with its own C trampoline that converts the handles and calls it; the same function
// registered again (by every simulated rank, typically) reuses its slot.
#include <mpi.h>

#include <array>
#include <string>
#include <utility>

#include "libxsim/engine/engine.hpp"
#include "libxsim/fortran/aliases.hpp"
#include "libxsim/fortran/convert.hpp"

using namespace xsim::fortran;

namespace {

constexpr std::size_t kSlots = 64;

using FortranReduction = void (*)(void* in, void* inout, MPI_Fint* len, MPI_Fint* datatype);
using FortranErrhandler = void (*)(MPI_Fint* comm, MPI_Fint* error_code);

template <class Function>
struct Slots {
    std::array<Function, kSlots> functions{};

    // The slot of `f`, or kSlots when every slot holds another function.
    std::size_t slot_of(Function f) {
        for (std::size_t i = 0; i < kSlots; ++i) {
            if (functions[i] == f) return i;
            if (!functions[i]) {
                functions[i] = f;
                return i;
            }
        }
        return kSlots;
    }
};

Slots<FortranReduction> g_reductions;
// One table per kind of handle an error handler is for (communicator, window, file).
template <class Handle>
Slots<FortranErrhandler> g_errhandlers;

template <std::size_t K>
void reduction_trampoline(void* in, void* inout, int* len, MPI_Datatype* type) {
    MPI_Fint f_type = type_c2f(*type);
    g_reductions.functions[K](in, inout, len, &f_type);
}

template <class Handle, MPI_Fint (*ToFortran)(Handle), std::size_t K>
void errhandler_trampoline(Handle* handle, int* code, ...) {
    MPI_Fint f_handle = ToFortran(*handle);
    g_errhandlers<Handle>.functions[K](&f_handle, code);
}

template <std::size_t... K>
constexpr std::array<MPI_User_function*, kSlots> reduction_table(std::index_sequence<K...>) {
    return {&reduction_trampoline<K>...};
}
template <class Handle, MPI_Fint (*ToFortran)(Handle), class CFunction, std::size_t... K>
constexpr std::array<CFunction*, kSlots> errhandler_table(std::index_sequence<K...>) {
    return {&errhandler_trampoline<Handle, ToFortran, K>...};
}

constexpr auto kReductionTrampolines = reduction_table(std::make_index_sequence<kSlots>());
template <class Handle, MPI_Fint (*ToFortran)(Handle), class CFunction>
constexpr auto kErrhandlerTrampolines =
    errhandler_table<Handle, ToFortran, CFunction>(std::make_index_sequence<kSlots>());

[[noreturn]] void out_of_slots(const char* call) {
    const std::string why = std::string(call) + ": more than " + std::to_string(kSlots) +
                            " distinct Fortran callback functions; xsim supports at most that many";
    if (xsim::g_engine) xsim::g_engine->abort_run(1, why);
    unsupported(call);
}

// MPI_x_CREATE_ERRHANDLER: a C error handler for `Handle` that calls the Fortran `function`
// with the handle and the code as INTEGERs.
template <class Handle, MPI_Fint (*ToFortran)(Handle), class CFunction>
void create_errhandler(const char* call, FortranErrhandler function, int (*create)(CFunction*, MPI_Errhandler*),
                       MPI_Fint* errhandler, MPI_Fint* ierror) {
    const std::size_t k = g_errhandlers<Handle>.slot_of(function);
    if (k == kSlots) out_of_slots(call);
    MPI_Errhandler c = MPI_ERRHANDLER_NULL;
    *ierror = create(kErrhandlerTrampolines<Handle, ToFortran, CFunction>[k], &c);
    *errhandler = errhandler_c2f(c);
}

}  // namespace

extern "C" {

void mpi_op_create_(FortranReduction function, const MPI_Fint* commute, MPI_Fint* op, MPI_Fint* ierror) {
    const std::size_t k = g_reductions.slot_of(function);
    if (k == kSlots) out_of_slots("MPI_OP_CREATE");
    MPI_Op c = MPI_OP_NULL;
    *ierror = PMPI_Op_create(kReductionTrampolines[k], *commute, &c);
    *op = op_c2f(c);
}

void mpi_comm_create_errhandler_(FortranErrhandler function, MPI_Fint* errhandler, MPI_Fint* ierror) {
    create_errhandler<MPI_Comm, comm_c2f>("MPI_COMM_CREATE_ERRHANDLER", function, &PMPI_Comm_create_errhandler,
                                          errhandler, ierror);
}

void mpi_win_create_errhandler_(FortranErrhandler function, MPI_Fint* errhandler, MPI_Fint* ierror) {
    create_errhandler<MPI_Win, win_c2f>("MPI_WIN_CREATE_ERRHANDLER", function, &PMPI_Win_create_errhandler, errhandler,
                                        ierror);
}

void mpi_file_create_errhandler_(FortranErrhandler function, MPI_Fint* errhandler, MPI_Fint* ierror) {
    create_errhandler<MPI_File, file_c2f>("MPI_FILE_CREATE_ERRHANDLER", function, &PMPI_File_create_errhandler,
                                          errhandler, ierror);
}

// The MPI-1 name of the same call.
void mpi_errhandler_create_(FortranErrhandler function, MPI_Fint* errhandler, MPI_Fint* ierror) {
    mpi_comm_create_errhandler_(function, errhandler, ierror);
}

}  // extern "C"

XSIM_FORTRAN_ALIASES(op_create, OP_CREATE)
XSIM_FORTRAN_ALIASES(errhandler_create, ERRHANDLER_CREATE)
XSIM_FORTRAN_ALIASES(comm_create_errhandler, COMM_CREATE_ERRHANDLER)
XSIM_FORTRAN_ALIASES(win_create_errhandler, WIN_CREATE_ERRHANDLER)
XSIM_FORTRAN_ALIASES(file_create_errhandler, FILE_CREATE_ERRHANDLER)

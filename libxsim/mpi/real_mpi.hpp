// The real MPI library's functions, for the work libxsim hands to it: the link between real
// processes, datatypes, packing, reductions, error strings, start-up and shutdown.
//
// libxsim defines every PMPI_* name as the simulation (MPI_* are weak aliases of them, so a
// PMPI tool layered over xsim sees simulated calls). A call to PMPI_X by name from inside
// libxsim would therefore come back to xsim; these pointers are the real library's own
// definitions, looked up once when libxsim is loaded. Call them as real_mpi.Allreduce(...).
#pragma once

#include <mpi.h>

// Every real function libxsim uses; add a name here to use it (tests/pmpi checks that no
// PMPI_ call below the bindings bypasses this table).
#define XSIM_REAL_MPI_FUNCTIONS(X)                                                                                   \
    X(Abort) X(Add_error_class) X(Add_error_code) X(Add_error_string) X(Alloc_mem) X(Allreduce) X(Alltoall)         \
    X(Barrier) X(Bcast) X(Comm_free) X(Comm_get_attr) X(Comm_rank) X(Comm_set_errhandler) X(Comm_size) X(Comm_split_type) X(Error_class) X(Error_string) X(Finalize)  \
    X(File_close) X(File_delete) X(File_get_atomicity) X(File_get_byte_offset) X(File_get_info)                    \
    X(File_get_position) X(File_get_size) X(File_get_type_extent) X(File_get_view) X(File_open) X(File_preallocate) \
    X(File_read) X(File_read_all) X(File_read_at) X(File_read_at_all) X(File_seek) X(File_set_atomicity)           \
    X(File_set_info) X(File_set_size) X(File_set_view) X(File_sync) X(File_write) X(File_write_all)                \
    X(File_write_at) X(File_write_at_all)                                                                            \
    X(Finalized) X(Free_mem) X(Gather) X(Gatherv) X(Get_address) X(Get_elements) X(Get_elements_x)                 \
    X(Get_library_version) X(Info_c2f) X(Info_create) X(Info_delete) X(Info_dup) X(Info_f2c) X(Info_free)          \
    X(Info_get) X(Info_get_nkeys) X(Info_get_nthkey) X(Info_get_valuelen) X(Info_set) X(Init_thread)               \
    X(Initialized) X(Iprobe) X(Irecv) X(Isend) X(Op_c2f) X(Op_commutative) X(Op_create) X(Op_f2c) X(Op_free) X(Pack)         \
    X(Pack_external) X(Pack_external_size) X(Pack_size) X(Reduce) X(Reduce_local) X(Scatter) X(Scatterv)             \
    X(Get_count) X(Recv) X(Status_set_cancelled)                                                            \
    X(Status_set_elements) X(Status_set_elements_x) X(Type_c2f) X(Type_commit) X(Type_contiguous)                   \
    X(Type_create_darray) X(Type_create_f90_complex) X(Type_create_f90_integer) X(Type_create_f90_real)             \
    X(Type_create_hindexed) X(Type_create_hindexed_block) X(Type_create_hvector) X(Type_create_indexed_block)      \
    X(Type_create_keyval) X(Type_create_resized) X(Type_create_struct) X(Type_create_subarray) X(Type_delete_attr)  \
    X(Type_dup) X(Type_f2c) X(Type_free) X(Type_free_keyval) X(Type_get_attr) X(Type_get_contents)                 \
    X(Type_get_envelope) X(Type_get_extent) X(Type_get_extent_x) X(Type_get_name) X(Type_get_true_extent)         \
    X(Type_get_true_extent_x) X(Type_indexed) X(Type_match_size) X(Type_set_attr) X(Type_set_name) X(Type_size)    \
    X(T_init_thread) X(T_finalize) X(T_cvar_get_num) X(T_cvar_get_info) X(T_cvar_get_index) X(T_cvar_handle_alloc)  \
    X(T_cvar_handle_free) X(T_cvar_read) X(T_cvar_write) X(T_enum_get_info) X(T_enum_get_item)                      \
    X(Type_size_x) X(Type_vector) X(Unpack) X(Unpack_external) X(Waitall) X(Wtime)

namespace xsim {

struct RealMpi {
#define XSIM_REAL_MPI_MEMBER(name) decltype(&::PMPI_##name) name;
    XSIM_REAL_MPI_FUNCTIONS(XSIM_REAL_MPI_MEMBER)
#undef XSIM_REAL_MPI_MEMBER
};

// Filled before any other static initializer of libxsim runs (real_mpi.cpp), or earlier by
// load_real_mpi() when another library's static initializer calls MPI first (Open MPI's C++
// bindings call MPI_Initialized from theirs, and may run before libxsim's).
[[gnu::visibility("hidden")]] extern RealMpi real_mpi;

// Fills real_mpi if it is still empty; cheap when filled. Called by the calls MPI allows
// before MPI_Init (AnytimeCall), the only ones another library's initializer can make.
void load_real_mpi();

}  // namespace xsim

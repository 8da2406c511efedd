// Simulated MPI files. An MPI_File handle points to a File: one per simulated rank and
// open file. Each holds the rank's own real file handle, opened by the real library on
// its MPI_COMM_SELF, which does what real MPI does well (views with derived etypes and
// filetypes, datatype packing, explicit offsets, the individual file pointer, sync, sizes,
// atomicity, info); the simulated communicator the file was opened on (a derived copy:
// file collectives never mix with the application's) runs the collective agreements. The
// shared file pointer is not here: it lives once, at the file's home (shared_pointer.hpp).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>

namespace xsim {

struct Comm;
struct Rank;

namespace io {

struct File {
    static constexpr std::uint32_t kMagic = 0x7866696c;  // "xfil"
    std::uint32_t magic = kMagic;
    MPI_File real = MPI_FILE_NULL;  // the rank's handle in the real library
    const Comm* comm = nullptr;     // the file's own communicator (a reference held)
    std::string name;
    int amode = 0;                  // as the application gave it (with MPI_MODE_DELETE_ON_CLOSE)
    MPI_Errhandler errhandler = MPI_ERRORS_RETURN;
    std::int64_t etype_size = 1;    // of the current view (MPI_BYTE until MPI_File_set_view)
    // Nonblocking shared-pointer accesses of this rank whose pointer answer has not come
    // (bindings/file_shared_pointer.cpp): they still need this File.
    int shared_pending = 0;
    // The outstanding split collective (MPI_File_*_begin), if any, and its result.
    const char* split_call = nullptr;
    void* split_buf = nullptr;
    MPI_Status split_status{};
    int split_error = MPI_SUCCESS;
};

// The File of `handle`, or null when it names none (MPI_FILE_NULL, freed, garbage).
File* resolve_file(MPI_File handle);
inline MPI_File file_handle(File* f) { return reinterpret_cast<MPI_File>(f); }

}  // namespace io
}  // namespace xsim

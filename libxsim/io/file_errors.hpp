// Errors of MPI-IO calls (MPI-4.0 section 14.7): they go to the file's error handler, or
// for calls without a file (MPI_File_open, MPI_File_delete) to MPI_FILE_NULL's, which is
// also what a new file starts with. Unlike communicators, files return errors by default
// (MPI_ERRORS_RETURN). Handlers of MPI_File_create_errhandler are UserErrhandlers whose
// function is an MPI_File_errhandler_function.
#pragma once
#include <mpi.h>

#include <string>

#include "libxsim/engine/call_scope.hpp"

namespace xsim::io {

struct File;

// The calling rank's handler of MPI_FILE_NULL (each simulated rank has its own).
MPI_Errhandler& file_null_errhandler(Rank& rank);

// Applies `file`'s handler (null: MPI_FILE_NULL's) to the error and returns its class
// (a fatal handler ends the run naming the call, the rank and `detail`).
int raise_file(CallScope& scope, File* file, int error_class, const std::string& detail);
// The same with the code a user's handler receives (MPI_File_call_errhandler).
int raise_file(CallScope& scope, File* file, int error_class, const std::string& detail, int error_code);

// The class of an error code of the real library.
int real_error_class(int code);

}  // namespace xsim::io

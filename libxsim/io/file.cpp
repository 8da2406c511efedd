#include "libxsim/io/file.hpp"

#include <cstdint>

namespace xsim::io {

File* resolve_file(MPI_File handle) {
    if (handle == MPI_FILE_NULL || reinterpret_cast<std::uintptr_t>(handle) % alignof(File) != 0) return nullptr;
    auto* f = reinterpret_cast<File*>(handle);
    return f->magic == File::kMagic ? f : nullptr;
}

}  // namespace xsim::io

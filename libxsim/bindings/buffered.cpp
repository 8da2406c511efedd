// MPI_Buffer_attach / MPI_Buffer_detach: the buffer of a rank's buffered sends
// (MPI_Bsend, MPI_Ibsend, MPI_Bsend_init). Detaching waits, in virtual time, until every
// message buffered so far has been sent.
#include <mpi.h>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/p2p/bsend_buffer.hpp"

using namespace xsim;

extern "C" {

XSIM_MPI_ALIAS(Buffer_attach)
int PMPI_Buffer_attach(void* buffer, int size) {
    XSIM_BEGIN_INITIALIZED("MPI_Buffer_attach");
    if (size < 0) return scope.fail(nullptr, MPI_ERR_ARG, "negative buffer size " + std::to_string(size));
    if (!buffer && size > 0) return scope.fail(nullptr, MPI_ERR_BUFFER, "null buffer");
    if (bsend::attach(scope.engine, scope.rank, buffer, static_cast<std::uint64_t>(size)) != MPI_SUCCESS)
        return scope.fail(nullptr, MPI_ERR_BUFFER, "a buffer is already attached (detach it first)");
    return MPI_SUCCESS;
}

// `buffer_addr` is really a void**: it receives the address given to MPI_Buffer_attach.
XSIM_MPI_ALIAS(Buffer_detach)
int PMPI_Buffer_detach(void* buffer_addr, int* size) {
    XSIM_BEGIN_INITIALIZED("MPI_Buffer_detach");
    if (int e = checks::pointer(scope, nullptr, buffer_addr, "buffer address")) return e;
    if (int e = checks::pointer(scope, nullptr, size, "size")) return e;
    void* base = nullptr;
    std::uint64_t bytes = 0;
    bsend::detach(scope.engine, scope.rank, &base, &bytes);  // none attached: null and 0
    *static_cast<void**>(buffer_addr) = base;
    *size = static_cast<int>(bytes);
    return MPI_SUCCESS;
}

}  // extern "C"

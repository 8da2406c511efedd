#include "libxsim/colls/collective_kind.hpp"

#include <cctype>

namespace xsim::colls {

std::string nonblocking_name(CollKind kind) {
    const char* mpi = names(kind).mpi;  // "MPI_Bcast" -> "MPI_Ibcast"
    std::string s = "MPI_I";
    s += static_cast<char>(std::tolower(static_cast<unsigned char>(mpi[4])));
    return s + (mpi + 5);
}

std::string call_name(CollKind kind, bool nonblocking) {
    return nonblocking ? nonblocking_name(kind) : std::string(names(kind).mpi);
}

std::string describe_signature(std::uint32_t signature) {
    const int kind = signature_kind(signature);
    if (!known_kind(kind)) return "a message with unknown signature " + std::to_string(signature);
    const CollNames& n = names(static_cast<CollKind>(kind));
    std::string s = call_name(static_cast<CollKind>(kind), signature_nonblocking(signature));
    if (n.rooted) s += " (root " + std::to_string(signature_root(signature)) + ")";
    if (n.keyed) s += " (block key " + std::to_string(signature_root(signature)) + ")";
    return s;
}

}  // namespace xsim::colls

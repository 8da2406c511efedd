// A host name per simulated node. Natively the ranks of one node share a host name and those
// of different nodes do not, and programs group ranks by it: the ranks per node found by
// comparing gethostname() (or MPI_Get_processor_name) of every rank, to size node-local
// buffers, pick a GPU or a leader per node. Under xsim every rank of a real process would see
// the host's name, so a million ranks would appear to share one node, unlike what
// MPI_Get_processor_name and MPI_Comm_split_type tell them. Called from a simulated rank's
// application code, gethostname() and uname()'s nodename give the rank's simulated node's
// name ("xsim-node<N>" under the machine's rank mapping), as MPI_Get_processor_name does.
// Called from anywhere else (xsim, the real MPI library, other threads) they are the C
// library's.
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "netmodels/rank_mapping.hpp"

using namespace xsim;
using runtime::next_function;

namespace {

// The name of `rank`'s simulated node into `out` (a host name has at most 64 bytes); its length.
std::size_t node_name_of(const Rank& rank, char (&out)[HOST_NAME_MAX + 1]) {
    const int n = net::format_node_name(g_engine->machine().node_of(rank.world), out, sizeof out);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
}

}  // namespace

extern "C" {

int gethostname(char* name, size_t len) noexcept {
    static const auto real_gethostname = next_function<int (*)(char*, size_t)>("gethostname");
    const Rank* rank = application_rank();
    if (!rank) return real_gethostname(name, len);
    char node[HOST_NAME_MAX + 1];
    const std::size_t bytes = node_name_of(*rank, node) + 1;
    // As the C library: a name that does not fit (with its terminating null) is truncated
    // and reported with ENAMETOOLONG.
    if (bytes > len) {
        if (len > 0) memcpy(name, node, len);
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(name, node, bytes);
    return 0;
}

int uname(struct utsname* buf) noexcept {
    static const auto real_uname = next_function<int (*)(struct utsname*)>("uname");
    const int result = real_uname(buf);
    const Rank* rank = application_rank();
    if (result != 0 || !rank) return result;
    char node[HOST_NAME_MAX + 1];
    const std::size_t bytes = node_name_of(*rank, node) + 1;
    memcpy(buf->nodename, node, bytes < sizeof buf->nodename ? bytes : sizeof buf->nodename);
    buf->nodename[sizeof buf->nodename - 1] = '\0';
    return result;
}

}  // extern "C"

// MPI environment bindings: initialization and finalization of a simulated rank, abort,
// versions, names and the virtual clock.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/p2p/bsend_buffer.hpp"
#include "netmodels/rank_mapping.hpp"

using namespace xsim;

namespace {

int initialize(CallScope& s, int required, int* provided) {
    if (s.rank.phase != MpiPhase::Before)
        return s.fail(nullptr, MPI_ERR_OTHER, s.rank.phase == MpiPhase::Initialized ? "MPI is already initialized"
                                                                                     : "called after MPI_Finalize");
    s.rank.phase = MpiPhase::Initialized;
    // Each simulated rank is one fiber, and a rank cannot start threads (the run ends if it
    // tries): its MPI calls come from one thread, one at a time, which SERIALIZED promises.
    // MULTIPLE gets SERIALIZED, so that a program able to do without a communication thread
    // takes that path (CP2K asks for SERIALIZED and stops if given less).
    const int level = std::clamp(required, static_cast<int>(MPI_THREAD_SINGLE), static_cast<int>(MPI_THREAD_SERIALIZED));
    s.rank.thread_level = static_cast<std::uint8_t>(level);
    if (provided) *provided = level;
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Init)
int PMPI_Init(int*, char***) {
    CallScope scope("MPI_Init");
    return initialize(scope, MPI_THREAD_SINGLE, nullptr);
}

XSIM_MPI_ALIAS(Init_thread)
int PMPI_Init_thread(int*, char***, int required, int* provided) {
    CallScope scope("MPI_Init_thread");
    if (int e = checks::pointer(scope, nullptr, provided, "provided")) return e;
    return initialize(scope, required, provided);
}

XSIM_MPI_ALIAS(Query_thread)
int PMPI_Query_thread(int* provided) {
    XSIM_BEGIN_INITIALIZED("MPI_Query_thread");
    if (int e = checks::pointer(scope, nullptr, provided, "provided")) return e;
    *provided = scope.rank.thread_level;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Is_thread_main)
int PMPI_Is_thread_main(int* flag) {
    XSIM_BEGIN_INITIALIZED("MPI_Is_thread_main");
    if (int e = checks::pointer(scope, nullptr, flag, "flag")) return e;
    *flag = 1;
    return MPI_SUCCESS;
}

// Outside a simulated rank these answer for the real process: before the simulation
// (static constructors, such as those of Open MPI's C++ bindings) MPI is not initialized;
// after it (static destructors, atexit handlers) every rank has finalized.
XSIM_MPI_ALIAS(Initialized)
int PMPI_Initialized(int* flag) {
    AnytimeCall call("MPI_Initialized");
    if (!flag) return call.fail(MPI_ERR_ARG, "flag is a null pointer");
    if (!call.rank()) return real_mpi.Initialized(flag);
    *flag = call.rank()->phase != MpiPhase::Before;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Finalized)
int PMPI_Finalized(int* flag) {
    AnytimeCall call("MPI_Finalized");
    if (!flag) return call.fail(MPI_ERR_ARG, "flag is a null pointer");
    if (!call.rank()) return real_mpi.Finalized(flag);
    *flag = call.rank()->phase == MpiPhase::Finalized;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Finalize)
int PMPI_Finalize(void) {
    XSIM_BEGIN_INITIALIZED("MPI_Finalize");
    // First the equivalent of MPI_Comm_free on MPI_COMM_SELF: its attributes' delete
    // callbacks run, newest first, while MPI is still initialized (MPI-4 section 11.2.4;
    // libraries use them as at-exit hooks).
    const Comm& self = *resolve_comm(MPI_COMM_SELF);
    if (int e = delete_all_attributes(attributes_slot(self, scope.rank), MPI_COMM_SELF))
        return scope.fail(&self, e, "an attribute delete callback on MPI_COMM_SELF failed with error " + std::to_string(e));
    // As if MPI_Buffer_detach: buffered messages still pending are sent first.
    void* buffer = nullptr;
    std::uint64_t size = 0;
    bsend::detach(scope.engine, scope.rank, &buffer, &size);
    scope.rank.phase = MpiPhase::Finalized;
    auto& stats = scope.engine.stats();
    stats.max_finalize_time = std::max(stats.max_finalize_time, scope.rank.clock);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Abort)
int PMPI_Abort(MPI_Comm comm, int errorcode) {
    CallScope scope("MPI_Abort");
    const Comm* c = resolve_comm(comm);
    // A communicator the program did not name (MPI_Comm_split, MPI_Cart_create: Ludwig
    // aborts on its Cartesian one) is described by its size, never printed as "".
    char what[64];
    if (!c) std::snprintf(what, sizeof what, "invalid communicator");
    else if (c->name[0] == '\0') std::snprintf(what, sizeof what, "an unnamed communicator of %d ranks", c->size);
    else std::snprintf(what, sizeof what, "%s", c->name);
    char text[300];
    std::snprintf(text, sizeof text, "simulated rank %d called MPI_Abort(%s, %d) at virtual time %.9f s",
                  scope.rank.world, what, errorcode, simtime_to_seconds(scope.rank.clock));
    scope.engine.abort_run(errorcode, text, RunEnd::Abort);
}

XSIM_MPI_ALIAS(Wtime)
double PMPI_Wtime(void) {
    CallScope scope("MPI_Wtime");
    return simtime_to_seconds(read_clock(scope.engine, scope.rank));
}

XSIM_MPI_ALIAS(Wtick)
double PMPI_Wtick(void) { return 1.0 / static_cast<double>(kPicosPerSecond); }

XSIM_MPI_ALIAS(Get_processor_name)
int PMPI_Get_processor_name(char* name, int* resultlen) {
    CallScope scope("MPI_Get_processor_name");
    if (int e = checks::pointer(scope, nullptr, name, "name")) return e;
    if (int e = checks::pointer(scope, nullptr, resultlen, "resultlen")) return e;
    // The simulated node of the rank: ranks that share a node share a name.
    const int node = scope.engine.machine().node_of(scope.rank.world);
    *resultlen = net::format_node_name(node, name, MPI_MAX_PROCESSOR_NAME);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Get_version)
int PMPI_Get_version(int* version, int* subversion) {
    AnytimeCall call("MPI_Get_version");
    if (!version) return call.fail(MPI_ERR_ARG, "version is a null pointer");
    if (!subversion) return call.fail(MPI_ERR_ARG, "subversion is a null pointer");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Get_library_version)
int PMPI_Get_library_version(char* version, int* resultlen) {
    AnytimeCall call("MPI_Get_library_version");
    if (!version) return call.fail(MPI_ERR_ARG, "version is a null pointer");
    if (!resultlen) return call.fail(MPI_ERR_ARG, "resultlen is a null pointer");
    char real[MPI_MAX_LIBRARY_VERSION_STRING];
    int real_len = 0;
    real_mpi.Get_library_version(real, &real_len);
    *resultlen = std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "xsim %s simulating MPI over %s",
                               XSIM_VERSION_STRING, real);
    *resultlen = std::min(*resultlen, MPI_MAX_LIBRARY_VERSION_STRING - 1);
    return MPI_SUCCESS;
}

}  // extern "C"

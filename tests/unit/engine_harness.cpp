#include "engine_harness.hpp"

#include <mpi.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace xsim::testing {
namespace {

const RankBody* g_body = nullptr;

int rank_main(int, char**, char**) {
    Engine& e = *g_engine;
    Rank& me = *e.current();
    me.phase = MpiPhase::Initialized;
    (*g_body)(e, me);
    me.phase = MpiPhase::Finalized;
    return 0;
}

}  // namespace

RunResult run_ranks(int ranks, const RankBody& body, Options options, const std::vector<std::string>& overrides) {
    options.compute = ComputeMode::None;
    Engine engine(options, {ranks, 0, 1}, net::load_machine({"", overrides}, ranks));
    engine.set_message_handler(&p2p::handle_event);
    mark_simulation_thread();
    g_engine = &engine;
    g_body = &body;
    SoloLink link;
    char name[] = "unit";
    char* argv[] = {name, nullptr};
    RunResult result;
    result.unfinished = engine.run(&rank_main, 1, argv, nullptr, link, nullptr);
    for (int r = 0; r < ranks; ++r) result.final_clocks.push_back(engine.local(r).clock);
    result.stats = engine.stats();
    g_engine = nullptr;
    return result;
}

void send_bytes(Engine& e, Rank& me, const void* buf, std::uint64_t bytes, int dest, int tag, bool synchronous) {
    const p2p::Buffer data{buf, static_cast<int>(bytes), MPI_BYTE, bytes};
    Request* r = p2p::start_send(e, me, data, e.world_comm(), dest, dest, tag, e.world_comm().context, synchronous,
                                 me.clock, me.path);
    wait(e, me, r);
}

Request* post_recv(Engine& e, Rank& me, void* buf, std::uint64_t capacity, int source, int tag) {
    const p2p::Buffer data{buf, static_cast<int>(capacity), MPI_BYTE, capacity};
    return p2p::start_recv(e, me, data, e.world_comm(), source, tag, e.world_comm().context, me.clock, me.path);
}

void wait(Engine& e, Rank& me, Request* r) {
    completion::wait_all(e, me, &r, 1);
}

}  // namespace xsim::testing

// The engine uses the real library for datatypes, which needs MPI initialized: a singleton
// on one process. Unless the environment says otherwise, Open MPI starts it without probing
// for networks (the cm PML's PSM MTL, the TCP BTL) it would not use (bench/RESULTS.md,
// "Session 39"), and as an isolated singleton: without forking and starting an orted for it,
// which took half the wall time of a unit test (CTest runs each test as a process of its
// own; "Session 40"). Isolated singletons all take job family 0, so one session directory
// under the common base (/tmp/ompi.<host>.<uid>/jf.0/1), which tests running in parallel
// created and removed under each other (the top CMakeLists.txt): each process gets a base
// of its own, removed at the end.
int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    setenv("OMPI_MCA_pml", "ob1", 0);
    setenv("OMPI_MCA_btl", "self,vader", 0);
    std::string session_base;
    if (!std::getenv("OMPI_MCA_orte_tmpdir_base") && !std::getenv("OMPI_MCA_ess_singleton_isolated")) {
        const char* tmp = std::getenv("TMPDIR");
        std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/xsim_unit.XXXXXX";
        if (mkdtemp(templ.data())) {
            session_base = templ;
            setenv("OMPI_MCA_orte_tmpdir_base", session_base.c_str(), 1);
            setenv("OMPI_MCA_ess_singleton_isolated", "1", 1);
        }
    }
    MPI_Init(&argc, &argv);
    const int result = RUN_ALL_TESTS();
    MPI_Finalize();
    if (!session_base.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(session_base, ignored);
    }
    return result;
}

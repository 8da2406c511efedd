// Process-wide state belongs to the engine: two engines in one process keep apart their
// MPI objects (context ids, keyvals, groups, datatype tables, WORLD's per-rank names,
// repeat counts) and the upper layers' state (forced collective choices, attached
// buffers); and the repeat counts of MPI_Comm_create_group / MPI_Intercomm_create are
// forgotten once the rank can derive nothing more from the parent.
#include <gtest/gtest.h>

#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine_harness.hpp"
#include "libxsim/colls/entry.hpp"
#include "libxsim/colls/make_comm.hpp"
#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/context_ids.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/mpi/process_objects.hpp"
#include "libxsim/p2p/bsend_buffer.hpp"

using namespace xsim;

namespace {

std::unique_ptr<Engine> make_engine(int ranks) {
    Options options;
    options.compute = ComputeMode::None;
    return std::make_unique<Engine>(options, Engine::Placement{ranks, 0, 1}, net::load_machine({"", {}}, ranks));
}

// The repeat counts one rank keeps for one parent (their representation, context_ids.cpp).
std::size_t repeat_entries(ProcessObjects& objects, std::uint32_t parent_context, int world) {
    return objects.creation_repeats.count(static_cast<std::uint64_t>(parent_context) << 32 |
                                          static_cast<std::uint32_t>(world));
}

}  // namespace

TEST(ProcessObjects, TwoEnginesKeepTheirMpiObjectsApart) {
    auto a = make_engine(4);
    auto b = make_engine(4);
    ASSERT_NE(&a->objects(), &b->objects());

    // Context ids: a live id of one engine is no collision in the other.
    const ContextId first{40, 0x1111};
    const ContextId same_id_other_derivation{40, 0x2222};
    int keyval = 0;
    Group* shared = nullptr;
    {
        CurrentObjects in_a(a->objects());
        EXPECT_EQ(acquire_context(first), "");
        EXPECT_NE(acquire_context(same_id_other_derivation), "");  // a collision within one engine
        keyval = create_keyval(KeyvalKind::Comm, nullptr, nullptr, nullptr);
        EXPECT_NE(find_keyval(keyval, KeyvalKind::Comm), nullptr);
        EXPECT_EQ(find_keyval(keyval, KeyvalKind::Win), nullptr);  // a communicator's keyval is no window's
        shared = make_group({0, 2, 3});
        share_group(77, shared);
        Group* found = find_shared_group(77);
        EXPECT_EQ(found, shared);
        unref(found);
        TypeLayout layout;
        ASSERT_TRUE(type_layout(MPI_INT, &layout));
        EXPECT_EQ(next_repeat(kWorldContext, 1, 5, 99), 0u);
        EXPECT_EQ(next_repeat(kWorldContext, 1, 5, 99), 1u);
    }
    EXPECT_EQ(a->objects().predefined_layouts.count(MPI_INT), 1u);
    {
        CurrentObjects in_b(b->objects());
        EXPECT_EQ(acquire_context(same_id_other_derivation), "");
        EXPECT_EQ(find_keyval(keyval, KeyvalKind::Comm), nullptr);
        EXPECT_EQ(create_keyval(KeyvalKind::Comm, nullptr, nullptr, nullptr), keyval);  // each process numbers its own
        EXPECT_EQ(find_shared_group(77), nullptr);
        EXPECT_NE(empty_group(), &a->objects().empty_group);
        EXPECT_EQ(next_repeat(kWorldContext, 1, 5, 99), 0u);
        release_context(same_id_other_derivation.context);
    }
    EXPECT_EQ(b->objects().predefined_layouts.count(MPI_INT), 0u);
    EXPECT_TRUE(b->objects().live_contexts.empty());
    {
        CurrentObjects in_a(a->objects());
        EXPECT_EQ(find_shared_group(77), shared) << "b's objects did not touch a's";
        unref(shared);
        unref(shared);  // the last reference: the group leaves a's sharing table
        EXPECT_EQ(find_shared_group(77), nullptr);
        release_context(first.context);
    }
    EXPECT_TRUE(a->objects().live_contexts.empty());
}

TEST(ProcessObjects, WorldNamesAndAttributesArePerEngine) {
    auto a = make_engine(2);
    auto b = make_engine(2);
    Rank rank;
    rank.world = 1;
    {
        CurrentObjects in_a(a->objects());
        set_comm_name(a->world_comm(), rank, "alpha");
        EXPECT_STREQ(comm_name(a->world_comm(), rank), "alpha");
    }
    CurrentObjects in_b(b->objects());
    EXPECT_STREQ(comm_name(b->world_comm(), rank), "MPI_COMM_WORLD");
    EXPECT_EQ(attributes_slot(b->world_comm(), rank), nullptr);
}

TEST(ProcessObjects, UpperLayersStateIsPerEngine) {
    auto a = make_engine(2);
    auto b = make_engine(2);
    colls::set_forced_algorithm(*a, "allreduce", "ring");
    EXPECT_EQ(colls::forced_algorithm(*a, "allreduce"), "ring");
    EXPECT_EQ(colls::forced_algorithm(*b, "allreduce"), "");

    // A buffer attached by rank 0 of one engine is not attached in the other.
    std::vector<char> buffer(1024);
    Rank rank;
    rank.world = 0;
    EXPECT_EQ(bsend::attach(*a, rank, buffer.data(), buffer.size()), MPI_SUCCESS);
    EXPECT_EQ(bsend::attach(*a, rank, buffer.data(), buffer.size()), MPI_ERR_BUFFER);
    EXPECT_EQ(bsend::attach(*b, rank, buffer.data(), buffer.size()), MPI_SUCCESS);
}

TEST(ProcessObjects, RepeatCountsEndWithTheirParent) {
    // Each rank makes two communicators from one group and tag of a dup of WORLD: they need
    // distinct contexts (the repeat count), and once the rank frees the parent its counts
    // are gone, so a program that loops over dup / create_group / free keeps no state.
    const auto result = xsim::testing::run_ranks(2, [](Engine& e, Rank& me) {
        CallScope scope("MPI_Comm_create_group");
        for (int round = 0; round < 3; ++round) {
            Comm* parent = nullptr;
            ASSERT_EQ(dup_comm(scope, e.world_comm(), &parent), MPI_SUCCESS);
            Group* group = comm_group(*parent, me);
            Comm* first = nullptr;
            Comm* second = nullptr;
            ASSERT_EQ(create_comm_from_group(scope, *parent, *group, 5, &first), MPI_SUCCESS);
            ASSERT_EQ(create_comm_from_group(scope, *parent, *group, 5, &second), MPI_SUCCESS);
            EXPECT_NE(first->context, second->context);
            EXPECT_EQ(repeat_entries(e.objects(), parent->context, me.world), 1u);
            const std::uint32_t parent_context = parent->context;
            unref(first);
            unref(second);
            unref(group);
            unref(parent);
            EXPECT_EQ(repeat_entries(e.objects(), parent_context, me.world), 0u);
        }
        // From WORLD: kept while the rank runs (WORLD is never freed), dropped when it ends.
        Group* world = comm_group(e.world_comm(), me);
        Comm* from_world = nullptr;
        ASSERT_EQ(create_comm_from_group(scope, e.world_comm(), *world, 6, &from_world), MPI_SUCCESS);
        EXPECT_EQ(repeat_entries(e.objects(), kWorldContext, me.world), 1u);
        unref(from_world);
        unref(world);
    });
    EXPECT_EQ(result.unfinished, 0);
}

TEST(ProcessObjects, FinishedRanksForgetTheirWorldAndSelfRepeatCounts) {
    ProcessObjects objects;
    CurrentObjects current(objects);
    Rank rank;
    rank.world = 3;
    next_repeat(kWorldContext, 3, 1, 10);
    next_repeat(kSelfContext, 3, 1, 10);
    next_repeat(kWorldContext, 4, 1, 10);
    forget_predefined_comm_state(rank);
    EXPECT_EQ(repeat_entries(objects, kWorldContext, 3), 0u);
    EXPECT_EQ(repeat_entries(objects, kSelfContext, 3), 0u);
    EXPECT_EQ(repeat_entries(objects, kWorldContext, 4), 1u);
}

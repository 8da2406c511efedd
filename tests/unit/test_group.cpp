// Groups: regular detection, lookups both ways, comparison and fingerprints.
#include <gtest/gtest.h>

#include "libxsim/mpi/context_ids.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/mpi/process_objects.hpp"

using namespace xsim;

TEST(Group, ArithmeticProgressionsAreStoredRegular) {
    Group* g = make_group({3, 7, 11, 15});
    EXPECT_TRUE(g->regular());
    EXPECT_EQ(g->size, 4);
    EXPECT_EQ(g->world_of(2), 11);
    EXPECT_EQ(g->rank_of_world(15), 3);
    EXPECT_EQ(g->rank_of_world(9), MPI_UNDEFINED);
    EXPECT_EQ(g->rank_of_world(19), MPI_UNDEFINED);
    unref(g);
}

TEST(Group, DescendingRangesWork) {
    Group* g = make_group({9, 6, 3, 0});
    EXPECT_TRUE(g->regular());
    EXPECT_EQ(g->rank_of_world(0), 3);
    EXPECT_EQ(g->rank_of_world(-3), MPI_UNDEFINED);
    unref(g);
}

TEST(Group, IrregularGroupsKeepTheirOrder) {
    Group* g = make_group({5, 1, 4, 100});
    EXPECT_FALSE(g->regular());
    EXPECT_EQ(g->world_of(0), 5);
    EXPECT_EQ(g->rank_of_world(100), 3);
    EXPECT_EQ(g->rank_of_world(1), 1);
    EXPECT_EQ(g->rank_of_world(2), MPI_UNDEFINED);
    unref(g);
}

TEST(Group, ComparisonFollowsTheStandard) {
    Group* a = make_group({0, 1, 2});
    Group* b = make_range_group(0, 1, 3);
    Group* c = make_group({2, 0, 1});
    Group* d = make_group({0, 1, 3});
    EXPECT_EQ(compare_groups(*a, *b), MPI_IDENT);
    EXPECT_EQ(compare_groups(*a, *c), MPI_SIMILAR);
    EXPECT_EQ(compare_groups(*a, *d), MPI_UNEQUAL);
    EXPECT_EQ(a->fingerprint(), b->fingerprint());
    EXPECT_NE(a->fingerprint(), c->fingerprint());
    for (Group* g : {a, b, c, d}) unref(g);
}

TEST(Group, EmptyGroupIsShared) {
    ProcessObjects objects;  // MPI_GROUP_EMPTY is the process's (an engine owns them in a run)
    CurrentObjects current(objects);
    Group* e = make_group({});
    EXPECT_EQ(e, empty_group());
    EXPECT_EQ(e->size, 0);
    EXPECT_EQ(e->rank_of_world(0), MPI_UNDEFINED);
    unref(e);
    EXPECT_EQ(empty_group()->magic, Group::kMagic);
}

TEST(ContextIds, DerivedIdsAreEvenDistinctAndAvoidThePredefinedOnes) {
    for (std::uint64_t i = 0; i < 1000; ++i) {
        const ContextId id = derive_context(0, i, 0x647570);
        EXPECT_EQ(id.context % 2, 0u);
        EXPECT_GE(id.context, 4u);
        EXPECT_NE(id.context, derive_context(0, i + 1, 0x647570).context);
        EXPECT_EQ(id.context, derive_context(0, i, 0x647570).context);  // deterministic
    }
}

// The per-rank C++ exception record (libxsim/runtime/cxx_exception_state): what one rank
// is handling leaves the thread when its fiber switches out and comes back when it resumes,
// and another rank handling its own exception in between neither sees nor disturbs it.
#include <gtest/gtest.h>

#include <exception>
#include <stdexcept>
#include <string>

#include "libxsim/rank_state/cxx_exception_state.hpp"

using xsim::runtime::CxxExceptionState;

namespace {

std::string current_message() {
    try {
        std::rethrow_exception(std::current_exception());
    } catch (const std::exception& e) {
        return e.what();
    }
}

}  // namespace

TEST(CxxExceptionState, NothingSavedWithoutAnException) {
    CxxExceptionState state;
    state.switch_in(3);
    state.switch_out(3);
    EXPECT_EQ(state.saved_ranks(), 0u);
}

TEST(CxxExceptionState, CaughtExceptionFollowsItsRank) {
    CxxExceptionState state;
    try {
        throw std::runtime_error("rank 0");
    } catch (const std::exception&) {
        // Rank 0 switches out inside its catch block: the thread handles nothing now.
        state.switch_out(0);
        EXPECT_EQ(state.saved_ranks(), 1u);
        EXPECT_FALSE(std::current_exception());
        // Rank 1 runs, throws and catches its own, and switches out inside the catch too.
        state.switch_in(1);
        try {
            throw std::runtime_error("rank 1");
        } catch (const std::exception&) {
            EXPECT_EQ(current_message(), "rank 1");
            state.switch_out(1);
            EXPECT_EQ(state.saved_ranks(), 2u);
            // Rank 0 resumes: its exception again, `throw;` rethrows it.
            state.switch_in(0);
            EXPECT_EQ(current_message(), "rank 0");
            try {
                throw;
            } catch (const std::exception& again) {
                EXPECT_STREQ(again.what(), "rank 0");
            }
            state.switch_out(0);
            state.switch_in(1);
            EXPECT_EQ(current_message(), "rank 1");
        }  // rank 1's catch ends; then rank 0's, after it resumes
        EXPECT_FALSE(std::current_exception());
        state.switch_out(1);
        state.switch_in(0);
        EXPECT_EQ(current_message(), "rank 0");
    }
    EXPECT_FALSE(std::current_exception());
    EXPECT_EQ(state.saved_ranks(), 0u);
}

// A destructor running during unwinding that switches fibers (an MPI call) keeps its
// rank's count of uncaught exceptions, and the other ranks see none.
TEST(CxxExceptionState, UncaughtCountIsPerRank) {
    CxxExceptionState state;
    struct SwitchOnUnwind {
        CxxExceptionState& state;
        int seen_by_other = -1, seen_after = -1;
        ~SwitchOnUnwind() {
            state.switch_out(0);
            state.switch_in(1);
            seen_by_other = std::uncaught_exceptions();
            state.switch_out(1);
            state.switch_in(0);
            seen_after = std::uncaught_exceptions();
            EXPECT_EQ(seen_by_other, 0);
            EXPECT_EQ(seen_after, 1);
        }
    };
    try {
        SwitchOnUnwind guard{state};
        throw 7;
    } catch (int value) {
        EXPECT_EQ(value, 7);
    }
    EXPECT_EQ(std::uncaught_exceptions(), 0);
}

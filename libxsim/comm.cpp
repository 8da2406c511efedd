#include "libxsim/comm.hpp"

#include "libxsim/rank.hpp"

namespace xsim {

int Comm::rank_of(const Rank& rank) const {
    return kind == CommKind::World ? rank.world : 0;
}

int Comm::world_rank(int comm_rank, const Rank& caller) const {
    return kind == CommKind::World ? comm_rank : caller.world;
}

}  // namespace xsim

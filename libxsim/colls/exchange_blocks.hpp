// Moving a collective's blocks without messages, for the analytic collectives' data
// (direct_exchange.cpp inside a process, spanning_exchange.cpp between processes): copies,
// packs and unpacks that check lengths as a message would, and errors as a round's would.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "libxsim/colls/algorithm.hpp"

namespace xsim::colls {

// `buf` as its owner rank sees it (its copy of a privatized global).
void* owned(Context& owner, void* buf, int count, MPI_Datatype type);
// Makes `what` the error of `c`'s call (the first one only).
void fail(Context& c, int error_class, const std::string& what);
// Moves block `from` of rank `src` into block `to` of rank `dst`, as a message would.
void move_block(Context& src, const Block& from, Context& dst, const Block& to);
std::uint64_t type_size(MPI_Datatype type);
// `b` of rank `owner`, packed.
std::vector<char> pack_of(Context& owner, const Block& b);
// Unpacks `bytes` packed bytes sent by rank `from` into block `to` of rank `dst`,
// checking the length as a message would.
void unpack_into(Context& dst, const char* in, std::uint64_t bytes, int from, const Block& to);

}  // namespace xsim::colls

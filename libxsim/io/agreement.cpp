#include "libxsim/io/agreement.hpp"

#include "libxsim/colls/algorithms.hpp"
#include "libxsim/colls/schedule.hpp"

namespace xsim::io {
namespace {

colls::ReduceArgs int64_args(const std::int64_t* in, std::int64_t* out, int count, MPI_Op op) {
    colls::ReduceArgs a;
    a.sendbuf = in;
    a.recvbuf = out;
    a.count = count;
    a.type = MPI_INT64_T;
    a.op = op;
    a.bytes = 8ull * static_cast<std::uint64_t>(count);
    return a;
}

// The call's data always moves (and its local combining steps run).
void carry_own_data(colls::Context& ctx) {
    ctx.payload = true;
    ctx.carry_below = ~std::uint64_t{0};
    ctx.carries_data = true;
}

}  // namespace

int allreduce_max(CallScope& scope, const Comm& comm, std::vector<std::int64_t>& values, std::string* why) {
    const std::vector<std::int64_t> mine = values;
    colls::Context ctx(scope.engine, scope.rank, comm, colls::CollKind::FileAgreement, 0);
    carry_own_data(ctx);
    const colls::ReduceArgs a = int64_args(mine.data(), values.data(), static_cast<int>(values.size()), MPI_MAX);
    const int e = colls::run_blocking(ctx, colls::allreduce_recursive_doubling.run(ctx, a));
    if (e != MPI_SUCCESS) *why = ctx.error;
    return e;
}

int inclusive_sum(CallScope& scope, const Comm& comm, std::int64_t mine, std::int64_t* inclusive, std::string* why) {
    colls::Context scan(scope.engine, scope.rank, comm, colls::CollKind::FileAgreement, 0);
    carry_own_data(scan);
    const colls::ReduceArgs a = int64_args(&mine, inclusive, 1, MPI_SUM);
    const int e = colls::run_blocking(scan, colls::scan_recursive_doubling.run(scan, a));
    if (e != MPI_SUCCESS) *why = scan.error;
    return e;
}

}  // namespace xsim::io

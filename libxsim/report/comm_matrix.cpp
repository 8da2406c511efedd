#include "libxsim/report/comm_matrix.hpp"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "libxsim/mpi/real_mpi.hpp"

namespace xsim {
namespace {

struct Row {
    std::uint64_t key;  // CommCounts::key(src, dst): sorts by src, then dst
    std::uint64_t messages;
    std::uint64_t bytes;
};

// Process 0: every process's rows, concatenated (the same pair may come from several
// processes when an entity spans them).
std::vector<Row> gather_rows(const std::vector<Row>& mine, int process, int processes) {
    if (processes == 1) return mine;
    // Counted in rows of 3 x uint64, so a count of bytes cannot pass INT_MAX first.
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(processes)), displs(static_cast<std::size_t>(processes));
    real_mpi.Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<Row> all;
    MPI_Datatype row_type;
    real_mpi.Type_contiguous(3, MPI_UINT64_T, &row_type);
    real_mpi.Type_commit(&row_type);
    if (process == 0) {
        long long at = 0;
        for (int p = 0; p < processes; ++p) displs[p] = static_cast<int>(at), at += counts[p];
        all.resize(static_cast<std::size_t>(at));
    }
    real_mpi.Gatherv(mine.data(), count, row_type, all.data(), counts.data(), displs.data(), row_type, 0, MPI_COMM_WORLD);
    real_mpi.Type_free(&row_type);
    return all;
}

}  // namespace

bool write_comm_matrix(Engine& engine, const std::string& path) {
    const CommCounts* counts = engine.comm_matrix();
    if (!counts) return true;
    const int process = engine.placement().process, processes = engine.placement().processes;
    std::vector<Row> mine;
    mine.reserve(counts->cells().size());
    for (const auto& [key, cell] : counts->cells()) mine.push_back({key, cell.messages, cell.bytes});
    std::vector<Row> rows = gather_rows(mine, process, processes);
    if (process != 0) return true;

    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.key < b.key; });
    std::size_t merged = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (merged > 0 && rows[merged - 1].key == rows[i].key) {
            rows[merged - 1].messages += rows[i].messages;
            rows[merged - 1].bytes += rows[i].bytes;
        } else {
            rows[merged++] = rows[i];
        }
    }
    rows.resize(merged);

    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) {
        std::fprintf(stderr, "xsim: -xsim-commmatrix %s: cannot write the matrix: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    std::fprintf(f, "# xsim comm matrix: entity=%s entities=%d ranks=%d processes=%d", counts->level_name(),
                 counts->entities(), engine.world_size(), processes);
    if (counts->level() == CommCounts::Level::NodeGroup) std::fprintf(f, " nodes_per_entity=%d", counts->nodes_per_entity());
    std::fprintf(f, "\nsrc,dst,messages,bytes\n");
    for (const Row& r : rows)
        std::fprintf(f, "%u,%u,%llu,%llu\n", static_cast<unsigned>(r.key >> 32), static_cast<unsigned>(r.key & 0xffffffffu),
                     static_cast<unsigned long long>(r.messages), static_cast<unsigned long long>(r.bytes));
    const bool ok = std::ferror(f) == 0;
    if (std::fclose(f) != 0 || !ok) {
        std::fprintf(stderr, "xsim: -xsim-commmatrix %s: cannot write the matrix: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    return true;
}

}  // namespace xsim

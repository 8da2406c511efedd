#include "libxsim/runtime/link_doorbells.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <mpi.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>

#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::runtime {

namespace {

// A sleep's timeout, in case a ring is missed: a box that Open MPI queued in the sender (its
// shared-memory queue full) arrives only when the sender polls again.
constexpr long kSleepTimeoutNs = 1'000'000;

}  // namespace

LinkDoorbells::LinkDoorbells(int self, int processes) : self_(self) {
    if (processes < 2) return;  // alone: no waits
    // Doorbells only when every process is on this host (one shared-memory node).
    MPI_Comm node;
    real_mpi.Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_size = 0;
    real_mpi.Comm_size(node, &node_size);
    real_mpi.Comm_free(&node);
    int all_here = node_size == processes ? 1 : 0;
    real_mpi.Allreduce(MPI_IN_PLACE, &all_here, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_here) return;
    const std::size_t bytes = sizeof(Bell) * static_cast<std::size_t>(processes);
    // Process 0 makes the shared object (zero-filled by ftruncate), the others open it by name;
    // it is unlinked once everyone has mapped it (or given up), so nothing outlives the run.
    char name[64] = "";
    int fd = -1;
    if (self == 0) {
        std::snprintf(name, sizeof name, "/xsim-link-%d-%llx", static_cast<int>(getpid()),
                      static_cast<unsigned long long>(host_clock_ns()));
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd >= 0 && ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
            close(fd);
            fd = -1;
            shm_unlink(name);
        }
        if (fd < 0) name[0] = '\0';
    }
    real_mpi.Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    void* map = MAP_FAILED;
    if (name[0]) {
        if (self != 0) fd = shm_open(name, O_RDWR, 0);
        if (fd >= 0) {
            map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            close(fd);
        }
    }
    int mapped = map != MAP_FAILED ? 1 : 0;
    real_mpi.Allreduce(MPI_IN_PLACE, &mapped, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (self == 0 && name[0]) shm_unlink(name);
    if (!mapped) {  // spin, as every other process does
        if (map != MAP_FAILED) munmap(map, bytes);
        return;
    }
    bells_ = static_cast<Bell*>(map);
    mapped_bytes_ = bytes;
}

LinkDoorbells::~LinkDoorbells() {
    if (bells_) munmap(bells_, mapped_bytes_);
}

void LinkDoorbells::ring(int process) {
    if (!bells_) return;
    Bell& bell = bells_[process];
    bell.rings.fetch_add(1, std::memory_order_seq_cst);
    if (bell.sleeping.load(std::memory_order_seq_cst))
        syscall(SYS_futex, &bell.rings, FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

void LinkDoorbells::sleep(std::uint32_t seen) {
    // Not FUTEX_PRIVATE_FLAG: the word is shared between processes.
    const timespec timeout{0, kSleepTimeoutNs};
    syscall(SYS_futex, &bells_[self_].rings, FUTEX_WAIT, seen, &timeout, nullptr, 0);
}

}  // namespace xsim::runtime

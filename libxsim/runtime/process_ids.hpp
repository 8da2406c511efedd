// The real processes of the run that share this host, for a rank's /proc/<pid> paths
// (process_id_interposition.cpp).
#pragma once

namespace xsim::runtime {

// Learns, through the real MPI at start-up (every real process calls it), the real pid of
// each process of the run that sees the same /proc as this one (same host, same pid
// namespace). A rank's /proc/<virtual pid of a rank of such a process>/... then names that
// process's entry, as natively one process opens another's /proc/<pid>/fd/N on its node.
void learn_sibling_processes(int process, int processes);

}  // namespace xsim::runtime

// The launcher's per-process variables (OMPI_COMM_WORLD_RANK, PMIX_RANK, SLURM_PROCID, ...)
// with each simulated rank's values: see launcher_environment.cpp.
#pragma once

namespace xsim::runtime {

// Takes over the launcher variables present in the environment (at start-up, before any rank
// runs, on the simulation thread): their entries in `environ`, and in the array `main_envp`
// that main is given, become buffers of xsim's.
void take_over_launcher_environment(char** main_envp);

// The first thing each rank runs (a program constructor's signature): writes its values into
// those buffers, for code that reads `environ` itself when it starts (a Python interpreter
// building os.environ).
void show_rank_launcher_environment(int argc, char** argv, char** envp);

}  // namespace xsim::runtime

// How an unmodified MPI program becomes a simulation: libxsim interposes the C library's
// __libc_start_main (the caller of main). In an MPI program it initializes the real MPI
// library once per real process, reads the -xsim-* options, builds the machine and the
// engine, and runs the application's main once per simulated rank, each in a fiber.
#include <unistd.h>
#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "libxsim/colls/entry.hpp"
#include "libxsim/colls/spanning_exchange.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/options.hpp"
#include "libxsim/engine/stack_guard.hpp"
#include "libxsim/io/shared_pointer.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/p2p/p2p.hpp"
#include "libxsim/rank_state/libc_rank_state.hpp"
#include "libxsim/rank_state/privatization.hpp"
#include "libxsim/report/deadlock_report.hpp"
#include "libxsim/report/output_file.hpp"
#include "libxsim/report/region_file.hpp"
#include "libxsim/report/regions.hpp"
#include "libxsim/report/comm_matrix.hpp"
#include "libxsim/report/profile_report.hpp"
#include "libxsim/report/run_report.hpp"
#include "libxsim/report/time_split_report.hpp"
#include "libxsim/report/trace/trace_recorder.hpp"
#include "libxsim/rma/operations.hpp"
#include "libxsim/runtime/executable_inspection.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "libxsim/runtime/option_agreement.hpp"
#include "libxsim/runtime/own_definitions.hpp"
#include "libxsim/runtime/own_stack.hpp"
#include "libxsim/runtime/pmpi_link.hpp"
#include "libxsim/runtime/privatization_plan.hpp"
#include "libxsim/runtime/requested_libraries.hpp"
#include "libxsim/runtime/launcher_environment.hpp"
#include "libxsim/runtime/library_constructors.hpp"
#include "libxsim/runtime/process_ids.hpp"
#include "libxsim/runtime/program_constructors.hpp"
#include "libxsim/runtime/startup_checks.hpp"
#include "libxsim/runtime/watchdog.hpp"

using namespace xsim;

namespace {

MainFunction g_application_main = nullptr;
// The executable's static constructors, taken from the C library's start-up (run by the
// ranks, or once before them: simulate()).
std::vector<ProgramConstructor> g_program_constructors;

// A refused start: one line from process 0, a clean exit with status 2 everywhere.
int refuse(int process, const std::string& why) {
    if (process == 0) std::fprintf(stderr, "xsim: %s\n", why.c_str());
    real_mpi.Finalize();
    return 2;
}

// The abnormal-end hook (engine/run_end.hpp): what this process has, written without
// waiting for the others.
bool save_after_bad_end(RunEnd end, int exit_code, const char* why) {
    Engine* engine = g_engine;
    if (!engine) return false;
    regions::write_partial(*engine, run_end_name(end), why);
    const std::string& report = engine->options().report_path;
    return !report.empty() && write_local_run_report(*engine, report.c_str(), exit_code, end, why);
}

int worst_exit_code(Engine& engine) {
    int code = 0;
    for (int i = 0; i < engine.local_count(); ++i) code = std::max(code, engine.local(engine.first_local() + i).exit_code);
    real_mpi.Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return code;
}

// Lazy binding resolves a function on its first call in _dl_runtime_resolve, which saves
// the whole vector register state (about 3 KiB with AVX-512) on the caller's stack: more
// than a small fiber stack (-xsim-stack 2k/4k/8k) has room for. Such runs restart the
// program once, before MPI starts, with LD_BIND_NOW=1 so that every function is bound at
// load time, on the main stack.
void bind_now_for_small_stacks(int argc, char** argv) {
    if (std::getenv("LD_BIND_NOW")) return;
    CommandLine cl;
    try {
        cl = parse_command_line(argc, argv, std::getenv("XSIM_OPTIONS"));
    } catch (const OptionError&) {
        return;  // reported after MPI starts
    }
    if (!is_small_stack(cl.options.stack_bytes)) return;
    setenv("LD_BIND_NOW", "1", 1);
    execv("/proc/self/exe", argv);
    std::fprintf(stderr, "xsim: warning: could not restart with LD_BIND_NOW=1 (%s); small stacks may overflow\n",
                 std::strerror(errno));
}

int simulate(int argc, char** argv, char** envp) {
    bind_now_for_small_stacks(argc, argv);
    int provided = 0, process = 0, processes = 1;
    // What the real library loads as it starts (its components, a singleton's hwloc plugins and
    // what they load) is its own, never the program's: process-wide, constructed once.
    const std::vector<const void*> before_mpi = runtime::loaded_objects();
    real_mpi.Init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, &provided);
    runtime::note_loaded_by_mpi(before_mpi);
    // Errors of the real library come back to xsim, which reports them per simulated rank.
    real_mpi.Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    real_mpi.Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    real_mpi.Comm_rank(MPI_COMM_WORLD, &process);
    real_mpi.Comm_size(MPI_COMM_WORLD, &processes);
    note_run_start(host_clock_ns());

    // Options, machine and regions file: each process reads its own, so all must agree
    // (runtime/option_agreement) before any is used; a refusal is part of what they compare.
    CommandLine cl;
    std::string refused;
    try {
        cl = parse_command_line(argc, argv, std::getenv("XSIM_OPTIONS"));
    } catch (const OptionError& e) {
        refused = e.what();
    }
    const long long ranks = cl.options.np ? cl.options.np : processes;
    // Without -xsim-stack: from the ranks per process, which every process knows alike.
    choose_default_stack(cl.options, ranks, processes);
    if (refused.empty() && !cl.options.help && ranks < processes)
        refused = "-xsim-np " + std::to_string(ranks) + " is smaller than the " + std::to_string(processes) +
                  " real processes; every process needs a rank";
    std::unique_ptr<net::Machine> machine;
    regions::Loaded region_state;  // -xsim-regions-in/-out: read now, the engine's once it exists
    if (refused.empty() && !cl.options.help) {
        try {
            machine = net::load_machine({cl.options.config_file, cl.options.overrides}, static_cast<int>(ranks));
            region_state = regions::load(cl.options);
        } catch (const net::ConfigError& e) {
            refused = e.what();
        } catch (const RegionFileError& e) {
            refused = "-xsim-regions-in " + std::string(e.what());
        }
    }
    runtime::Settings settings = runtime::option_settings(cl.options);
    if (machine)
        for (auto& entry : runtime::machine_settings(machine->effective_config_json)) settings.push_back(std::move(entry));
    if (!refused.empty()) settings.emplace_back("start-up error:", refused);
    if (std::string why = runtime::agree_across_processes(settings, process, processes,
                                                                   {real_mpi.Allreduce, real_mpi.Bcast});
        !why.empty())
        return refuse(process, why);
    if (!refused.empty()) return refuse(process, refused);
    if (cl.options.help) {
        if (process == 0) {
            char stack[32];
            format_stack_size(stack, sizeof stack, cl.options.stack_bytes);
            std::printf("%s\nThis run: %lld simulated ranks on %d real process%s, a stack of %s per rank%s.\n"
                        "\nMachine keys (-xsim-set KEY=VALUE or a TOML file):\n%s",
                        options_help().c_str(), ranks, processes, processes == 1 ? "" : "es", stack,
                        cl.options.stack_given ? " (-xsim-stack)"
                                               : stack_origin(cl.options.stack_bytes, cl.options.stack_given),
                        net::describe_config_keys().c_str());
        }
        real_mpi.Finalize();
        return 0;
    }
    // -xsim-epoch now: process 0's clock, so that every rank of every process reads the same.
    if (cl.options.epoch_now) {
        std::int64_t now = process == 0 ? static_cast<std::int64_t>(std::time(nullptr)) : 0;  // no rank yet: the real clock
        real_mpi.Bcast(&now, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
        cl.options.epoch_seconds = now;
    }
    runtime::learn_sibling_processes(process, processes);  // every process takes part
    // Where the results go: checked now, not after a long run.
    if (std::string why = check_output_files(cl.options, process); !why.empty()) return refuse(process, why);
    if (std::string why = trace::check_trace_options(cl.options, static_cast<int>(ranks), process); !why.empty())
        return refuse(process, why);
    const Engine::Placement placement{static_cast<int>(ranks), process, processes};
    // Per-rank globals: found and sized now (the memory check counts them), copied once the
    // engine exists, before the first rank (which runs the program's static constructors).
    std::vector<std::string> unmatched_libraries;
    if (std::string why = runtime::request_per_rank_libraries(cl.options.privatize_libraries, &unmatched_libraries);
        !why.empty())
        return refuse(process, why);
    runtime::PrivatizationPlan privatization = runtime::plan_privatization(
        cl.options.privatize, (ranks + processes - 1) / processes, runtime::libc_private_segments());
    for (const std::string& name : unmatched_libraries)
        privatization.lines.push_back("xsim: warning: -xsim-privatize-libs: no library of the system directories named " +
                                      name + " is loaded now (one the program opens later is per rank when it loads)");
    if (std::string why = check_memory_budget(cl.options, placement, privatization.bytes_per_rank); !why.empty())
        return refuse(process, why);
    // A conservative collector finds live objects from the running thread's stack and the
    // globals it sees: the running rank's. With other ranks in the process it would free what
    // only they refer to, silently.
    if (const std::string collector = loaded_conservative_collector();
        !collector.empty() && (ranks + processes - 1) / processes > 1)
        return refuse(process, collector + " (the Boehm-Demers-Weiser garbage collector) is loaded: it finds live "
                               "objects by scanning the running rank's stack and globals, so with several simulated "
                               "ranks in one real process it would free objects that only the others refer to; "
                               "run one rank per real process (-xsim-np equal to mpirun's -np)");

    if (const std::string tool = pmpi_tool_behind_libxsim(); !tool.empty() && process == 0)
        std::fprintf(stderr,
                     "xsim: warning: %s defines MPI calls (a PMPI tool) but is loaded after libxsim, so the "
                     "program's MPI calls bind to libxsim and never reach the tool; load the tool first "
                     "(LD_PRELOAD=%s:/path/to/libxsim.so, or link it before -lxsim)\n",
                     tool.c_str(), tool.c_str());

    int code = 0;
    {
        Engine engine(cl.options, placement, std::move(machine));
        engine.set_message_handler(&p2p::handle_event);
        regions::install(engine, std::move(region_state));
        std::unique_ptr<trace::TraceRecorder> tracer;  // -xsim-trace
        if (!cl.options.trace_path.empty()) {
            tracer = std::make_unique<trace::TraceRecorder>(engine);
            engine.set_observer(tracer.get());
        }
        engine.set_layer_handler(MessageKind::CollectiveData, &colls::accept_collective_data);
        engine.set_layer_handler(MessageKind::Rma, &rma::handle_event);
        engine.set_layer_handler(MessageKind::FilePointer, &io::handle_pointer_event);
        mark_simulation_thread();
        g_engine = &engine;
        set_abnormal_end_hook(&save_after_bad_end);
        install_fault_handler();
        if (process == 0)
            for (const std::string& line : privatization.lines) std::fprintf(stderr, "%s\n", line.c_str());
        engine.privatization().set_left_shared(privatization.left_shared);
        engine.privatization().set_covered(privatization.covered);
        // Each rank constructs its own copy of the executable's globals (and a constructor may
        // call MPI, as OpenCoarrays' does), unless ranks share a copy: then once, now, before the
        // image every rank starts from is taken, as the C library would have run them.
        std::vector<ProgramConstructor> constructors;
        if (engine.local_count() > 1 && privatization.enabled && privatization.executable_covered) {
            // The per-rank libraries' constructors too, first (runtime/library_constructors.hpp).
            std::string why;
            constructors = runtime::take_library_constructors(privatization.covered, why);
            if (!why.empty()) engine.abort_run(1, why);
            constructors.insert(constructors.end(), g_program_constructors.begin(), g_program_constructors.end());
        } else if (engine.local_count() == 1 || (privatization.enabled && privatization.executable_covered)) {
            constructors = std::move(g_program_constructors);
        } else {
            for (ProgramConstructor construct : g_program_constructors) construct(argc, argv, envp);
        }
        runtime::bind_own_definitions({});  // the libraries loaded at start-up (own_definitions.hpp)
        // Before them, the rank's launcher variables (OMPI_COMM_WORLD_RANK...) in `environ`.
        runtime::take_over_launcher_environment(envp);
        constructors.insert(constructors.begin(), &runtime::show_rank_launcher_environment);
        // Before everything a rank runs, where it has a __libc_stack_end of its own (own_stack.hpp).
        if (engine.local_count() == 1 || privatization.enabled) {
            if (std::string why = runtime::open_stack_end_for_ranks(); !why.empty()) engine.abort_run(1, why);
            constructors.insert(constructors.begin(), &runtime::set_rank_stack_end);
        }
        engine.set_program_constructors(std::move(constructors));
        if (privatization.enabled) {
            engine.privatization().set_remap_from(cl.options.privatize_remap_from);
            const std::string why =
                engine.privatization().start(std::move(privatization.segments), static_cast<std::size_t>(engine.local_count()));
            if (!why.empty()) engine.abort_run(1, why);
        }
        PmpiLink link(engine, processes);
        runtime::Watchdog watchdog(engine, cl.options.watchdog_seconds);
        SoloLink solo;
        ProcessLink& used = processes > 1 ? static_cast<ProcessLink&>(link) : solo;
        const int app_argc = static_cast<int>(cl.app_argv.size()) - 1;
        const std::int64_t unfinished = engine.run(g_application_main, app_argc, cl.app_argv.data(), envp, used, &link);
        // The program's exit-time destructors run once per real process, on its first rank's globals.
        engine.privatization().switch_to(0);
        runtime::restore_process_stack_end();
        std::string deadlock;
        if (unfinished > 0) {
            deadlock = report_deadlock(engine, unfinished);
            code = 1;
        } else {
            code = worst_exit_code(engine);
            code = std::max(code, regions::finish(engine));
            if (colls::report_unreceived_messages(engine)) code = std::max(code, 1);
        }
        if (!cl.options.report_path.empty())
            write_run_report(engine, cl.options.report_path, code, unfinished > 0 ? RunEnd::Deadlock : RunEnd::Completed,
                             deadlock.c_str());
        print_run_summary(engine, unfinished > 0 ? RunEnd::Deadlock : RunEnd::Completed);
        if (!cl.options.profile_path.empty() && !write_profile(engine, cl.options.profile_path)) code = std::max(code, 1);
        if (!cl.options.commmatrix_path.empty() && !write_comm_matrix(engine, cl.options.commmatrix_path))
            code = std::max(code, 1);
        if (tracer && !trace::write_trace(*tracer)) code = std::max(code, 1);
        set_abnormal_end_hook(nullptr);
        g_engine = nullptr;
    }
    real_mpi.Finalize();
    return code;
}

// An interpreter (Python, R) given xsim options (on its command line, or in XSIM_OPTIONS): it
// runs a script that will load MPI (mpi4py, Rmpi). Without them, an interpreter under
// LD_PRELOAD (a tool, a launcher script) is left alone.
bool interpreter_asking_for_xsim(int argc, char** argv) {
    bool asked = std::getenv("XSIM_OPTIONS") != nullptr;
    for (int i = 1; i < argc && !asked; ++i) asked = std::strncmp(argv[i], "-xsim-", 6) == 0;
    return asked && program_is_interpreter();
}

}  // namespace

extern "C" int __libc_start_main(MainFunction main, int argc, char** argv, void (*init)(), void (*fini)(),
                                 void (*rtld_fini)(), void* stack_end) {
    using Real = int (*)(MainFunction, int, char**, void (*)(), void (*)(), void (*)(), void*);
    static const Real real = runtime::next_function<Real>("__libc_start_main");
    const char* disabled = std::getenv("XSIM_DISABLE");
    if ((disabled && *disabled && *disabled != '0') || !(program_imports_mpi_init() || interpreter_asking_for_xsim(argc, argv)))
        return real(main, argc, argv, init, fini, rtld_fini, stack_end);
    g_application_main = main;
    g_program_constructors = runtime::take_program_constructors();
    return real(simulate, argc, argv, init, fini, rtld_fini, stack_end);
}

// Per-rank globals: every simulated rank of a real process gets its own copy of the
// program's writable data (.data, .bss, COMMON blocks) and thread-locals, and of those of
// the program's own shared libraries. The live segments hold one rank's image at a time;
// switching copies the loaded rank's bytes out and the next rank's in (as ORNL xSim did),
// lazily: only when the rank about to run is not the one loaded. Of a large image (libraries
// like PETSc: megabytes) only the pages that some rank has written are copied (written_pages):
// a page that no one wrote is the same in every rank's image. A long run of written pages
// (Fortran COMMON blocks of megabytes that every rank writes) is not copied but remapped:
// the slots of a large image are pages of a memory file laid out like the live pages, and
// a switch moves the run's pages with their page table entries (mremap) from the live
// addresses to the outgoing rank's slot and the next rank's from its slot (or, where the
// kernel refuses, maps the next rank's pages over the live ones: mmap MAP_FIXED). Runs
// that lie close are remapped as one, with the unwritten pages between them (each map costs
// the kernel's work on its areas, whatever its length). Which runs are long enough to be
// remapped rather than copied is measured on the host at start-up (remap_cost.hpp): under a
// hypervisor that shadows page tables no run is, until switches show that its ranks change so
// few of its pages in a turn that the remap's fixed cost and faults cost less than its copy.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libxsim/rank_state/remap_cost.hpp"
#include "libxsim/rank_state/written_pages.hpp"

struct dl_phdr_info;

namespace xsim::runtime {

// A byte range of the running process that becomes per rank.
struct Segment {
    char* start = nullptr;
    std::size_t bytes = 0;
    std::string what;  // e.g. "data of /path/app", for messages
};

// [begin, end) in an ELF file's virtual addresses (add the load bias for the live range).
struct Range {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
};

// What one ELF file says about its writable program data.
struct ElfData {
    std::vector<Range> data;    // program data sections, minus copies and RELRO
    std::vector<Range> copies;  // R_X86_64_COPY targets: other libraries' objects
    std::vector<std::string> copy_symbols;  // the variable each copy is of
    std::size_t tls_bytes = 0;  // PT_TLS p_memsz
    std::string error;          // why the file could not be read (then nothing else is set)
};

// Reads the section headers, program headers and dynamic relocations of `path`.
ElfData read_elf_data(const std::string& path);
// The same, of a file already in memory (`size` bytes at `image`).
ElfData parse_elf_data(const unsigned char* image, std::size_t size);
// The DT_NEEDED entries of the ELF file at `path` (none when it cannot be read).
std::vector<std::string> needed_libraries_of_file(const std::string& path);
// What the dynamic section of the ELF file at `path` says about loading it: its DT_NEEDED
// entries, its DT_RPATH and DT_RUNPATH (unexpanded), and whether the loader keeps it loaded
// once opened (DF_1_NODELETE, or it defines an STB_GNU_UNIQUE symbol).
struct FileDynamic {
    bool readable = false;
    std::vector<std::string> needed;
    std::string rpath, runpath;
    bool no_delete = false;
};
FileDynamic dynamic_of_file(const std::string& path);

// The objects the real MPI library loaded for itself while it initialized (xsim's call of
// its MPI_Init_thread at start-up, before any rank runs): the objects loaded now that are not
// in `before` (loaded_objects()). Natively they are the MPI library's as much as libmpi
// itself: its components and what they load, which the real library may load although the
// program never uses them (a singleton's hwloc loads its OpenCL plugin, the OpenCL ICD loader
// loads Mesa's Rusticl, which needs LLVM: per rank, LLVM's constructors ran once more in each
// rank and registered its command-line options twice, an abort). Recorded once per process.
void note_loaded_by_mpi(const std::vector<const void*>& before);
// Whether the loaded object at `path` (as the loader names it) is one note_loaded_by_mpi found.
bool loaded_by_mpi(const std::string& path);

// True for loaded objects whose data stays shared: the loader and the vDSO, libxsim, MPI
// libraries (and what they load: loaded_by_mpi), and the libraries of the system directories, except
// those built on MPI (`on_mpi`, see built_on_mpi): natively their globals are per MPI
// process, so here they are per rank.
bool is_foreign_object(const std::string& path, bool on_mpi = false);

// A loaded object's names: its path, its DT_SONAME and its DT_NEEDED entries.
struct LoadedObject {
    std::string path;
    std::string soname;
    std::vector<std::string> needed;
    // The loaded libraries (paths) of the system directories that define symbols this object
    // imports although it does not need them, directly or not (no DT_NEEDED entry of its
    // closure names them): an underlinked library, built to find them loaded by the program
    // (Debian's MPQC: libSCgroup.so.7 needs only libmpi, libmpi_cxx and the C and C++
    // runtimes, and registers its classes with libSCclass.so.7's registry). Filled by
    // add_undeclared_dependencies; never the executable, libxsim, MPI or what they need.
    std::vector<std::string> relies_on{};
    // Loaded by the real MPI library for itself (loaded_by_mpi): never per rank.
    bool mpi_loaded = false;
};
// Fills `relies_on` of the objects of the system directories (the executable, first, aside),
// resolving their imported symbols as the loader does (the global scope). Read once per path.
void add_undeclared_dependencies(std::vector<LoadedObject>& objects);
// Whether a DT_NEEDED entry `needed` names object `o` (its soname, or its file name).
bool is_named_by(const LoadedObject& o, const std::string& needed);
// What the dynamic section of a loaded object (dl_iterate_phdr's `info`) names.
LoadedObject describe_loaded_object(const dl_phdr_info* info, std::string path);
// Every loaded object (the executable first, under its path) with its dynamic names.
std::vector<LoadedObject> loaded_object_names();
// Whether loaded object `o` answers to `name` (its path as loaded, or its soname), as the
// loader matches a name before it searches.
bool answers_to(const LoadedObject& o, const std::string& name);
// The executable's file (/proc/self/exe), read once.
const std::string& executable_path();
// A library of the system directories whose registries hold the program's objects, so that
// natively each process has its own: Boost.Serialization (libboost_serialization,
// libboost_wserialization), where the type information singletons of the program and of
// Boost.MPI register themselves (shared, the second rank's constructors found the first
// rank's entry, unconstructed in its image: a crash in type_register). It counts as built
// on MPI (per rank, constructed by each rank).
bool keeps_registry_of_program_objects(const std::string& path);
// Whether the library `layer` (a path or soname) is the MPI layer of the serial library
// `needed` (a DT_NEEDED name), named after it with an MPI suffix: libfftw3_mpi.so.3 of
// libfftw3.so.3, libfftw3f_mpi of libfftw3f, libadios2_c_mpi of libadios2_c.
bool is_mpi_layer_of(const std::string& layer, const std::string& needed);
// Whether two libraries (paths or sonames) are of one release of one project: file names
// "lib<project>...-<tag>.so<suffix>" with the same tag and suffix (a version: "-9.1.so.1",
// "-pv5.11.so.1") whose projects' leading lowercase letters (3 or more) agree, one starting
// the other: libvtkParallelMPI-9.1.so.1 and libvtkParallelCore-9.1.so.1, libvtksys-9.1.so.1.
bool is_same_release(const std::string& layer, const std::string& needed);
// Which of `objects` are built on MPI: they need the MPI library itself (a DT_NEEDED entry
// libmpi*: PETSc, hypre, OpenFOAM's libPstream), or keep a registry of the program's objects
// (keeps_registry_of_program_objects), or are the serial library an MPI layer built on MPI
// is named after (is_mpi_layer_of: libfftw3 under libfftw3_mpi, whose planner holds the MPI
// solvers and is freed by fftw_mpi_cleanup), or are of the same release as a library of the
// system directories built on MPI that needs them, directly or through others of the release
// (is_same_release: VTK's libvtkParallelCore-9.1 under libvtkParallelMPI-9.1), or `also` accepts them (objects of the
// system directories only), or they need such an object, directly or not (OpenFOAM's
// libOpenFOAM.so needs libPstream.so and holds the rank's number; libfiniteVolume.so needs
// libOpenFOAM.so), or rely on such an object without needing it (`relies_on`: MPQC's
// libSCscf.so.7 on libSCclass.so.7). And what an object of the system directories built on
// MPI relies on without needing it is built on MPI too: an underlinked library is part of the
// program that provides its symbols, not a library of its own (libSCgroup.so.7, built on MPI,
// registers its classes in libSCclass.so.7's registry, which natively each process has; a
// shared one saw the second rank's constructors register them again). A library under the
// MPI library (libz, libstdc++) is not, nor one the MPI library loaded for itself
// (`mpi_loaded`), whatever it needs or relies on: it is not the program's.
std::vector<bool> built_on_mpi(const std::vector<LoadedObject>& objects, bool (*also)(const std::string& path));
// Whether the library file at `path` is the one `name` names (-xsim-privatize-libs): its file
// name is `name` or lib`name`, whole or followed by ".so...": fftw3, libfftw3 and
// libfftw3.so.3 all name /usr/lib/x86_64-linux-gnu/libfftw3.so.3 (and not libfftw3f).
bool library_has_name(const std::string& path, const std::string& name);
// The loaded libraries of the system directories that `name` names (library_has_name): those
// that can be per rank, and those that cannot because xsim runs on them (the MPI library,
// libxsim and everything they need: the C and C++ runtimes, ...).
struct NamedLibraries {
    std::vector<std::string> found;
    std::vector<std::string> refused;
};
NamedLibraries find_named_system_libraries(const std::string& name);
// The MPI library and its runtime (Open MPI, MPICH, their transports, by file name): their
// state is per real process and xsim's own use of it must not be disturbed.
bool is_mpi_library(const std::string& path);
// The file libxsim was loaded from.
bool is_own_library(const std::string& path);

// The loaded objects of this process, seen from the calling thread (its TLS blocks).
struct Discovery {
    std::vector<Segment> segments;
    std::vector<std::string> covered;    // objects whose data and TLS are all in `segments`
    std::vector<std::string> uncovered;  // objects (not system ones) left shared, with the reason
    std::size_t uncovered_bytes = 0;     // writable bytes of the program left shared
    bool executable_covered = false;     // the executable's own data and TLS are in `segments`
};
// The program's writable data and thread-locals, of the objects loaded now. Of those in the
// system directories, the ones built on MPI are per rank, and those `system_object_is_per_rank`
// accepts (an interpreter's library: R's libR.so), with the libraries built on them.
Discovery discover(bool (*system_object_is_per_rank)(const std::string&) = nullptr);
// The base addresses of the loaded objects, in load order.
std::vector<const void*> loaded_objects();
// What discover() finds in the objects loaded since `known` (loaded_objects()) was taken: a
// library a rank opens with dlopen. Of those in the system directories, the ones
// `system_object_is_per_rank` accepts are per rank too (a Python extension module, which is
// part of the interpreter's per-rank state).
Discovery discover_loaded(const std::vector<const void*>& known, bool (*system_object_is_per_rank)(const std::string&));

class Privatization {
public:
    static constexpr std::size_t kNone = ~std::size_t{0};

    Privatization() = default;
    ~Privatization();
    Privatization(const Privatization&) = delete;
    Privatization& operator=(const Privatization&) = delete;

    // Takes the live contents of `segments` as every rank's initial image, for `ranks`
    // ranks (index 0 .. ranks-1), and the live image as rank `loaded`'s (kNone: no rank's
    // yet, before the first rank runs). At most once. Returns why privatization could not
    // start (then it stays inactive), or an empty string.
    std::string start(std::vector<Segment> segments, std::size_t ranks, std::size_t loaded = kNone);
    // Memory one rank's copy of `segments` is expected to take (for the memory check before
    // start): its whole slot, or for an image switched by written page, the bytes on the
    // pages written so far.
    static std::size_t expected_bytes_per_rank(const std::vector<Segment>& segments);
    bool active() const { return !segments_.empty(); }
    // Bytes each rank's copy takes (its slot).
    std::size_t bytes_per_rank() const;
    std::size_t privatized_bytes() const;
    // Bytes a switch copies each way: the written pages' share of the image (all of it when
    // pages are not tracked: small images, or no page map), less the remapped runs.
    std::size_t switched_bytes() const;
    // Bytes of the image in runs of written pages that a switch remaps instead of copying.
    std::size_t remapped_bytes() const;
    // Whether a switch moves the remapped runs' pages (mremap) rather than maps the file over
    // the live ones: on unless turned off (before start: a test of the other path) or the
    // kernel refused a move.
    bool moves_runs() const { return move_runs_ && slot_file_ >= 0; }
    void set_move_runs(bool on) { move_runs_ = on; }
    // Runs of written pages shorter than this are always copied.
    static constexpr std::size_t kRemapFloor = 64 * 1024;
    // Runs of written pages from `bytes` on are remapped, shorter ones copied (before start; the
    // largest size_t: none is remapped). By default (0) measured on this host the first time an
    // image has a run of kRemapFloor or more (measure_remap_cost): what the switch costs each way.
    void set_remap_from(std::size_t bytes) { remap_from_ = bytes; }
    std::size_t remap_from() const { return remap_from_; }
    // What was measured (measured: false when the threshold was set, or nothing measured yet).
    const RemapCost& remap_cost() const { return remap_cost_; }
    // Takes `cost` as measured (before start: a test of what follows from given figures).
    void set_remap_cost(const RemapCost& cost) {
        remap_cost_ = cost;
        remap_from_ = cost.remap_from;
    }
    const std::vector<Segment>& segments() const { return segments_; }

    // Makes rank `index`'s image the live one.
    void switch_to(std::size_t index) {
        if (index != loaded_ && active()) exchange(index);
    }
    std::size_t loaded() const { return loaded_; }
    // While pinned, the loaded image may be in use by other threads (a rank's OpenMP
    // workers, runtime/openmp_interposition.cpp): before another rank's image is loaded
    // (a fiber switch, a callback acting for another rank: the one place images change, off
    // the path of a switch that changes nothing) `guard(context, loaded, wanted)` runs; it
    // ends the run, or unpins (set_pin(nullptr, nullptr)) and lets the exchange go on.
    using PinGuard = void (*)(void* context, std::size_t loaded, std::size_t wanted);
    void set_pin(PinGuard guard, void* context) {
        pin_guard_ = guard;
        pin_context_ = context;
    }
    // Asks for the first lines of rank `index`'s slot, which its next switch reads (cold at
    // 10^5+ ranks), a few events ahead.
    void prefetch(std::size_t index) const {
        if (index == loaded_ || !active() || !saved(index)) return;
        for (std::size_t at = 0; at < slot_bytes_ && at < 256; at += 64) __builtin_prefetch(slot(index) + at);
    }

    // Where rank `index`'s copy of [p, p + bytes) lies now: `p` itself when that rank's image
    // is loaded or the range is not privatized, else in the rank's slot. xsim moves message
    // data to and from user buffers while other ranks' images are loaded (a message
    // arriving in the scheduler); a buffer that is a global must be the owner's copy.
    void* view(void* p, std::size_t bytes, std::size_t index) {
        if (index == loaded_ || !may_hold(p)) return p;
        return view_slow(p, bytes, index);
    }
    // Whether `p` lies in a privatized segment (the segments can be far apart, e.g. the
    // program's data and the C library's getopt globals, so the heap and the stacks lie
    // between them: each one is tested).
    // Asked for every message's buffers (two or three times per message), mostly of heap
    // addresses between the segments: the last such gap is remembered.
    bool may_hold(const void* p) const {
        if (p < low_ || p >= high_) return false;
        const char* c = static_cast<const char*>(p);
        if (c >= gap_low_ && c < gap_high_) return false;
        return holds(c);
    }

    // Makes the globals of a library that a rank has just loaded (dlopen) per rank as well:
    // their live contents become every rank's initial image (the caller has put the load-time
    // image in place: runtime/library_constructors.hpp), and the loaded rank goes on with the
    // live bytes (which the caller may then write: its constructed image). Each such library is an image of its own, switched with
    // this one. Call only while a rank is loaded. Returns why it could not (then they stay
    // shared), or an empty string.
    std::string add_loaded_library(std::vector<Segment> segments, std::vector<std::string> covered);

    // Loaded objects (not system ones) whose globals stay shared, with the reason: for
    // the run report.
    void set_left_shared(std::vector<std::string> objects) { left_shared_ = std::move(objects); }
    const std::vector<std::string>& left_shared() const { return left_shared_; }
    // The loaded objects whose globals are per rank (Discovery::covered), and whether
    // `function` is code of one of those libraries (an exit handler that a privatized
    // library registers is its rank's). The executable may not be recognized by name.
    void set_covered(std::vector<std::string> objects) { covered_ = std::move(objects); }
    bool in_privatized_library(const void* function) const;

    // User code that xsim calls outside the rank's own fiber (reduction operations run
    // when messages arrive, error handlers) must see its rank's globals. While a ForRank
    // lives, load_for_callback() loads rank `index`'s image; if `restore`, the image loaded
    // before is loaded again at the end (inside another rank's fiber).
    class ForRank {
    public:
        ForRank(Privatization& p, std::size_t index, bool restore)
            : p_(p), saved_callback_(p.callback_), saved_loaded_(p.loaded_), restore_(restore) {
            p.callback_ = index;
        }
        ~ForRank() {
            p_.callback_ = saved_callback_;
            if (restore_ && saved_loaded_ != kNone) p_.switch_to(saved_loaded_);
        }
        ForRank(const ForRank&) = delete;
        ForRank& operator=(const ForRank&) = delete;

    private:
        Privatization& p_;
        std::size_t saved_callback_;
        std::size_t saved_loaded_;
        bool restore_;
    };
    void load_for_callback() {
        if (callback_ != kNone) switch_to(callback_);
    }
    // The rank a ForRank acts for (kNone outside one).
    std::size_t callback_index() const { return callback_; }

private:
    struct Piece {
        char* live;
        std::size_t bytes;
        std::size_t offset;  // in a slot and in the snapshot
    };
    void exchange(std::size_t index);
    // Takes in the pages written since the last look (and, with `start`/`bytes`, those that
    // xsim is about to write for a rank that is not loaded): every other rank's image of
    // such a page is the start-up one, which their slots now receive.
    void note_written(const char* start = nullptr, std::size_t bytes = 0);
    // Each segment's place in a slot (page-congruent with its live address when the image
    // tracks pages, so that a slot's pages can be mapped over the live ones); returns the
    // slot's size.
    static std::size_t lay_out(const std::vector<Segment>& segments, std::vector<Piece>& pieces);
    // What a slot's size is a multiple of, and its pieces of 2 MiB or more are laid out
    // congruent to their live addresses by: a page table's span (2 MiB) when there is such a
    // piece, else a page (every piece is at its place in a page); 64 bytes (a cache line) when
    // pages are not tracked.
    static std::size_t slot_alignment(const std::vector<Piece>& pieces);
    static std::size_t bytes_of(const std::vector<Piece>& pieces);
    static bool tracks_pages(const std::vector<Piece>& pieces);
    static std::vector<WrittenPages::Span> spans_of(const std::vector<Piece>& pieces);
    // The bytes of `pieces` that lie on written pages, as pieces (adjacent runs joined).
    static std::vector<Piece> on_written_pages(const std::vector<Piece>& pieces, const WrittenPages& pages);
    void* view_slow(void* p, std::size_t bytes, std::size_t index);
    // may_hold past the bounds and the last gap: tests each piece and library, and remembers
    // the gap around `c` when it is in none.
    bool holds(const char* c) const;
    // copies_ from the written pages, after turning new long runs of them into remapped_.
    void update_copies();
    // Every rank with a slot but the loaded one gets the start-up bytes of the pages found_.
    void give_others_startup_pages();
    // Whether every byte of [from, from + bytes) is privatized, at `offset` + its distance from
    // `from` in a slot.
    bool privatized_in_place(const char* from, std::size_t bytes, std::size_t offset) const;
    // The runs a switch remaps: the whole written pages of `written` in runs of remap_from_ or
    // more, joined across short gaps of privatized pages no one wrote (measures remap_from_
    // first when it is to be and a run of kRemapFloor or more is found).
    std::vector<Piece> runs_to_remap(const std::vector<Piece>& written);
    // Makes rank `index`'s slot pages of every remapped run the live ones: moves them there
    // (mremap, with their page table entries), after moving the loaded rank's back to its
    // slot; or, when moving is off or fails, maps them over the live pages.
    void map_runs(std::size_t index);
    // mremap of [from, from + bytes) to `to`, the source left mapped (MREMAP_DONTUNMAP);
    // false when refused (nothing moved: a kernel before 5.13).
    static bool move_pages(char* from, char* to, std::size_t bytes);
    // Moves the runs' live pages back to the slot of the rank they are (moved_in_), if any.
    // False when the kernel refused (the caller then stops moving).
    bool move_runs_out();
    // Maps the whole file again over the slots (filling the moved pages' places) and maps
    // runs from now on.
    void stop_moving();
    // Gives rank `index`'s slot its start-up image of what is switched (before its first run,
    // or before xsim writes into it) and marks it saved.
    void give_startup_image(std::size_t index);
    // `pieces` minus the ranges of `holes` (offsets kept).
    static std::vector<Piece> without(const std::vector<Piece>& pieces, const std::vector<Piece>& holes);
    char* slot(std::size_t index) const { return slots_ + index * slot_bytes_; }
    // Whether rank `index`'s slot holds its image (it has run, or xsim wrote into it).
    bool saved(std::size_t index) const { return (saved_[index / 64] >> (index % 64)) & 1; }
    void mark_saved(std::size_t index) { saved_[index / 64] |= std::uint64_t{1} << (index % 64); }

    std::vector<Segment> segments_;
    std::vector<std::string> left_shared_;
    std::vector<std::string> covered_;
    std::vector<Piece> pieces_;
    std::vector<Piece> copies_;  // what a switch copies: pieces_, or their written pages
    std::vector<Piece> remapped_;  // written page runs a switch remaps (whole pages)
    WrittenPages written_pages_;
    std::vector<const char*> found_;  // scratch: pages found written
    char* snapshot_ = nullptr;            // the image at start-up (slot_bytes_, mapped)
    std::vector<std::uint64_t> saved_;    // bit per rank: its slot holds its image
    char* slots_ = nullptr;               // one reserved mapping, a slot per rank
    int slot_file_ = -1;                  // the memory file behind slots_ (large images), or -1
    bool move_runs_ = true;               // map_runs moves the pages (else maps the file)
    std::size_t remap_from_ = 0;          // runs remapped from this length on (0: to measure)
    RemapCost remap_cost_{};
    // Runs of kRemapFloor or more that the measured threshold leaves copied: a switch now and
    // then counts the pages of each that the outgoing rank changed in its turn (against its
    // slot), and a run whose remap would cost less for that many pages touched than its copy
    // (measured at those switches) is remapped from then on (promoted_). A rank that writes a
    // large image once and a few of its pages per turn: a remap then costs its two TLB flushes
    // and a few faults, a copy megabytes out and in. Only with a measured threshold (auto).
    struct Candidate {
        char* live;
        std::size_t bytes;
        std::size_t sampled_pages = 0;  // pages compared over the samples
        std::size_t changed_pages = 0;  // of which the outgoing rank had changed
        bool settled = false;           // decided: stays copied (until it grows: a new candidate)
    };
    std::vector<Candidate> candidates_;
    std::vector<Piece> promoted_;
    std::size_t switches_ = 0;
    double copy_page_us_ = 0;     // copying a page out and in at a switch, as measured there
    bool promotion_due_ = false;  // a candidate was promoted: update_copies at the next switch
    // Counts the candidates' pages changed in the loaded rank's turn (before its copy out).
    void sample_candidates();
    void decide_candidates();
    bool candidates_settled() const {
        for (const Candidate& c : candidates_)
            if (!c.settled) return false;
        return true;
    }
    // The rank whose slot pages of the remapped runs are moved live (map_runs; its slot keeps
    // its mapping of them, without page table entries: move_pages). kNone: none is.
    std::size_t moved_in_ = kNone;
    std::size_t reserved_ = 0;
    std::size_t slot_bytes_ = 0;
    std::size_t image_bytes_ = 0;
    std::size_t ranks_ = 0;
    std::size_t loaded_ = kNone;
    std::size_t callback_ = kNone;
    PinGuard pin_guard_ = nullptr;
    void* pin_context_ = nullptr;
    std::vector<std::unique_ptr<Privatization>> loaded_libraries_;  // add_loaded_library
    const void* low_ = nullptr;   // the privatized addresses lie in [low_, high_)
    const void* high_ = nullptr;
    // Addresses in [gap_low_, gap_high_) hold nothing privatized (may_hold); reset when
    // segments are added.
    mutable const char* gap_low_ = nullptr;
    mutable const char* gap_high_ = nullptr;
};

}  // namespace xsim::runtime

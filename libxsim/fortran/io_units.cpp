// Fortran I/O units per simulated rank. libgfortran keeps one table of units per real
// process, so the simulated ranks of a process would share it where real ranks each have
// their own:
//  - a rank's CLOSE(6) closed every rank's standard output, and the next WRITE(*,...) of
//    another rank went to a new file named fort.6 (CloverLeaf: rank 0's "This test is
//    considered PASSED" vanished from stdout whenever a process held two ranks or more);
//  - two ranks that OPEN the same unit number to their own files took the unit from each
//    other (an OPEN of a connected unit closes it first), and wrote into each other's files.
// Here every statement that names a unit (OPEN, CLOSE, READ, WRITE, INQUIRE, REWIND,
// BACKSPACE, ENDFILE, FLUSH, WAIT, and the FLUSH subroutine) is seen first. A unit number
// means itself for the first rank of the process that uses it (so a file a single rank
// writes without OPEN is still fort.N); any other rank that uses the same number while that
// one holds it gets a number of its own above 2^30, for as long as it keeps the unit. The
// other GNU extensions that take a unit number (FNUM, FSEEK, FTELL, FGETC, FPUTC, FSTAT,
// ISATTY, TTYNAM) are not seen: they get the program's number.
// The preconnected units (0, 5 and 6: stderr, stdin, stdout) stay shared, as mpirun merges
// the ranks' standard streams; a rank's CLOSE of one flushes it and leaves it open for the
// others. A rank that OPENs one of them to a file (FILE=: Quantum ESPRESSO's ranks but the
// first send unit 6 to /dev/null) gets a number of its own for it until it closes it, so
// the other ranks' PRINT and WRITE(*) still reach standard output. Units made by NEWUNIT=
// are unique in the process already, and internal units (WRITE to a CHARACTER variable)
// name no unit; both pass unchanged, as does everything
// outside the simulation and in a process that runs one rank.
// The parameters of every such call begin with the same two integers, flags then unit
// (libgfortran's st_parameter_common, unchanged since gfortran 4.3).
// One file on units of two ranks: libgfortran refuses to connect a file that another unit
// of the process has open ("File already opened in another unit") unless Fortran 2018 is
// allowed, which a Fortran main program's _gfortran_set_options allows (gfortran 9 and
// later) and the defaults of a C main program do not. Natively the ranks are processes with
// a table each, so code_saturne's ranks but the first (a C main) each OPEN /dev/null on unit
// 9 to silence their log; under xsim the second rank of a process failed. A rank's OPEN of a
// file that only other ranks of the process have connected runs with Fortran 2018 allowed
// for that statement; one the rank itself has connected to another unit still fails, as
// natively. (Not done when the program asked for gfortran's backtrace handlers, which
// _gfortran_set_options would install again: a Fortran main compiled with -std=f2008 or
// older; such a program gets libgfortran's error.)
#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <unordered_map>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/fortran/io_units.hpp"

namespace xsim {
namespace {

// The head of every I/O statement's parameter block.
struct StatementHead {
    std::int32_t flags;
    std::int32_t unit;
    const char* filename;
    std::int32_t line;
    std::size_t iomsg_len;
    char* iomsg;
    std::int32_t* iostat;
};

// OPEN's parameters begin so (st_parameter_open): the head, RECL=, then FILE= (length first).
struct OpenHead {
    StatementHead common;
    std::int32_t recl_in;
    std::size_t file_len;
    const char* file;
};

constexpr std::int32_t kLibreturnMask = 3;           // IOPARM_LIBRETURN_MASK: 0 when the statement succeeded
constexpr std::int32_t kHasIostat = 1 << 5;         // IOPARM_HAS_IOSTAT
constexpr std::int32_t kHasFile = 1 << 8;           // IOPARM_OPEN_HAS_FILE (OPEN)
constexpr std::int32_t kInternalUnit = 1 << 14;     // IOPARM_DT_HAS_INTERNAL_UNIT (READ, WRITE)
constexpr std::int32_t kNewunit = 1 << 23;          // IOPARM_OPEN_HAS_NEWUNIT (OPEN)
constexpr std::int32_t kFirstOwnNumber = 1 << 30;   // units given to a rank's own use of a shared number

bool preconnected(std::int32_t unit) { return unit == 0 || unit == 5 || unit == 6; }

// Whether rank `local` (-1: none to tell apart) may get a number of its own for `unit`:
// not for NEWUNIT numbers (negative), numbers already given out, or the shared streams.
bool translated(int local, std::int32_t unit) {
    return local >= 0 && unit >= 0 && unit < kFirstOwnNumber && !preconnected(unit);
}

struct Units final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::FortranUnits;
    std::unordered_map<std::int32_t, int> holder;          // unit number -> the local rank that uses it
    std::unordered_map<std::uint64_t, std::int32_t> own;   // (local rank, unit number) -> its own number
    std::int32_t next_own = kFirstOwnNumber;
    // The file each unit of a rank was connected to by OPEN(FILE=): (local rank, the number
    // libgfortran knows) -> the file's device and inode, which libgfortran compares.
    std::unordered_map<std::uint64_t, std::pair<dev_t, ino_t>> files;
    // libgfortran's compile options as the program set them (_gfortran_set_options, called by
    // a Fortran main program), else its defaults for a C main program (init_compile_options).
    int warn_std = 68;    // GFC_STD_F95_DEL | GFC_STD_LEGACY
    int allow_std = 511;  // F77 to F2008_OBS, GNU, LEGACY: not GFC_STD_F2018
    bool backtrace = false;
};

constexpr int kStdF2018 = 1 << 9;  // GFC_STD_F2018: a file may be connected to several units

std::uint64_t unit_key(int local, std::int32_t unit) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(local)) << 32 | static_cast<std::uint32_t>(unit);
}

// The simulated rank running now, as a local index, when units must be told apart (a
// simulated rank of a process that runs several); -1 otherwise.
int separating_rank() {
    const Rank* rank = running_rank();
    if (!rank || g_engine->local_count() < 2) return -1;
    return static_cast<int>(g_engine->local_index(*rank));
}

// The number rank `local` uses for its own use of shared number `unit`, given now if it has none.
std::int32_t own_number(Units& units, int local, std::int32_t unit) {
    if (const auto own = units.own.find(unit_key(local, unit)); own != units.own.end()) return own->second;
    if (units.next_own == INT32_MAX) [[unlikely]]
        g_engine->abort_run(1, "the simulated ranks of this process used more Fortran unit numbers than xsim can tell apart");
    units.own.emplace(unit_key(local, unit), units.next_own);
    return units.next_own++;
}

// The number libgfortran is asked for when rank `local` names `unit`. `uses` (OPEN, data
// transfer, ENDFILE): an unheld number becomes this rank's; INQUIRE and the positioning
// statements only look.
std::int32_t unit_for(int local, std::int32_t unit, bool uses) {
    if (local >= 0 && preconnected(unit)) {  // the shared stream, unless the rank reopened it
        const Units& units = layer_state<Units>(*g_engine);
        const auto own = units.own.find(unit_key(local, unit));
        return own == units.own.end() ? unit : own->second;
    }
    if (!translated(local, unit)) return unit;
    Units& units = layer_state<Units>(*g_engine);
    if (const auto own = units.own.find(unit_key(local, unit)); own != units.own.end()) return own->second;
    const auto held = units.holder.find(unit);
    if (held == units.holder.end()) {
        if (uses) units.holder.emplace(unit, local);
        return unit;
    }
    if (held->second == local) return unit;
    return own_number(units, local, unit);
}

// Rank `local` OPENs preconnected `unit` to a file: the number it uses for it from now on.
std::int32_t reopened_stream(int local, std::int32_t unit) {
    return own_number(layer_state<Units>(*g_engine), local, unit);
}

// Rank `local` closed its own file of preconnected `unit`: back to the shared stream.
void release_reopened_stream(int local, std::int32_t unit) {
    layer_state<Units>(*g_engine).own.erase(unit_key(local, unit));
}

// Rank `local` closed the number libgfortran knows as `unit`: no file of its own there now.
void forget_file(int local, std::int32_t unit) {
    if (local >= 0) layer_state<Units>(*g_engine).files.erase(unit_key(local, unit));
}

// After rank `local` closed `unit`: the number is free again.
void closed(int local, std::int32_t unit) {
    if (!translated(local, unit)) return;
    Units& units = layer_state<Units>(*g_engine);
    if (units.own.erase(unit_key(local, unit)) > 0) return;
    if (const auto held = units.holder.find(unit); held != units.holder.end() && held->second == local)
        units.holder.erase(held);
}

template <class Function>
Function real_gfortran_io(const char* name) {
    void* f = dlsym(RTLD_NEXT, name);
    if (!f) {
        std::fprintf(stderr, "xsim: %s is not in the Fortran runtime this program loaded\n", name);
        std::exit(1);
    }
    return reinterpret_cast<Function>(f);
}

using Statement = void (*)(StatementHead*);
using SetOptions = void (*)(int, int*);

// The file an OPEN names (blanks at its end are not part of it, as for libgfortran).
bool file_of(const StatementHead* p, std::pair<dev_t, ino_t>& id) {
    const auto* open = reinterpret_cast<const OpenHead*>(p);
    std::size_t length = open->file_len;
    while (length > 0 && (open->file[length - 1] == ' ' || open->file[length - 1] == '\0')) --length;
    std::string path(open->file, length);
    struct stat st{};
    if (length == 0 || stat(path.c_str(), &st) != 0) return false;
    id = {st.st_dev, st.st_ino};
    return true;
}

// Rank `local`'s OPEN(FILE=) on the number `p` holds now: run with Fortran 2018 allowed when
// the file is connected only to other ranks' units (see the top of this file), and remember
// the connection when it succeeds.
void open_file(Statement statement, StatementHead* p, int local) {
    if (local < 0 || !(p->flags & kHasFile)) return statement(p);
    Units& units = layer_state<Units>(*g_engine);
    std::pair<dev_t, ino_t> id;
    const bool named = file_of(p, id);
    bool others = false, own = false;
    if (named && !(units.allow_std & kStdF2018) && !units.backtrace) {
        for (const auto& [holder, file] : units.files) {
            if (file != id) continue;
            const int rank = static_cast<int>(holder >> 32);
            const auto unit = static_cast<std::int32_t>(holder & 0xffffffffu);
            if (rank != local) others = true;
            else if (unit != p->unit) own = true;
        }
    }
    if (others && !own) {
        static const auto set_options = real_gfortran_io<SetOptions>("_gfortran_set_options");
        int relaxed[2] = {units.warn_std, units.allow_std | kStdF2018};
        int kept[2] = {units.warn_std, units.allow_std};
        set_options(2, relaxed);
        statement(p);
        set_options(2, kept);
    } else {
        statement(p);
    }
    if ((p->flags & kLibreturnMask) == 0 && named) units.files[unit_key(local, p->unit)] = id;
}

// Runs the real statement with the rank's number in place of the program's. The compiled
// statement fills its parameter block afresh each time, and a READ or WRITE goes on with the
// same block (its items, its end), so the rank's number stays in it.
void run(Statement statement, StatementHead* p, bool uses) {
    p->unit = unit_for(separating_rank(), p->unit, uses);
    statement(p);
}

}  // namespace

void note_gfortran_options(int count, const int options[]) {
    if (!g_engine) return;
    Units& units = layer_state<Units>(*g_engine);
    if (count >= 1) units.warn_std = options[0];
    if (count >= 2) units.allow_std = options[1];
    if (count >= 5) units.backtrace = options[4] != 0;
}

}  // namespace xsim

using xsim::StatementHead;

// Each is called by the program's compiled I/O statements; libgfortran's own internal calls
// do not come here.
extern "C" {

void _gfortran_st_open(StatementHead* p) {
    static const auto statement = xsim::real_gfortran_io<xsim::Statement>("_gfortran_st_open");
    if (p->flags & xsim::kNewunit) return statement(p);
    const int local = xsim::separating_rank();
    if (local >= 0 && xsim::preconnected(p->unit) && (p->flags & xsim::kHasFile)) {
        p->unit = xsim::reopened_stream(local, p->unit);
        return xsim::open_file(statement, p, local);
    }
    p->unit = xsim::unit_for(local, p->unit, true);
    xsim::open_file(statement, p, local);
}

void _gfortran_st_close(StatementHead* p) {
    static const auto statement = xsim::real_gfortran_io<xsim::Statement>("_gfortran_st_close");
    using Flush = void (*)(std::int32_t*);
    static const auto flush = xsim::real_gfortran_io<Flush>("_gfortran_flush_i4");
    const int local = xsim::separating_rank();
    if (local >= 0 && xsim::preconnected(p->unit)) {
        std::int32_t unit = p->unit;
        if (const std::int32_t own = xsim::unit_for(local, unit, false); own != unit) {  // its own file
            p->unit = own;
            statement(p);
            xsim::forget_file(local, own);
            xsim::release_reopened_stream(local, unit);
            return;
        }
        // Another rank's standard stream too: written out, left open for the others.
        flush(&unit);
        if (p->flags & xsim::kHasIostat) *p->iostat = 0;
        return;
    }
    const std::int32_t unit = p->unit;
    xsim::run(statement, p, false);
    xsim::forget_file(local, p->unit);
    xsim::closed(local, unit);
}

// READ and WRITE: a data transfer uses its unit (connecting fort.N when none is open);
// one to a CHARACTER variable (an internal unit) names none.
#define XSIM_TRANSFER_STATEMENT(name)                                                     \
    void _gfortran_##name(StatementHead* p) {                                            \
        static const auto statement = xsim::real_gfortran_io<xsim::Statement>("_gfortran_" #name); \
        if (p->flags & xsim::kInternalUnit) return statement(p);                        \
        xsim::run(statement, p, true);                                                  \
    }
XSIM_TRANSFER_STATEMENT(st_read)
XSIM_TRANSFER_STATEMENT(st_write)
#undef XSIM_TRANSFER_STATEMENT

// The statements that only name a unit: INQUIRE, the positioning ones, FLUSH and WAIT
// (newer gfortran calls st_wait_async). ENDFILE may create the file, so it uses it.
#define XSIM_UNIT_STATEMENT(name, uses)                                                   \
    void _gfortran_##name(StatementHead* p) {                                            \
        static const auto statement = xsim::real_gfortran_io<xsim::Statement>("_gfortran_" #name); \
        xsim::run(statement, p, uses);                                                  \
    }
XSIM_UNIT_STATEMENT(st_inquire, false)
XSIM_UNIT_STATEMENT(st_rewind, false)
XSIM_UNIT_STATEMENT(st_backspace, false)
XSIM_UNIT_STATEMENT(st_endfile, true)
XSIM_UNIT_STATEMENT(st_flush, false)
XSIM_UNIT_STATEMENT(st_wait, false)
XSIM_UNIT_STATEMENT(st_wait_async, false)
#undef XSIM_UNIT_STATEMENT

// CALL FLUSH(unit), the GNU extension; no argument flushes every unit.
void _gfortran_flush_i4(std::int32_t* unit) {
    using Flush = void (*)(std::int32_t*);
    static const auto flush = xsim::real_gfortran_io<Flush>("_gfortran_flush_i4");
    if (!unit) return flush(unit);
    std::int32_t mine = xsim::unit_for(xsim::separating_rank(), *unit, false);
    flush(&mine);
}

void _gfortran_flush_i8(std::int64_t* unit) {
    using Flush = void (*)(std::int64_t*);
    static const auto flush = xsim::real_gfortran_io<Flush>("_gfortran_flush_i8");
    if (!unit || *unit < INT32_MIN || *unit > INT32_MAX) return flush(unit);
    std::int64_t mine = xsim::unit_for(xsim::separating_rank(), static_cast<std::int32_t>(*unit), false);
    flush(&mine);
}

}  // extern "C"

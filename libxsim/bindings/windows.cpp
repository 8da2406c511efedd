// One-sided communication's windows: creation (MPI_Win_create, _allocate, _allocate_shared,
// _create_dynamic), MPI_Win_attach/_detach, MPI_Win_free, and the local queries (group,
// attributes, name, info, error handler). The operations and epochs are in rma.cpp.
// Also MPI_Alloc_mem and MPI_Free_mem, whose blocks one-sided operations use (rma/memory.hpp).
#include <fcntl.h>
#include <mpi.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "libxsim/bindings/attribute_calls.hpp"
#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/bindings/window_checks.hpp"
#include "libxsim/colls/make_comm.hpp"
#include "libxsim/engine/event_observer.hpp"
#include "libxsim/io/agreement.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/rma/memory.hpp"
#include "libxsim/rma/synchronization.hpp"

using namespace xsim;
using rma::Window;

namespace {

int window_intracomm(CallScope& s, MPI_Comm handle, const Comm** out) {
    if (int e = checks::comm(s, handle, out)) return e;
    if (!(*out)->is_inter()) return MPI_SUCCESS;
    return s.fail(*out, MPI_ERR_COMM, std::string(s.call) + " takes an intracommunicator");
}

// Everything but the memory: a window over `comm` whose target is registered before the
// barrier that ends the creation (an operation may follow at once on any rank).
int create_window(CallScope& s, const Comm* c, void* base, MPI_Aint size, int disp_unit, rma::Flavor flavor,
           MPI_Win* win, Window** out) {
    if (int e = checks::pointer(s, c, win, "win")) return e;
    if (size < 0) return s.fail(c, MPI_ERR_SIZE, "negative window size " + std::to_string(size));
    if (disp_unit <= 0) return s.fail(c, MPI_ERR_DISP, "displacement unit " + std::to_string(disp_unit) + " is not positive");
    rma::observe_collective_begin(s.engine, s.rank);
    Comm* dup = nullptr;
    if (int e = dup_comm(s, *c, &dup)) return e;
    auto* w = new Window;
    w->comm = dup;
    w->owner = &s.rank;
    w->flavor = flavor;
    w->target = new rma::Target;
    w->target->world = s.rank.world;
    w->target->base = static_cast<char*>(base);
    w->target->size = size;
    w->target->disp_unit = disp_unit;
    w->target->dynamic = flavor == rma::Flavor::Dynamic;
    rma::register_target(s.engine, dup->context, w->target);
    rma::note_window(s.engine, w);
    *out = w;
    return MPI_SUCCESS;
}

// A window's creation as a trace names it: does it allocate the memory?
EventObserver::RmaCollective created_kind(const Window& w) {
    return w.flavor == rma::Flavor::Allocate || w.flavor == rma::Flavor::Shared
               ? EventObserver::RmaCollective::CreateAllocate
               : EventObserver::RmaCollective::Create;
}

int finish_creation(CallScope& s, const Comm* c, Window* w, MPI_Win* win) {
    std::string why;
    if (int e = rma::window_barrier(s.engine, s.rank, *w, &why)) return s.fail(c, e, why);
    rma::observe_collective_end(s.engine, s.rank, *w, created_kind(*w));
    *win = rma::window_handle(w);
    return MPI_SUCCESS;
}

// The predefined attributes (MPI-4.0 section 12.2.6), else one the program set.
// The shared memory of a window whose members span real processes: POSIX shared memory, or
// where there is none (no /dev/shm), a file in /tmp; each process tries them in that order.
int open_shared_memory(const std::string& name, int flags) {
    const int fd = shm_open(name.c_str(), flags, 0600);
    return fd >= 0 ? fd : open(("/tmp" + name).c_str(), flags | O_CLOEXEC, 0600);
}

// The predefined attributes (MPI-4.0 section 12.2.6) as `reader` sees them: in C,
// MPI_WIN_BASE is the base address and the others point to their value; in Fortran each is
// its value. False for any other keyval.
bool predefined_attribute(const Window* w, int keyval, Language reader, MPI_Aint* value) {
    const bool c = reader == Language::C;
    switch (keyval) {
        case MPI_WIN_BASE: *value = reinterpret_cast<MPI_Aint>(w->target->base); return true;
        case MPI_WIN_SIZE: *value = c ? reinterpret_cast<MPI_Aint>(&w->target->size) : w->target->size; return true;
        case MPI_WIN_DISP_UNIT:
            *value = c ? reinterpret_cast<MPI_Aint>(&w->target->disp_unit) : w->target->disp_unit;
            return true;
        case MPI_WIN_CREATE_FLAVOR:
            *value = c ? reinterpret_cast<MPI_Aint>(&w->flavor) : static_cast<MPI_Aint>(w->flavor);
            return true;
        case MPI_WIN_MODEL: *value = c ? reinterpret_cast<MPI_Aint>(&w->model) : w->model; return true;
        default: return false;
    }
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Win_create)
int PMPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, MPI_Win* win) {
    XSIM_BEGIN_INITIALIZED("MPI_Win_create");
    const Comm* c = nullptr;
    if (int e = window_intracomm(scope, comm, &c)) return e;
    if (!base && size > 0) return scope.fail(c, MPI_ERR_ARG, "null base for a window of " + std::to_string(size) + " bytes");
    Window* w = nullptr;
    if (int e = create_window(scope, c, base, size, disp_unit, rma::Flavor::Create, win, &w)) return e;
    return finish_creation(scope, c, w, win);
}

XSIM_MPI_ALIAS(Win_allocate)
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
    XSIM_BEGIN_INITIALIZED("MPI_Win_allocate");
    const Comm* c = nullptr;
    if (int e = window_intracomm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, baseptr, "baseptr")) return e;
    void* memory = size > 0 ? std::calloc(static_cast<std::size_t>(size), 1) : nullptr;
    if (size > 0 && !memory)
        return scope.fail(c, MPI_ERR_NO_MEM, "cannot allocate a window of " + std::to_string(size) + " bytes");
    Window* w = nullptr;
    if (int e = create_window(scope, c, memory, size, disp_unit, rma::Flavor::Allocate, win, &w)) {
        std::free(memory);
        return e;
    }
    w->owns_memory = true;
    *static_cast<void**>(baseptr) = memory;
    return finish_creation(scope, c, w, win);
}

XSIM_MPI_ALIAS(Win_allocate_shared)
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
    XSIM_BEGIN_INITIALIZED("MPI_Win_allocate_shared");
    const Comm* c = nullptr;
    if (int e = window_intracomm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, baseptr, "baseptr")) return e;
    Window* w = nullptr;
    if (int e = create_window(scope, c, nullptr, size, disp_unit, rma::Flavor::Shared, win, &w)) return e;
    // Every member's size and displacement unit (and the name of the shared memory, from its
    // creator's process id), through a simulated collective: slot i holds rank i's size,
    // slot members + i its unit, the last one the id.
    const auto members = static_cast<std::size_t>(c->size);
    const auto me = static_cast<std::size_t>(w->comm->rank_of(scope.rank));
    std::vector<std::int64_t> agreed(2 * members + 1, 0);
    agreed[me] = size;
    agreed[members + me] = disp_unit;
    if (me == 0) agreed[2 * members] = static_cast<std::int64_t>(syscall(SYS_getpid));  // the real process's
    std::string why;
    if (int e = io::allreduce_max(scope, *w->comm, agreed, &why)) return scope.fail(c, e, why);
    bool spans = false;
    for (int r = 0; r < c->size; ++r) spans = spans || !scope.engine.is_local(c->world_rank(r, scope.rank));
    rma::SharedSegment& seg = rma::shared_segment(scope.engine, *w);
    ++seg.users;
    if (seg.sizes.empty()) {
        seg.sizes.assign(agreed.begin(), agreed.begin() + static_cast<std::ptrdiff_t>(members));
        seg.disp_units.assign(agreed.begin() + static_cast<std::ptrdiff_t>(members), agreed.end() - 1);
    }
    MPI_Aint total = 0;
    for (MPI_Aint n : seg.sizes) total += n;
    const std::string name = "/xsim-" + std::to_string(agreed[2 * members]) + "-" + std::to_string(w->comm->context) +
                             "-" + std::to_string(c->world_rank(0, scope.rank));
    if (spans && me == 0) {  // made before the others open it (the agreement below orders them)
        const int fd = open_shared_memory(name, O_CREAT | O_EXCL | O_RDWR);
        if (fd < 0 || ftruncate(fd, static_cast<off_t>(total) + 1) != 0)
            scope.engine.abort_run(MPI_ERR_NO_MEM, "MPI_Win_allocate_shared: cannot make " + std::to_string(total) +
                                                       " bytes of shared memory (" + name + "): " + std::strerror(errno));
        close(fd);
    }
    // Also when the members share this process, so that virtual times do not depend on -np.
    std::vector<std::int64_t> done(1, 0);
    if (int e = io::allreduce_max(scope, *w->comm, done, &why)) return scope.fail(c, e, why);
    if (!seg.memory) {  // this process's first member here: the block, and the bases of its members
        if (spans) {
            const int fd = open_shared_memory(name, O_RDWR);
            void* p = fd < 0 ? MAP_FAILED
                             : mmap(nullptr, static_cast<std::size_t>(total) + 1, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (fd >= 0) close(fd);
            if (p == MAP_FAILED)
                scope.engine.abort_run(MPI_ERR_NO_MEM, "MPI_Win_allocate_shared: cannot map the shared memory " + name +
                                                           ": " + std::strerror(errno) +
                                                           " (the real processes of one simulated node must run on one host)");
            seg.memory = static_cast<char*>(p);
            seg.mapped_bytes = static_cast<std::size_t>(total) + 1;
        } else {
            seg.memory = static_cast<char*>(std::calloc(static_cast<std::size_t>(total) + 1, 1));
            if (!seg.memory)
                scope.engine.abort_run(MPI_ERR_NO_MEM, "MPI_Win_allocate_shared: cannot allocate " + std::to_string(total) + " bytes");
        }
        char* at = seg.memory;
        for (int r = 0; r < c->size; ++r) {
            if (rma::Target* t = rma::find_target(scope.engine, w->comm->context, c->world_rank(r, scope.rank)))
                t->base = seg.sizes[static_cast<std::size_t>(r)] > 0 ? at : nullptr;  // as MPICH: no memory, no address
            at += seg.sizes[static_cast<std::size_t>(r)];
        }
    }
    // Every process has its mapping and its members' bases before any member goes on (and
    // may reach another's memory); then the name can go.
    if (int e = rma::window_barrier(scope.engine, scope.rank, *w, &why)) return scope.fail(c, e, why);
    if (spans && me == 0 && shm_unlink(name.c_str()) != 0) unlink(("/tmp" + name).c_str());
    rma::observe_collective_end(scope.engine, scope.rank, *w, created_kind(*w));
    *static_cast<void**>(baseptr) = w->target->base;
    *win = rma::window_handle(w);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_create_dynamic)
int PMPI_Win_create_dynamic(MPI_Info, MPI_Comm comm, MPI_Win* win) {
    XSIM_BEGIN_INITIALIZED("MPI_Win_create_dynamic");
    const Comm* c = nullptr;
    if (int e = window_intracomm(scope, comm, &c)) return e;
    Window* w = nullptr;
    if (int e = create_window(scope, c, MPI_BOTTOM, 0, 1, rma::Flavor::Dynamic, win, &w)) return e;
    return finish_creation(scope, c, w, win);
}

XSIM_MPI_ALIAS(Win_attach)
int PMPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
    XSIM_WINDOW_CALL("MPI_Win_attach");
    if (w->flavor != rma::Flavor::Dynamic)
        return window_checks::fail(scope, w, MPI_ERR_RMA_FLAVOR, "MPI_Win_attach needs a window of MPI_Win_create_dynamic");
    if (size < 0) return window_checks::fail(scope, w, MPI_ERR_SIZE, "negative size " + std::to_string(size));
    if (!base && size > 0) return window_checks::fail(scope, w, MPI_ERR_ARG, "null base");
    w->target->attached.emplace_back(static_cast<char*>(base), size);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_detach)
int PMPI_Win_detach(MPI_Win win, const void* base) {
    XSIM_WINDOW_CALL("MPI_Win_detach");
    auto& regions = w->target->attached;
    for (auto it = regions.begin(); it != regions.end(); ++it)
        if (it->first == base) {
            regions.erase(it);
            return MPI_SUCCESS;
        }
    return window_checks::fail(scope, w, MPI_ERR_ARG, "no region attached at this base address");
}

XSIM_MPI_ALIAS(Win_free)
int PMPI_Win_free(MPI_Win* win) {
    XSIM_BEGIN_INITIALIZED("MPI_Win_free");
    if (int e = checks::pointer(scope, nullptr, win, "win")) return e;
    Window* w = nullptr;
    if (int e = window_checks::window(scope, *win, &w)) return e;
    if (!w->locks.empty() || w->locked_all || w->access_epoch_started || w->exposure_epoch_started)
        return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC,
                                   "the window still has an open epoch (a lock, MPI_Win_start or MPI_Win_post)");
    if (int e = delete_all_attributes(w->attributes, reinterpret_cast<MPI_Comm>(*win)))
        return window_checks::fail(scope, w, e, "an attribute delete callback failed with error " + std::to_string(e));
    rma::observe_collective_begin(scope.engine, scope.rank);
    rma::complete_operations(scope.engine, scope.rank, *w, -1);
    // Nobody targets this rank once every member is here.
    std::string why;
    if (int e = rma::window_barrier(scope.engine, scope.rank, *w, &why)) return window_checks::fail(scope, w, e, why);
    rma::observe_collective_end(scope.engine, scope.rank, *w,
                                w->owns_memory || w->flavor == rma::Flavor::Shared
                                    ? EventObserver::RmaCollective::FreeDeallocate
                                    : EventObserver::RmaCollective::Free);
    const std::uint32_t context = w->comm->context;
    rma::unregister_target(scope.engine, context, scope.rank.world);
    rma::forget_window(scope.engine, w);
    if (w->flavor == rma::Flavor::Shared) {
        rma::SharedSegment& seg = rma::shared_segment(scope.engine, *w);
        if (--seg.users == 0) {
            if (seg.mapped_bytes) munmap(seg.memory, seg.mapped_bytes);
            else std::free(seg.memory);
            rma::forget_shared_segment(scope.engine, *w);
        }
    }
    if (w->owns_memory) std::free(w->target->base);
    w->magic = 0;  // a stale handle is no window
    unref(w->comm);
    delete w->target;
    delete w;
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_shared_query)
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
    XSIM_WINDOW_CALL("MPI_Win_shared_query");
    if (w->flavor != rma::Flavor::Shared)
        return window_checks::fail(scope, w, MPI_ERR_RMA_FLAVOR, "the window was not made by MPI_Win_allocate_shared");
    if (int e = window_checks::target(scope, w, rank)) return e;
    if (!size || !disp_unit || !baseptr) return window_checks::fail(scope, w, MPI_ERR_ARG, "null output argument");
    // Any member's part, in this process's mapping (members in other real processes too).
    const rma::SharedSegment& seg = rma::shared_segment(scope.engine, *w);
    int first = rank;
    if (rank == MPI_PROC_NULL) {  // the first member with memory
        first = 0;
        while (first + 1 < w->comm->size && seg.sizes[static_cast<std::size_t>(first)] == 0) ++first;
    }
    char* at = seg.memory;
    for (int r = 0; r < first; ++r) at += seg.sizes[static_cast<std::size_t>(r)];
    *size = seg.sizes[static_cast<std::size_t>(first)];
    *disp_unit = seg.disp_units[static_cast<std::size_t>(first)];
    *static_cast<void**>(baseptr) = *size > 0 ? at : nullptr;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_get_group)
int PMPI_Win_get_group(MPI_Win win, MPI_Group* group) {
    XSIM_WINDOW_CALL("MPI_Win_get_group");
    if (!group) return window_checks::fail(scope, w, MPI_ERR_ARG, "null pointer for group");
    *group = group_handle(ref(w->comm->group));
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_get_attr)
int PMPI_Win_get_attr(MPI_Win win, int keyval, void* value, int* flag) {
    MPI_Aint v = 0;
    const int rc = win_get_attr("MPI_Win_get_attr", win, keyval, Language::C, value ? &v : nullptr, flag);
    if (rc == MPI_SUCCESS && *flag) *static_cast<void**>(value) = reinterpret_cast<void*>(v);
    return rc;
}

// Window attributes: the keyvals are the communicators' (one table; a window's copy callback
// is never called, windows are not duplicated), the callbacks get the window handle.
XSIM_MPI_ALIAS(Win_create_keyval)
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function* copy, MPI_Win_delete_attr_function* remove, int* keyval,
                           void* extra_state) {
    return c_create_keyval("MPI_Win_create_keyval", KeyvalKind::Win,
                           reinterpret_cast<MPI_Comm_copy_attr_function*>(copy),
                           reinterpret_cast<MPI_Comm_delete_attr_function*>(remove), keyval, extra_state);
}

XSIM_MPI_ALIAS(Win_free_keyval)
int PMPI_Win_free_keyval(int* keyval) {
    return c_free_keyval("MPI_Win_free_keyval", KeyvalKind::Win, keyval);
}

XSIM_MPI_ALIAS(Win_set_attr)
int PMPI_Win_set_attr(MPI_Win win, int keyval, void* value) {
    return win_set_attr("MPI_Win_set_attr", win, keyval, Language::C, reinterpret_cast<MPI_Aint>(value));
}

XSIM_MPI_ALIAS(Win_delete_attr)
int PMPI_Win_delete_attr(MPI_Win win, int keyval) {
    XSIM_WINDOW_CALL("MPI_Win_delete_attr");
    if (!find_keyval(keyval, KeyvalKind::Win))
        return window_checks::fail(scope, w, MPI_ERR_KEYVAL, keyval_problem(keyval, KeyvalKind::Win));
    bool found = false;
    if (int e = delete_attribute(w->attributes, reinterpret_cast<MPI_Comm>(win), keyval, &found))
        return window_checks::fail(scope, w, e, "the attribute delete callback failed with error " + std::to_string(e));
    if (!found) return window_checks::fail(scope, w, MPI_ERR_KEYVAL, "no attribute is set for keyval " + std::to_string(keyval));
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_set_name)
int PMPI_Win_set_name(MPI_Win win, const char* name) {
    XSIM_WINDOW_CALL("MPI_Win_set_name");
    if (!name) return window_checks::fail(scope, w, MPI_ERR_ARG, "null name");
    w->name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
    if (EventObserver* observer = scope.engine.observer()) [[unlikely]]
        observer->on_window_named(scope.rank, *w->comm, w->name.c_str());
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_get_name)
int PMPI_Win_get_name(MPI_Win win, char* name, int* resultlen) {
    XSIM_WINDOW_CALL("MPI_Win_get_name");
    if (!name || !resultlen) return window_checks::fail(scope, w, MPI_ERR_ARG, "null name or resultlen");
    std::memcpy(name, w->name.c_str(), w->name.size() + 1);
    *resultlen = static_cast<int>(w->name.size());
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_set_errhandler)
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
    XSIM_WINDOW_CALL("MPI_Win_set_errhandler");
    if (errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_RETURN && !resolve_user_errhandler(errhandler))
        return window_checks::fail(scope, w, MPI_ERR_ARG, "invalid error handler");
    w->errhandler = errhandler;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_get_errhandler)
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
    XSIM_WINDOW_CALL("MPI_Win_get_errhandler");
    if (!errhandler) return window_checks::fail(scope, w, MPI_ERR_ARG, "null errhandler");
    *errhandler = w->errhandler;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_create_errhandler)
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler) {
    XSIM_BEGIN_INITIALIZED("MPI_Win_create_errhandler");
    if (!function || !errhandler) return scope.fail(nullptr, MPI_ERR_ARG, "null function or errhandler");
    *errhandler = create_user_errhandler(reinterpret_cast<MPI_Comm_errhandler_function*>(function));
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_call_errhandler)
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) {
    XSIM_WINDOW_CALL("MPI_Win_call_errhandler");
    window_checks::fail(scope, w, errorcode, "MPI_Win_call_errhandler");
    return MPI_SUCCESS;
}

// The real library's memory. Outside a simulated rank (before the engine) as it is.
XSIM_MPI_ALIAS(Alloc_mem)
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* base) {
    AnytimeCall local("MPI_Alloc_mem");
    const int rc = real_mpi.Alloc_mem(size, info, base);
    if (rc == MPI_SUCCESS && local.rank()) rma::note_allocation(*g_engine, *static_cast<void**>(base), size);
    return local.result(rc);
}

// A block that pending one-sided operations of the calling rank still write is freed when
// they are answered (erroneous; reported once).
XSIM_MPI_ALIAS(Free_mem)
int PMPI_Free_mem(void* base) {
    AnytimeCall local("MPI_Free_mem");
    if (local.rank() && !rma::free_now(*g_engine, *local.rank(), base)) return local.result(MPI_SUCCESS);
    return local.result(real_mpi.Free_mem(base));
}

XSIM_MPI_ALIAS(Win_get_info)
int PMPI_Win_get_info(MPI_Win win, MPI_Info* info) {
    XSIM_WINDOW_CALL("MPI_Win_get_info");
    if (!info) return window_checks::fail(scope, w, MPI_ERR_ARG, "null info");
    return real_mpi.Info_create(info);  // no hints are in use
}

XSIM_MPI_ALIAS(Win_set_info)
int PMPI_Win_set_info(MPI_Win win, MPI_Info) {
    XSIM_WINDOW_CALL("MPI_Win_set_info");
    (void)w;
    return MPI_SUCCESS;  // hints may be ignored
}

}  // extern "C"

namespace xsim {

int win_get_attr(const char* call, MPI_Win win, int keyval, Language reader, MPI_Aint* value, int* flag) {
    XSIM_WINDOW_CALL(call);
    if (!value || !flag) return window_checks::fail(scope, w, MPI_ERR_ARG, "null attribute_val or flag");
    if (predefined_attribute(w, keyval, reader, value)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (!find_keyval(keyval, KeyvalKind::Win))
        return window_checks::fail(scope, w, MPI_ERR_KEYVAL, keyval_problem(keyval, KeyvalKind::Win));
    *flag = get_attribute(w->attributes, keyval, reader, value) ? 1 : 0;
    return MPI_SUCCESS;
}

int win_set_attr(const char* call, MPI_Win win, int keyval, Language set_in, MPI_Aint value) {
    XSIM_WINDOW_CALL(call);
    if (!find_keyval(keyval, KeyvalKind::Win))
        return window_checks::fail(scope, w, MPI_ERR_KEYVAL, keyval_problem(keyval, KeyvalKind::Win));
    if (int e = set_attribute(w->attributes, reinterpret_cast<MPI_Comm>(win), keyval, set_in, value))
        return window_checks::fail(scope, w, e, "the attribute delete callback failed with error " + std::to_string(e));
    return MPI_SUCCESS;
}

}  // namespace xsim

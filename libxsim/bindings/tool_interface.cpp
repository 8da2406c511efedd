// The MPI tool information interface (MPI 3.1 chapter 14, MPI_T_*), per simulated rank.
//
// Each simulated rank is an MPI process with its own MPI_T initialization count: every
// call before its MPI_T_init_thread, or after its matching MPI_T_finalize, gives
// MPI_T_ERR_NOT_INITIALIZED. The first MPI_T_init_thread of the real process initializes
// the real library's MPI_T, which stays initialized until the simulation ends: the ranks of
// a process run one after another, so passing each rank's init and finalize on would
// finalize and initialize it again between ranks, and Open MPI 4.1 reopens every component
// at each initialization (0.2 s here: 200 s for MPICH's mpit_vars at 1,024 ranks).
// - Control variables and enumerations are the real library's (they configure the real
//   library, which carries the traffic between the real processes): passed through, after
//   the checks Open MPI 4.1 lacks (an index out of range is MPI_T_ERR_INVALID_INDEX, an
//   enumeration item out of range MPI_T_ERR_INVALID_ITEM, an unknown or another rank's cvar
//   handle or an enumeration no MPI_T_cvar_get_info returned MPI_T_ERR_INVALID_HANDLE, a
//   null output pointer MPI_T_ERR_INVALID, never a crash). A
//   cvar bound to a communicator, group, error handler, file, window, request or message
//   would be handed one of xsim's own handles, which the real library does not know: such
//   a binding is refused with MPI_T_ERR_INVALID_HANDLE (Open MPI 4.1 has none; datatypes,
//   ops and info objects are the real library's and pass).
// - Performance variables and categories: xsim has none of its own, and the real
//   library's would count the real processes' traffic, not the simulated ranks', so there
//   are none: MPI_T_pvar_get_num and MPI_T_category_get_num give 0, every index is
//   MPI_T_ERR_INVALID_INDEX and every name MPI_T_ERR_INVALID_NAME. Sessions exist (a rank
//   may create and free them, start/stop/reset MPI_T_PVAR_ALL_HANDLES on them, which then
//   covers no handle); any other handle is MPI_T_ERR_INVALID_HANDLE.
// MPI_T calls return their codes and never call an error handler (MPI 3.1 section 14.3.9).
// Outside a simulated rank (static constructors before the simulation, exit handlers
// after it) there is no MPI process to initialize: MPI_T_init_thread gives
// MPI_T_ERR_CANNOT_INIT and the other calls MPI_T_ERR_NOT_INITIALIZED.
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/layer_state.hpp"
#include "libxsim/mpi/real_mpi.hpp"

using namespace xsim;

namespace {

// What a pvar session is: the rank that created it (a session is local to its MPI process).
struct PvarSession {
    int owner;
};

struct ToolInterfaceState : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::ToolInterface;
    ~ToolInterfaceState() override {
        if (real_initialized) real_mpi.T_finalize();  // its cvar handles go with it
    }
    bool real_initialized = false;
    int real_provided = MPI_THREAD_SINGLE;
    std::vector<int> init_count;                                             // per local rank
    std::unordered_map<MPI_T_pvar_session, std::unique_ptr<PvarSession>> sessions;
    std::unordered_map<MPI_T_cvar_handle, int> cvar_handles;                 // -> owner rank
    std::unordered_set<MPI_T_enum> enums;  // the real library's, as MPI_T_cvar_get_info returned them
};

// One MPI_T call: enters the rank like any call (AnytimeCall: also before MPI_Init and
// after MPI_Finalize) and finds the rank's MPI_T state.
class ToolCall {
public:
    explicit ToolCall(const char* name) : call_(name) {}
    Rank* rank() const { return call_.rank(); }
    ToolInterfaceState& state() { return layer_state<ToolInterfaceState>(*g_engine); }
    int& count() {
        ToolInterfaceState& s = state();
        if (s.init_count.empty()) s.init_count.assign(static_cast<std::size_t>(g_engine->local_count()), 0);
        return s.init_count[g_engine->local_index(*rank())];
    }
    bool initialized() { return rank() && count() > 0; }

private:
    AnytimeCall call_;
};

#define XSIM_MPIT_BEGIN(name)                                   \
    ToolCall tool("MPI_" #name);                                \
    if (!tool.initialized()) return MPI_T_ERR_NOT_INITIALIZED

bool bound_to_own_object(int bind) {
    switch (bind) {
        case MPI_T_BIND_NO_OBJECT:
        case MPI_T_BIND_MPI_DATATYPE:  // the real library's datatypes (bindings/local_calls.cpp)
        case MPI_T_BIND_MPI_OP:
        case MPI_T_BIND_MPI_INFO: return false;
        default: return true;  // xsim's own communicators, groups, files, windows, requests, ...
    }
}

int cvar_count(int* num) {
    *num = 0;
    return real_mpi.T_cvar_get_num(num);
}

bool valid_cvar_index(int index) {
    int num = 0;
    return cvar_count(&num) == MPI_SUCCESS && index >= 0 && index < num;
}

bool own_cvar_handle(ToolCall& tool, MPI_T_cvar_handle handle) {
    auto it = tool.state().cvar_handles.find(handle);
    return it != tool.state().cvar_handles.end() && it->second == tool.rank()->world;
}

// An enumeration MPI_T_cvar_get_info handed out (a garbage handle would crash the real library).
bool known_enum(ToolCall& tool, MPI_T_enum e) { return e != MPI_T_ENUM_NULL && tool.state().enums.count(e); }

PvarSession* own_session(ToolCall& tool, MPI_T_pvar_session session) {
    auto it = tool.state().sessions.find(session);
    if (it == tool.state().sessions.end() || it->second->owner != tool.rank()->world) return nullptr;
    return it->second.get();
}

// Start, stop and reset: on a valid session, MPI_T_PVAR_ALL_HANDLES (none) succeeds.
int all_handles_only(ToolCall& tool, MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
    if (!own_session(tool, session)) return MPI_T_ERR_INVALID_SESSION;
    return handle == MPI_T_PVAR_ALL_HANDLES ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

}  // namespace

extern "C" {

// ---- Initialization ----

XSIM_MPI_ALIAS(T_init_thread)
int PMPI_T_init_thread(int required, int* provided) {
    ToolCall tool("MPI_T_init_thread");
    if (!tool.rank()) return MPI_T_ERR_CANNOT_INIT;
    ToolInterfaceState& s = tool.state();
    if (!s.real_initialized) {
        // A rank's calls come from its one thread, as for MPI_Init_thread (at most SERIALIZED).
        if (int rc = real_mpi.T_init_thread(MPI_THREAD_SERIALIZED, &s.real_provided)) return rc;
        s.real_initialized = true;
    }
    ++tool.count();
    if (provided)
        *provided = std::min({required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : required, s.real_provided,
                              static_cast<int>(MPI_THREAD_SERIALIZED)});
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(T_finalize)
int PMPI_T_finalize(void) {
    XSIM_MPIT_BEGIN(T_finalize);
    if (--tool.count() == 0) {  // the rank's sessions and cvar handles end with its MPI_T
        ToolInterfaceState& s = tool.state();
        const int me = tool.rank()->world;
        for (auto it = s.sessions.begin(); it != s.sessions.end();)
            it = it->second->owner == me ? s.sessions.erase(it) : std::next(it);
        for (auto it = s.cvar_handles.begin(); it != s.cvar_handles.end();) {
            if (it->second != me) {
                ++it;
                continue;
            }
            MPI_T_cvar_handle h = it->first;
            real_mpi.T_cvar_handle_free(&h);
            it = s.cvar_handles.erase(it);
        }
    }
    return MPI_SUCCESS;  // the real library's stays initialized (above)
}

// ---- Control variables (the real library's) ----

XSIM_MPI_ALIAS(T_cvar_get_num)
int PMPI_T_cvar_get_num(int* num_cvar) {
    XSIM_MPIT_BEGIN(T_cvar_get_num);
    if (!num_cvar) return MPI_T_ERR_INVALID;
    return real_mpi.T_cvar_get_num(num_cvar);
}

XSIM_MPI_ALIAS(T_cvar_get_info)
int PMPI_T_cvar_get_info(int cvar_index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype,
                         MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* scope) {
    XSIM_MPIT_BEGIN(T_cvar_get_info);
    if (!valid_cvar_index(cvar_index)) return MPI_T_ERR_INVALID_INDEX;
    // A null string with a length asks for the length only (MPI 3.1 section 14.3.3).
    MPI_T_enum e = MPI_T_ENUM_NULL;
    const int rc = real_mpi.T_cvar_get_info(cvar_index, name, name_len, verbosity, datatype, &e, desc, desc_len, bind,
                                            scope);
    if (rc == MPI_SUCCESS && e != MPI_T_ENUM_NULL) tool.state().enums.insert(e);
    if (rc == MPI_SUCCESS && enumtype) *enumtype = e;
    return rc;
}

XSIM_MPI_ALIAS(T_cvar_get_index)
int PMPI_T_cvar_get_index(const char* name, int* cvar_index) {
    XSIM_MPIT_BEGIN(T_cvar_get_index);
    if (!name || !cvar_index) return MPI_T_ERR_INVALID;
    return real_mpi.T_cvar_get_index(name, cvar_index);
}

XSIM_MPI_ALIAS(T_cvar_handle_alloc)
int PMPI_T_cvar_handle_alloc(int cvar_index, void* obj_handle, MPI_T_cvar_handle* handle, int* count) {
    XSIM_MPIT_BEGIN(T_cvar_handle_alloc);
    if (!handle || !count) return MPI_T_ERR_INVALID;
    if (!valid_cvar_index(cvar_index)) return MPI_T_ERR_INVALID_INDEX;
    int bind = MPI_T_BIND_NO_OBJECT, verbosity = 0, scope = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype = MPI_T_ENUM_NULL;
    if (int rc = real_mpi.T_cvar_get_info(cvar_index, nullptr, nullptr, &verbosity, &type, &enumtype, nullptr,
                                          nullptr, &bind, &scope))
        return rc;
    // xsim's own MPI objects mean nothing to the real library.
    if (bound_to_own_object(bind)) return MPI_T_ERR_INVALID_HANDLE;
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    if (int rc = real_mpi.T_cvar_handle_alloc(cvar_index, obj_handle, &h, count)) return rc;
    tool.state().cvar_handles[h] = tool.rank()->world;
    *handle = h;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(T_cvar_handle_free)
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) {
    XSIM_MPIT_BEGIN(T_cvar_handle_free);
    if (!handle) return MPI_T_ERR_INVALID;
    if (!own_cvar_handle(tool, *handle)) return MPI_T_ERR_INVALID_HANDLE;
    tool.state().cvar_handles.erase(*handle);
    return real_mpi.T_cvar_handle_free(handle);  // sets MPI_T_CVAR_HANDLE_NULL
}

XSIM_MPI_ALIAS(T_cvar_read)
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf) {
    XSIM_MPIT_BEGIN(T_cvar_read);
    if (!own_cvar_handle(tool, handle)) return MPI_T_ERR_INVALID_HANDLE;
    if (!buf) return MPI_T_ERR_INVALID;
    return real_mpi.T_cvar_read(handle, buf);
}

XSIM_MPI_ALIAS(T_cvar_write)
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void* buf) {
    XSIM_MPIT_BEGIN(T_cvar_write);
    if (!own_cvar_handle(tool, handle)) return MPI_T_ERR_INVALID_HANDLE;
    if (!buf) return MPI_T_ERR_INVALID;
    return real_mpi.T_cvar_write(handle, buf);
}

// ---- Enumerations (of the real library's cvars) ----

XSIM_MPI_ALIAS(T_enum_get_info)
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int* num, char* name, int* name_len) {
    XSIM_MPIT_BEGIN(T_enum_get_info);
    if (!known_enum(tool, enumtype)) return MPI_T_ERR_INVALID_HANDLE;
    if (!num) return MPI_T_ERR_INVALID;
    return real_mpi.T_enum_get_info(enumtype, num, name, name_len);
}

XSIM_MPI_ALIAS(T_enum_get_item)
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int* value, char* name, int* name_len) {
    XSIM_MPIT_BEGIN(T_enum_get_item);
    if (!known_enum(tool, enumtype)) return MPI_T_ERR_INVALID_HANDLE;
    if (!value) return MPI_T_ERR_INVALID;
    int items = 0, len = 0;
    if (int rc = real_mpi.T_enum_get_info(enumtype, &items, nullptr, &len)) return rc;
    if (index < 0 || index >= items) return MPI_T_ERR_INVALID_ITEM;
    return real_mpi.T_enum_get_item(enumtype, index, value, name, name_len);
}

// ---- Performance variables: none ----

XSIM_MPI_ALIAS(T_pvar_get_num)
int PMPI_T_pvar_get_num(int* num_pvar) {
    XSIM_MPIT_BEGIN(T_pvar_get_num);
    if (!num_pvar) return MPI_T_ERR_INVALID;
    *num_pvar = 0;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(T_pvar_get_info)
int PMPI_T_pvar_get_info(int, char*, int*, int*, int*, MPI_Datatype*, MPI_T_enum*, char*, int*, int*, int*, int*,
                         int*) {
    XSIM_MPIT_BEGIN(T_pvar_get_info);
    return MPI_T_ERR_INVALID_INDEX;
}

XSIM_MPI_ALIAS(T_pvar_get_index)
int PMPI_T_pvar_get_index(const char* name, int, int* pvar_index) {
    XSIM_MPIT_BEGIN(T_pvar_get_index);
    if (!name || !pvar_index) return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_NAME;
}

XSIM_MPI_ALIAS(T_pvar_session_create)
int PMPI_T_pvar_session_create(MPI_T_pvar_session* session) {
    XSIM_MPIT_BEGIN(T_pvar_session_create);
    if (!session) return MPI_T_ERR_INVALID;
    auto s = std::make_unique<PvarSession>(PvarSession{tool.rank()->world});
    // The object's address is the handle; the application never dereferences it.
    MPI_T_pvar_session h = reinterpret_cast<MPI_T_pvar_session>(s.get());
    tool.state().sessions.emplace(h, std::move(s));
    *session = h;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(T_pvar_session_free)
int PMPI_T_pvar_session_free(MPI_T_pvar_session* session) {
    XSIM_MPIT_BEGIN(T_pvar_session_free);
    if (!session) return MPI_T_ERR_INVALID;
    if (!own_session(tool, *session)) return MPI_T_ERR_INVALID_SESSION;
    tool.state().sessions.erase(*session);
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(T_pvar_handle_alloc)
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int, void*, MPI_T_pvar_handle* handle, int* count) {
    XSIM_MPIT_BEGIN(T_pvar_handle_alloc);
    if (!own_session(tool, session)) return MPI_T_ERR_INVALID_SESSION;
    if (!handle || !count) return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_INDEX;
}

XSIM_MPI_ALIAS(T_pvar_handle_free)
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
    XSIM_MPIT_BEGIN(T_pvar_handle_free);
    if (!own_session(tool, session)) return MPI_T_ERR_INVALID_SESSION;
    if (!handle) return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_HANDLE;  // none was ever allocated
}

XSIM_MPI_ALIAS(T_pvar_start)
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
    XSIM_MPIT_BEGIN(T_pvar_start);
    return all_handles_only(tool, session, handle);
}

XSIM_MPI_ALIAS(T_pvar_stop)
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
    XSIM_MPIT_BEGIN(T_pvar_stop);
    return all_handles_only(tool, session, handle);
}

XSIM_MPI_ALIAS(T_pvar_reset)
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
    XSIM_MPIT_BEGIN(T_pvar_reset);
    return all_handles_only(tool, session, handle);
}

// Read, write and readreset take one handle (not MPI_T_PVAR_ALL_HANDLES), and there is none.
XSIM_MPI_ALIAS(T_pvar_read)
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle, void*) {
    XSIM_MPIT_BEGIN(T_pvar_read);
    if (!own_session(tool, session)) return MPI_T_ERR_INVALID_SESSION;
    return MPI_T_ERR_INVALID_HANDLE;
}

XSIM_MPI_ALIAS(T_pvar_write)
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle, const void*) {
    XSIM_MPIT_BEGIN(T_pvar_write);
    if (!own_session(tool, session)) return MPI_T_ERR_INVALID_SESSION;
    return MPI_T_ERR_INVALID_HANDLE;
}

XSIM_MPI_ALIAS(T_pvar_readreset)
int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle, void*) {
    XSIM_MPIT_BEGIN(T_pvar_readreset);
    if (!own_session(tool, session)) return MPI_T_ERR_INVALID_SESSION;
    return MPI_T_ERR_INVALID_HANDLE;
}

// ---- Categories: none ----

XSIM_MPI_ALIAS(T_category_get_num)
int PMPI_T_category_get_num(int* num_cat) {
    XSIM_MPIT_BEGIN(T_category_get_num);
    if (!num_cat) return MPI_T_ERR_INVALID;
    *num_cat = 0;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(T_category_get_info)
int PMPI_T_category_get_info(int, char*, int*, char*, int*, int*, int*, int*) {
    XSIM_MPIT_BEGIN(T_category_get_info);
    return MPI_T_ERR_INVALID_INDEX;
}

XSIM_MPI_ALIAS(T_category_get_index)
int PMPI_T_category_get_index(const char* name, int* category_index) {
    XSIM_MPIT_BEGIN(T_category_get_index);
    if (!name || !category_index) return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_NAME;
}

XSIM_MPI_ALIAS(T_category_get_cvars)
int PMPI_T_category_get_cvars(int, int, int[]) {
    XSIM_MPIT_BEGIN(T_category_get_cvars);
    return MPI_T_ERR_INVALID_INDEX;
}

XSIM_MPI_ALIAS(T_category_get_pvars)
int PMPI_T_category_get_pvars(int, int, int[]) {
    XSIM_MPIT_BEGIN(T_category_get_pvars);
    return MPI_T_ERR_INVALID_INDEX;
}

XSIM_MPI_ALIAS(T_category_get_categories)
int PMPI_T_category_get_categories(int, int, int[]) {
    XSIM_MPIT_BEGIN(T_category_get_categories);
    return MPI_T_ERR_INVALID_INDEX;
}

// The set of categories never changes: the stamp stays 0.
XSIM_MPI_ALIAS(T_category_changed)
int PMPI_T_category_changed(int* stamp) {
    XSIM_MPIT_BEGIN(T_category_changed);
    if (!stamp) return MPI_T_ERR_INVALID;
    *stamp = 0;
    return MPI_SUCCESS;
}

}  // extern "C"

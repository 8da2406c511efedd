// Fortran INTEGER handles of xsim's own objects (communicators, groups, requests, error
// handlers, matched messages), and the C API's MPI_*_f2c / MPI_*_c2f for every kind of handle. One table per
// kind and real process, shared by its simulated ranks: an object keeps one number while
// it lives, numbers of freed objects are reused, lookups are O(1) both ways. Several ranks
// may hold the same object (MPI_COMM_GROUP of one communicator gives every member the same
// shared group), so a number counts the handles given out and goes when the last is freed.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/engine/call_scope.hpp"
#include "libxsim/fortran/convert.hpp"

namespace xsim::fortran {
namespace {

// What an INTEGER that names nothing becomes: an address no xsim object lives at, with
// no valid magic number, so the C binding reports an invalid handle.
alignas(64) const unsigned char g_no_object[64] = {};

template <class Handle>
class HandleTable {
public:
    // predefined[i] is the object Open MPI's mpif.h calls i.
    HandleTable(std::initializer_list<Handle> predefined) : slots_(predefined), uses_(slots_.size(), 0) {
        for (std::size_t i = 0; i < slots_.size(); ++i) numbers_.emplace(slots_[i], static_cast<MPI_Fint>(i));
        predefined_ = static_cast<MPI_Fint>(slots_.size());
    }

    Handle f2c(MPI_Fint f) const {
        if (f >= 0 && static_cast<std::size_t>(f) < slots_.size() && slots_[static_cast<std::size_t>(f)] != free_mark())
            return slots_[static_cast<std::size_t>(f)];
        return reinterpret_cast<Handle>(const_cast<unsigned char*>(g_no_object));
    }

    // The number of `c`, given out once more.
    MPI_Fint c2f(Handle c) {
        if (reinterpret_cast<const void*>(c) == g_no_object) return -1;
        MPI_Fint f;
        if (auto it = numbers_.find(c); it != numbers_.end()) {
            f = it->second;
        } else if (!free_.empty()) {
            f = free_.back();
            free_.pop_back();
            slots_[static_cast<std::size_t>(f)] = c;
            numbers_.emplace(c, f);
        } else {
            f = static_cast<MPI_Fint>(slots_.size());
            slots_.push_back(c);
            uses_.resize(slots_.size(), 0);
            numbers_.emplace(c, f);
        }
        if (f >= predefined_) ++uses_[static_cast<std::size_t>(f)];
        return f;
    }

    MPI_Fint update(MPI_Fint before, Handle now) {
        const Handle was = f2c(before);
        if (was == now) return before;
        if (before >= predefined_ && reinterpret_cast<const void*>(was) != g_no_object &&
            uses_[static_cast<std::size_t>(before)] > 0 && --uses_[static_cast<std::size_t>(before)] == 0) {
            numbers_.erase(was);
            slots_[static_cast<std::size_t>(before)] = free_mark();
            free_.push_back(before);
        }
        return c2f(now);
    }

private:
    static Handle free_mark() { return reinterpret_cast<Handle>(const_cast<unsigned char*>(g_no_object + 1)); }

    std::vector<Handle> slots_;
    std::vector<std::uint32_t> uses_;  // handles given out per number (not for predefined ones)
    std::vector<MPI_Fint> free_;
    std::unordered_map<Handle, MPI_Fint> numbers_;
    MPI_Fint predefined_ = 0;
};

// Constructed on first use: the predefined handles are addresses in the real library.
// The engine owns them (layer_state.hpp), as it owns the objects they number.
struct Tables final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::FortranHandles;
    HandleTable<MPI_Comm> comms{MPI_COMM_WORLD, MPI_COMM_SELF, MPI_COMM_NULL};
    HandleTable<MPI_Group> groups{MPI_GROUP_NULL, MPI_GROUP_EMPTY};
    HandleTable<MPI_Request> requests{MPI_REQUEST_NULL};
    HandleTable<MPI_Errhandler> errhandlers{MPI_ERRHANDLER_NULL, MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN};
    HandleTable<MPI_Message> messages{MPI_MESSAGE_NULL, MPI_MESSAGE_NO_PROC};
    HandleTable<MPI_Win> wins{MPI_WIN_NULL};
    HandleTable<MPI_File> files{MPI_FILE_NULL};
};

Tables& tables() {
    if (!g_engine) {
        std::fprintf(stderr, "xsim: a Fortran handle (MPI_*_f2c / MPI_*_c2f) was converted outside the simulation\n");
        std::exit(1);
    }
    return layer_state<Tables>(*g_engine);
}

}  // namespace

MPI_Comm comm_f2c(MPI_Fint f) { return tables().comms.f2c(f); }
MPI_Fint comm_c2f(MPI_Comm c) {
    // The engine's own WORLD and SELF objects (handed to error handlers) are the predefined ones.
    const bool other = c != MPI_COMM_NULL && c != MPI_COMM_WORLD && c != MPI_COMM_SELF && g_engine;
    if (const Comm* comm = other ? resolve_comm(c) : nullptr) {
        if (comm->kind == CommKind::World) c = MPI_COMM_WORLD;
        if (comm->kind == CommKind::Self) c = MPI_COMM_SELF;
    }
    return tables().comms.c2f(c);
}
MPI_Fint comm_update(MPI_Fint before, MPI_Comm now) { return tables().comms.update(before, now); }
MPI_Group group_f2c(MPI_Fint f) { return tables().groups.f2c(f); }
MPI_Fint group_c2f(MPI_Group c) { return tables().groups.c2f(c); }
MPI_Fint group_update(MPI_Fint before, MPI_Group now) { return tables().groups.update(before, now); }
MPI_Request request_f2c(MPI_Fint f) { return tables().requests.f2c(f); }
MPI_Fint request_c2f(MPI_Request c) { return tables().requests.c2f(c); }
MPI_Fint request_update(MPI_Fint before, MPI_Request now) { return tables().requests.update(before, now); }
MPI_Message message_f2c(MPI_Fint f) { return tables().messages.f2c(f); }
MPI_Fint message_c2f(MPI_Message c) { return tables().messages.c2f(c); }
MPI_Fint message_update(MPI_Fint before, MPI_Message now) { return tables().messages.update(before, now); }
MPI_File file_f2c(MPI_Fint f) { return tables().files.f2c(f); }
MPI_Fint file_c2f(MPI_File c) { return tables().files.c2f(c); }
MPI_Fint file_update(MPI_Fint before, MPI_File now) { return tables().files.update(before, now); }

MPI_Errhandler errhandler_f2c(MPI_Fint f) { return tables().errhandlers.f2c(f); }
MPI_Fint errhandler_c2f(MPI_Errhandler c) { return tables().errhandlers.c2f(c); }
MPI_Fint errhandler_update(MPI_Fint before, MPI_Errhandler now) { return tables().errhandlers.update(before, now); }
MPI_Win win_f2c(MPI_Fint f) { return tables().wins.f2c(f); }
MPI_Fint win_c2f(MPI_Win c) { return tables().wins.c2f(c); }
MPI_Fint win_update(MPI_Fint before, MPI_Win now) { return tables().wins.update(before, now); }

std::vector<MPI_Datatype> types_f2c(const MPI_Fint* handles, MPI_Fint count) {
    std::vector<MPI_Datatype> c(count > 0 ? static_cast<std::size_t>(count) : 0);
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = type_f2c(handles[i]);
    return c;
}

std::vector<MPI_Request> requests_f2c(const MPI_Fint* handles, MPI_Fint count) {
    std::vector<MPI_Request> c(count > 0 ? static_cast<std::size_t>(count) : 0);
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = request_f2c(handles[i]);
    return c;
}

}  // namespace xsim::fortran

// The C API's conversions (C code mixed with Fortran, and libraries written in C).
using namespace xsim::fortran;
extern "C" {
XSIM_MPI_ALIAS(Comm_f2c)
MPI_Comm PMPI_Comm_f2c(MPI_Fint f) { return comm_f2c(f); }
XSIM_MPI_ALIAS(Comm_c2f)
MPI_Fint PMPI_Comm_c2f(MPI_Comm c) { return comm_c2f(c); }
XSIM_MPI_ALIAS(Group_f2c)
MPI_Group PMPI_Group_f2c(MPI_Fint f) { return group_f2c(f); }
XSIM_MPI_ALIAS(Group_c2f)
MPI_Fint PMPI_Group_c2f(MPI_Group c) { return group_c2f(c); }
XSIM_MPI_ALIAS(Request_f2c)
MPI_Request PMPI_Request_f2c(MPI_Fint f) { return request_f2c(f); }
XSIM_MPI_ALIAS(Request_c2f)
MPI_Fint PMPI_Request_c2f(MPI_Request c) { return request_c2f(c); }
XSIM_MPI_ALIAS(Message_f2c)
MPI_Message PMPI_Message_f2c(MPI_Fint f) { return message_f2c(f); }
XSIM_MPI_ALIAS(Message_c2f)
MPI_Fint PMPI_Message_c2f(MPI_Message c) { return message_c2f(c); }
XSIM_MPI_ALIAS(File_f2c)
MPI_File PMPI_File_f2c(MPI_Fint f) { return file_f2c(f); }
XSIM_MPI_ALIAS(File_c2f)
MPI_Fint PMPI_File_c2f(MPI_File c) { return file_c2f(c); }
XSIM_MPI_ALIAS(Errhandler_f2c)
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint f) { return errhandler_f2c(f); }
XSIM_MPI_ALIAS(Errhandler_c2f)
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler c) { return errhandler_c2f(c); }
XSIM_MPI_ALIAS(Win_f2c)
MPI_Win PMPI_Win_f2c(MPI_Fint f) { return win_f2c(f); }
XSIM_MPI_ALIAS(Win_c2f)
MPI_Fint PMPI_Win_c2f(MPI_Win c) { return win_c2f(c); }
XSIM_MPI_ALIAS(Type_f2c)
MPI_Datatype PMPI_Type_f2c(MPI_Fint f) { return type_f2c(f); }
XSIM_MPI_ALIAS(Type_c2f)
MPI_Fint PMPI_Type_c2f(MPI_Datatype c) { return type_c2f(c); }
XSIM_MPI_ALIAS(Op_f2c)
MPI_Op PMPI_Op_f2c(MPI_Fint f) { return op_f2c(f); }
XSIM_MPI_ALIAS(Op_c2f)
MPI_Fint PMPI_Op_c2f(MPI_Op c) { return op_c2f(c); }
XSIM_MPI_ALIAS(Info_f2c)
MPI_Info PMPI_Info_f2c(MPI_Fint f) { return info_f2c(f); }
XSIM_MPI_ALIAS(Info_c2f)
MPI_Fint PMPI_Info_c2f(MPI_Info c) { return info_c2f(c); }
XSIM_MPI_ALIAS(Status_f2c)
int PMPI_Status_f2c(const MPI_Fint* f, MPI_Status* c) {
    if (!f || !c || is_status_ignore(f) || is_statuses_ignore(f)) return MPI_ERR_ARG;
    *c = load_status(f);
    return MPI_SUCCESS;
}
XSIM_MPI_ALIAS(Status_c2f)
int PMPI_Status_c2f(const MPI_Status* c, MPI_Fint* f) {
    if (!c || !f || c == MPI_STATUS_IGNORE || c == MPI_STATUSES_IGNORE) return MPI_ERR_ARG;
    std::memcpy(f, c, sizeof(MPI_Status));
    return MPI_SUCCESS;
}
}

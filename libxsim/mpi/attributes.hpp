// Attribute caching on communicators (MPI_Comm_create_keyval, set/get/delete_attr and
// the MPI-1 MPI_Keyval_create / MPI_Attr_* names) and windows (MPI_Win_create_keyval, ...).
// Keyvals are process-wide objects of one table, each made for one kind of object: a
// window's keyval is no keyval for a communicator and the reverse (MPI-4.0 section 7.7:
// MPI_ERR_KEYVAL). An object's attributes are a short list, absent until the first is set.
#pragma once
#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

namespace xsim {

enum class KeyvalKind : unsigned char { Comm, Win };

struct Keyval {
    KeyvalKind kind = KeyvalKind::Comm;
    MPI_Comm_copy_attr_function* copy = nullptr;
    MPI_Comm_delete_attr_function* remove = nullptr;
    void* extra_state = nullptr;
    bool freed = false;        // MPI_Comm_free_keyval: no new uses, attributes keep it alive
    int attached = 0;          // attributes using it
};

struct Attributes {
    std::vector<std::pair<int, void*>> values;  // (keyval, value)
};

// Keyvals made by MPI_Comm_create_keyval start here, above Open MPI's predefined ones.
constexpr int kFirstUserKeyval = 1 << 20;

int create_keyval(KeyvalKind kind, MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* remove,
                  void* extra);
// Null unless a user keyval of `kind` not freed, or freed but still used by an attribute
// (freeing waits for the last one: its attributes stay readable, copyable and deletable).
Keyval* find_keyval(int keyval, KeyvalKind kind);
// Why find_keyval(keyval, kind) is null, for the MPI_ERR_KEYVAL message ("keyval 5 was
// made by MPI_Win_create_keyval, not MPI_Comm_create_keyval", ...).
std::string keyval_problem(int keyval, KeyvalKind kind);
// MPI_Comm_free_keyval / MPI_Win_free_keyval: false when not a keyval find_keyval finds or
// already freed.
bool free_keyval(int keyval, KeyvalKind kind);

// Each returns MPI_SUCCESS or the error code a user callback returned.
// Sets (replacing and deleting any previous value) the attribute of `handle`.
int set_attribute(Attributes*& slot, MPI_Comm handle, int keyval, void* value);
bool get_attribute(const Attributes* slot, int keyval, void** value);
int delete_attribute(Attributes*& slot, MPI_Comm handle, int keyval, bool* found);
// MPI_Comm_dup: copies what the keyvals' copy callbacks allow from `from` to `to`.
int copy_attributes(const Attributes* from, MPI_Comm old_handle, Attributes*& to);
// MPI_Comm_free: deletes all attributes (callbacks in reverse order of setting).
int delete_all_attributes(Attributes*& slot, MPI_Comm handle);

}  // namespace xsim

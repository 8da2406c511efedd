// Attribute caching on communicators (MPI_Comm_create_keyval, set/get/delete_attr and
// the MPI-1 MPI_Keyval_create / MPI_Attr_* names), windows (MPI_Win_create_keyval, ...) and
// datatypes (MPI_Type_create_keyval, ...). Keyvals are process-wide objects of one table,
// each made for one kind of object: a window's keyval is no keyval for a communicator and
// the reverse (MPI-4.0 section 7.7: MPI_ERR_KEYVAL). An object's attributes are a short
// list, absent until the first is set.
//
// Languages (MPI-4.0 section 19.3.7). Each attribute records the language it was set in,
// and each keyval the language of its callbacks:
// - set in C (a pointer): C reads the pointer, Fortran the address as an integer;
// - set in Fortran (an INTEGER(KIND=MPI_ADDRESS_KIND), or a default INTEGER sign-extended):
//   Fortran reads the value, C a pointer to the stored address-sized integer (valid while
//   the attribute is, so the values live in a list whose nodes never move).
// Callbacks get the view of their own language (a Fortran one the integer, carried in the
// void* of the C signature: fortran/keyvals.cpp's trampolines take it from there), and a
// copy keeps the language of the attribute it copies.
#pragma once
#include <mpi.h>

#include <list>
#include <string>

namespace xsim {

enum class KeyvalKind : unsigned char { Comm, Win, Type };
enum class Language : unsigned char { C, Fortran };

struct Keyval {
    KeyvalKind kind = KeyvalKind::Comm;
    MPI_Comm_copy_attr_function* copy = nullptr;
    MPI_Comm_delete_attr_function* remove = nullptr;
    void* extra_state = nullptr;
    bool freed = false;        // MPI_Comm_free_keyval: no new uses, attributes keep it alive
    int attached = 0;          // attributes using it
    Language language = Language::C;  // of the callbacks
};

struct Attribute {
    int keyval = 0;
    Language set_in = Language::C;
    MPI_Aint value = 0;  // set in C: the pointer; in Fortran: the integer
};

struct Attributes {
    std::list<Attribute> values;
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
// The Fortran MPI_*_CREATE_KEYVAL calls: the callbacks of `keyval` take Fortran values.
void set_keyval_language(int keyval, Language language);

// What `reader` sees of an attribute: C the pointer (set in C) or a pointer to the stored
// integer (set in Fortran); Fortran the integer (set in Fortran) or the pointer's address.
MPI_Aint attribute_view(const Attribute& a, Language reader);

// Each returns MPI_SUCCESS or the error code a user callback returned. `handle` is the
// object's handle as the callbacks get it (a window's or datatype's, cast).
// Sets (replacing and deleting any previous value) the attribute of `handle`.
int set_attribute(Attributes*& slot, MPI_Comm handle, int keyval, Language set_in, MPI_Aint value);
// The value as `reader` sees it (attribute_view).
bool get_attribute(const Attributes* slot, int keyval, Language reader, MPI_Aint* value);
int delete_attribute(Attributes*& slot, MPI_Comm handle, int keyval, bool* found);
// MPI_Comm_dup, MPI_Type_dup: copies what the keyvals' copy callbacks allow from `from` to
// `to`. On failure `why` says which callback failed and how.
int copy_attributes(const Attributes* from, MPI_Comm old_handle, Attributes*& to, std::string* why);
// MPI_Comm_free, MPI_Win_free, MPI_Type_free: deletes all attributes (callbacks in reverse
// order of setting).
int delete_all_attributes(Attributes*& slot, MPI_Comm handle);

}  // namespace xsim

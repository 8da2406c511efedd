#include "libxsim/mpi/attributes.hpp"

#include <deque>

#include "libxsim/mpi/process_objects.hpp"

namespace xsim {
namespace {

// The current process's keyvals (process_objects.hpp).
std::deque<Keyval>& keyvals() { return process_objects().keyvals; }

void detach(int keyval) {
    Keyval* k = &keyvals()[static_cast<std::size_t>(keyval - kFirstUserKeyval)];
    --k->attached;
}

Keyval& keyval_of(int keyval) { return keyvals()[static_cast<std::size_t>(keyval - kFirstUserKeyval)]; }

void* as_pointer(MPI_Aint v) { return reinterpret_cast<void*>(v); }

// The delete callback, given the attribute as its language sees it.
int call_delete(MPI_Comm handle, const Attribute& a) {
    Keyval& k = keyval_of(a.keyval);
    if (!k.remove) return MPI_SUCCESS;
    return k.remove(handle, a.keyval, as_pointer(attribute_view(a, k.language)), k.extra_state);
}

}  // namespace

int create_keyval(KeyvalKind kind, MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* remove,
                  void* extra) {
    keyvals().push_back(Keyval{kind, copy, remove, extra, false, 0, Language::C});
    return kFirstUserKeyval + static_cast<int>(keyvals().size()) - 1;
}

namespace {

// The keyval numbered `keyval` whatever its kind and state, or null.
Keyval* any_keyval(int keyval) {
    const long index = static_cast<long>(keyval) - kFirstUserKeyval;
    if (index < 0 || index >= static_cast<long>(keyvals().size())) return nullptr;
    return &keyvals()[static_cast<std::size_t>(index)];
}

const char* creator(KeyvalKind kind) {
    switch (kind) {
    case KeyvalKind::Win: return "MPI_Win_create_keyval";
    case KeyvalKind::Type: return "MPI_Type_create_keyval";
    case KeyvalKind::Comm: break;
    }
    return "MPI_Comm_create_keyval";
}

}  // namespace

Keyval* find_keyval(int keyval, KeyvalKind kind) {
    Keyval* k = any_keyval(keyval);
    if (!k || k->kind != kind) return nullptr;
    // A freed keyval lives on while attributes use it (MPI-4.0 section 7.7.2).
    return k->freed && k->attached == 0 ? nullptr : k;
}

std::string keyval_problem(int keyval, KeyvalKind kind) {
    const std::string name = "keyval " + std::to_string(keyval);
    const Keyval* k = any_keyval(keyval);
    if (!k)
        return "invalid " + name + " (not made by " + creator(kind) +
               (kind == KeyvalKind::Comm ? "; predefined attributes cannot be set or deleted)" : ")");
    if (k->kind != kind) return "invalid " + name + ": it was made by " + creator(k->kind) + ", not " + creator(kind);
    return "invalid " + name + ": it was freed";
}

bool free_keyval(int keyval, KeyvalKind kind) {
    Keyval* k = find_keyval(keyval, kind);
    if (!k || k->freed) return false;
    k->freed = true;
    return true;
}

void set_keyval_language(int keyval, Language language) {
    if (Keyval* k = any_keyval(keyval)) k->language = language;
}

MPI_Aint attribute_view(const Attribute& a, Language reader) {
    if (a.set_in == Language::Fortran && reader == Language::C) return reinterpret_cast<MPI_Aint>(&a.value);
    return a.value;  // the same language, or C's pointer as Fortran's address
}

int set_attribute(Attributes*& slot, MPI_Comm handle, int keyval, Language set_in, MPI_Aint value) {
    if (!slot) slot = new Attributes;
    for (Attribute& old : slot->values) {
        if (old.keyval != keyval) continue;
        if (int e = call_delete(handle, old)) return e;
        old.set_in = set_in;
        old.value = value;
        return MPI_SUCCESS;
    }
    slot->values.push_back(Attribute{keyval, set_in, value});
    ++keyval_of(keyval).attached;
    return MPI_SUCCESS;
}

bool get_attribute(const Attributes* slot, int keyval, Language reader, MPI_Aint* value) {
    if (!slot) return false;
    for (const Attribute& a : slot->values)
        if (a.keyval == keyval) {
            *value = attribute_view(a, reader);
            return true;
        }
    return false;
}

int delete_attribute(Attributes*& slot, MPI_Comm handle, int keyval, bool* found) {
    *found = false;
    if (!slot) return MPI_SUCCESS;
    for (auto it = slot->values.begin(); it != slot->values.end(); ++it) {
        if (it->keyval != keyval) continue;
        *found = true;
        if (int e = call_delete(handle, *it)) return e;
        slot->values.erase(it);
        detach(keyval);
        return MPI_SUCCESS;
    }
    return MPI_SUCCESS;
}

int copy_attributes(const Attributes* from, MPI_Comm old_handle, Attributes*& to, std::string* why) {
    if (!from) return MPI_SUCCESS;
    for (const Attribute& a : from->values) {
        Keyval& k = keyval_of(a.keyval);
        if (!k.copy) continue;
        void* copied = nullptr;
        int flag = 0;
        if (int e = k.copy(old_handle, a.keyval, k.extra_state, as_pointer(attribute_view(a, k.language)), &copied,
                           &flag)) {
            *why = "the copy callback of keyval " + std::to_string(a.keyval) + " failed with error " + std::to_string(e);
            return e;
        }
        if (!flag) continue;
        // The copy keeps the attribute's language. A C callback sees a Fortran attribute as
        // a pointer to its integer (MPI_COMM_DUP_FN hands that pointer back) and must return
        // a pointer to the new one's; a Fortran callback returns the integer either way.
        MPI_Aint value = reinterpret_cast<MPI_Aint>(copied);
        if (a.set_in == Language::Fortran && k.language == Language::C) {
            if (!copied) {
                *why = "the copy callback of keyval " + std::to_string(a.keyval) +
                       " returned a null attribute_val_out for an attribute set from Fortran (C sees such an "
                       "attribute as a pointer to an MPI_Aint and must return one)";
                return MPI_ERR_ARG;
            }
            value = *static_cast<const MPI_Aint*>(copied);
        }
        if (!to) to = new Attributes;
        to->values.push_back(Attribute{a.keyval, a.set_in, value});
        ++k.attached;
    }
    return MPI_SUCCESS;
}

int delete_all_attributes(Attributes*& slot, MPI_Comm handle) {
    if (!slot) return MPI_SUCCESS;
    while (!slot->values.empty()) {
        const Attribute a = slot->values.back();
        if (int e = call_delete(handle, slot->values.back())) return e;
        slot->values.pop_back();
        detach(a.keyval);
    }
    delete slot;
    slot = nullptr;
    return MPI_SUCCESS;
}

}  // namespace xsim

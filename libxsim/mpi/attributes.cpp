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

int call_delete(MPI_Comm handle, int keyval, void* value) {
    Keyval* k = &keyvals()[static_cast<std::size_t>(keyval - kFirstUserKeyval)];
    if (!k->remove) return MPI_SUCCESS;
    return k->remove(handle, keyval, value, k->extra_state);
}

}  // namespace

int create_keyval(KeyvalKind kind, MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* remove,
                  void* extra) {
    keyvals().push_back(Keyval{kind, copy, remove, extra, false, 0});
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
    return kind == KeyvalKind::Win ? "MPI_Win_create_keyval" : "MPI_Comm_create_keyval";
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

int set_attribute(Attributes*& slot, MPI_Comm handle, int keyval, void* value) {
    if (!slot) slot = new Attributes;
    for (auto& [key, old] : slot->values) {
        if (key != keyval) continue;
        if (int e = call_delete(handle, keyval, old)) return e;
        old = value;
        return MPI_SUCCESS;
    }
    slot->values.emplace_back(keyval, value);
    ++keyvals()[static_cast<std::size_t>(keyval - kFirstUserKeyval)].attached;
    return MPI_SUCCESS;
}

bool get_attribute(const Attributes* slot, int keyval, void** value) {
    if (!slot) return false;
    for (const auto& [key, v] : slot->values)
        if (key == keyval) {
            *value = v;
            return true;
        }
    return false;
}

int delete_attribute(Attributes*& slot, MPI_Comm handle, int keyval, bool* found) {
    *found = false;
    if (!slot) return MPI_SUCCESS;
    for (auto it = slot->values.begin(); it != slot->values.end(); ++it) {
        if (it->first != keyval) continue;
        *found = true;
        if (int e = call_delete(handle, keyval, it->second)) return e;
        slot->values.erase(it);
        detach(keyval);
        return MPI_SUCCESS;
    }
    return MPI_SUCCESS;
}

int copy_attributes(const Attributes* from, MPI_Comm old_handle, Attributes*& to) {
    if (!from) return MPI_SUCCESS;
    for (const auto& [key, value] : from->values) {
        Keyval& k = keyvals()[static_cast<std::size_t>(key - kFirstUserKeyval)];
        if (!k.copy) continue;
        void* copied = nullptr;
        int flag = 0;
        if (int e = k.copy(old_handle, key, k.extra_state, value, &copied, &flag)) return e;
        if (!flag) continue;
        if (!to) to = new Attributes;
        to->values.emplace_back(key, copied);
        ++k.attached;
    }
    return MPI_SUCCESS;
}

int delete_all_attributes(Attributes*& slot, MPI_Comm handle) {
    if (!slot) return MPI_SUCCESS;
    while (!slot->values.empty()) {
        const auto [key, value] = slot->values.back();
        if (int e = call_delete(handle, key, value)) return e;
        slot->values.pop_back();
        detach(key);
    }
    delete slot;
    slot = nullptr;
    return MPI_SUCCESS;
}

}  // namespace xsim

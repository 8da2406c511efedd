#include "libxsim/rma/window.hpp"

#include <algorithm>
#include <memory>

#include "libxsim/mpi/group.hpp"
#include "libxsim/rma/registry.hpp"

namespace xsim::rma {
namespace {

std::uint64_t window_key(std::uint32_t context, int world) {
    return static_cast<std::uint64_t>(context) << 32 | static_cast<std::uint32_t>(world);
}

}  // namespace

// As communicators and requests are recognized (call_scope.cpp): aligned, and marked.
Window* resolve_window(MPI_Win handle) {
    if (handle == MPI_WIN_NULL || reinterpret_cast<std::uintptr_t>(handle) % alignof(Window) != 0) return nullptr;
    auto* w = reinterpret_cast<Window*>(handle);
    return w->magic == Window::kMagic ? w : nullptr;
}

Target* find_target(Engine& engine, std::uint32_t context, int world) {
    auto& targets = layer_state<WindowRegistry>(engine).targets;
    const auto it = targets.find(window_key(context, world));
    return it == targets.end() ? nullptr : it->second;
}

void register_target(Engine& engine, std::uint32_t context, Target* target) {
    layer_state<WindowRegistry>(engine).targets[window_key(context, target->world)] = target;
}

void unregister_target(Engine& engine, std::uint32_t context, int world) {
    layer_state<WindowRegistry>(engine).targets.erase(window_key(context, world));
}

void note_window(Engine& engine, Window* w) { registry(engine).windows_of[w->owner->world].push_back(w); }

void forget_window(Engine& engine, Window* w) {
    auto& all = registry(engine).windows_of;
    const auto it = all.find(w->owner->world);
    if (it == all.end()) return;
    it->second.erase(std::remove(it->second.begin(), it->second.end(), w), it->second.end());
    if (it->second.empty()) all.erase(it);
}

SharedSegment& shared_segment(Engine& engine, const Window& w) {
    return layer_state<WindowRegistry>(engine).shared[window_key(w.comm->context, w.comm->group->world_of(0))];
}

void forget_shared_segment(Engine& engine, const Window& w) {
    layer_state<WindowRegistry>(engine).shared.erase(window_key(w.comm->context, w.comm->group->world_of(0)));
}

bool in_access_epoch(const Window& w, int target) {
    if (w.fence_epoch || w.locked_all || w.locks.count(target)) return true;
    if (w.access_epoch_started) {
        const int world = w.comm->group->world_of(target);
        for (int t : w.access_group)
            if (t == world) return true;
    }
    return false;
}

}  // namespace xsim::rma

#include "libxsim/runtime/rank_pin.hpp"

#include "libxsim/engine/engine.hpp"
#include "libxsim/rank_state/privatization.hpp"

namespace xsim::runtime {
namespace {

// Process-wide, as the loaded image is; only the simulation thread changes it.
PinReasonGuard g_guards[kPinReasons] = {};

void guard_every_reason(void* context, std::size_t loaded, std::size_t /*wanted*/) {
    Engine& engine = *static_cast<Engine*>(context);
    for (PinReasonGuard guard : g_guards)
        if (guard) guard(engine, loaded);
}

void update_pin(Engine& engine) {
    for (PinReasonGuard guard : g_guards)
        if (guard) return engine.privatization().set_pin(&guard_every_reason, &engine);
    engine.privatization().set_pin(nullptr, nullptr);
}

}  // namespace

void hold_pin(Engine& engine, PinReason reason, PinReasonGuard guard) {
    g_guards[static_cast<int>(reason)] = guard;
    update_pin(engine);
}

void release_pin(Engine& engine, PinReason reason) {
    g_guards[static_cast<int>(reason)] = nullptr;
    update_pin(engine);
}

bool pin_held(PinReason reason) { return g_guards[static_cast<int>(reason)] != nullptr; }

}  // namespace xsim::runtime

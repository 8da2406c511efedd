// Why the loaded rank's globals must stay loaded while other threads run: its OpenMP team
// (openmp_interposition.cpp), threads it started itself (thread_interposition.cpp). Both
// share Privatization's one pin: each reason holds it with a guard of its own, and the pin
// is released when no reason holds it.
#pragma once
#include <cstddef>

namespace xsim {
class Engine;
}

namespace xsim::runtime {

enum class PinReason { OpenMpRegion, RankThreads };
constexpr int kPinReasons = 2;

// Runs before another rank's globals are loaded, while its reason holds the pin; it ends the
// run, or releases its reason (release_pin) and lets the exchange go on. `loaded` is the
// local index of the rank whose globals are loaded.
using PinReasonGuard = void (*)(Engine& engine, std::size_t loaded);

void hold_pin(Engine& engine, PinReason reason, PinReasonGuard guard);
void release_pin(Engine& engine, PinReason reason);
bool pin_held(PinReason reason);

}  // namespace xsim::runtime

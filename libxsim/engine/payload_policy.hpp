// -xsim-payload: which messages carry their data. A message of at most the threshold moves
// its bytes; a larger one moves as an envelope only (its receive buffer is not written).
// Either way it takes exactly the same virtual time: the policy never touches timing.
//   on         every message carries its data (the default)
//   off        none does: application-model mode, buffers may be null
//   auto       the threshold kAutoPayloadThreshold
//   <bytes>    that threshold, e.g. 4k, 65536
// Point-to-point messages decide one by one; a collective call decides for all its ranks
// at once (colls/call_payload.hpp).
#pragma once
#include <cstdint>
#include <limits>

namespace xsim {

enum class PayloadMode : std::uint8_t { On, Off, Auto, Threshold };

// What `auto` keeps: 4 KiB. Parameter broadcasts (a struct of sizes and flags, a few
// dozen to a few hundred bytes), counts exchanged before a v-collective (one int per rank
// and block) and reductions of up to 512 doubles fit; halo faces of real codes (a 32 x 32
// face of doubles is 8 KiB) and bulk all-to-all blocks do not. It is also the eager limit
// on-node in the default machine and in Open MPI's shared-memory transport, where MPI
// libraries draw the line between control-sized and bulk messages, and it bounds the
// copies in flight: 4 GiB for one carried message per rank at 2^20 ranks (64 KiB: 64 GiB).
constexpr std::uint64_t kAutoPayloadThreshold = 4096;

struct PayloadPolicy {
    PayloadMode mode = PayloadMode::On;
    // Messages with fewer bytes than this carry their data: one comparison per message.
    // on: the largest value (no message is that long); off: 0; a threshold T: T + 1.
    std::uint64_t carry_below = std::numeric_limits<std::uint64_t>::max();

    static PayloadPolicy on() { return {}; }
    static PayloadPolicy off() { return {PayloadMode::Off, 0}; }
    static PayloadPolicy threshold(std::uint64_t bytes, PayloadMode mode = PayloadMode::Threshold) {
        const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
        return {mode, bytes >= top - 1 ? top : bytes + 1};
    }

    bool carries(std::uint64_t bytes) const { return bytes < carry_below; }
    bool any() const { return carry_below != 0; }  // some data may move
    bool has_threshold() const { return mode == PayloadMode::Auto || mode == PayloadMode::Threshold; }
    std::uint64_t threshold_bytes() const { return carry_below - 1; }  // with has_threshold()
    const char* name() const {
        switch (mode) {
            case PayloadMode::On: return "on";
            case PayloadMode::Off: return "off";
            case PayloadMode::Auto: return "auto";
            case PayloadMode::Threshold: break;
        }
        return "threshold";
    }
};

}  // namespace xsim

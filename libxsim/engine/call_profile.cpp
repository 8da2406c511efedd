#include "libxsim/engine/call_profile.hpp"

namespace xsim {

std::size_t CallProfile::id_of(const char* call) {
    if (!call) call = "(unknown)";
    Slot& slot = cache_[(reinterpret_cast<std::uintptr_t>(call) >> 3) % 256];
    if (slot.call == call) return slot.id;
    // A miss: the same name may sit at another address (another translation unit's literal).
    std::size_t id = 0;
    while (id < names_.size() && names_[id] != call) ++id;
    if (id == names_.size()) {
        names_.emplace_back(call);
        rows_.emplace_back(new CallCounters[static_cast<std::size_t>(ranks_)]());
    }
    slot = Slot{call, static_cast<std::uint32_t>(id)};
    return id;
}

}  // namespace xsim

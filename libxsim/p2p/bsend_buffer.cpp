#include "libxsim/p2p/bsend_buffer.hpp"

#include <memory>
#include <unordered_map>
#include <vector>

#include "libxsim/p2p/completion.hpp"

namespace xsim::bsend {
namespace {

struct Pending {
    // The packed message: a rendezvous send reads it when the receiver is ready, after
    // MPI_Bsend returned and the user may have reused the source buffer.
    std::unique_ptr<char[]> data;
    std::uint64_t charged = 0;   // bytes + MPI_BSEND_OVERHEAD
    Request* send = nullptr;
};

struct Attached {
    void* base = nullptr;
    std::uint64_t size = 0;
    std::uint64_t used = 0;
    std::vector<Pending> pending;
};

// MPI_Buffer_attach is per MPI process, i.e. per simulated rank: keyed by world rank, so
// the few ranks that attach a buffer pay for it, the others nothing. The engine owns the
// table (layer_state.hpp); only the simulation thread touches it.
struct AttachedBuffers final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::BufferedSends;
    std::unordered_map<int, Attached> by_rank;
};

std::unordered_map<int, Attached>& attached_buffers(Engine& engine) {
    return layer_state<AttachedBuffers>(engine).by_rank;
}

// Gives back the room of every buffered message whose send is complete at the rank's clock.
// Returns true if some send is still undecided (its completion may lie in the past).
bool reclaim(Engine& engine, const Rank& rank, Attached& a) {
    bool undecided = false;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < a.pending.size(); ++i) {
        Pending& p = a.pending[i];
        if (p.send && completion::complete(rank, p.send)) {
            a.used -= p.charged;
            engine.free_request(p.send);
            continue;
        }
        if (p.send && !p.send->known) undecided = true;
        if (kept != i) a.pending[kept] = std::move(p);
        ++kept;
    }
    a.pending.resize(kept);
    return undecided;
}

}  // namespace

int attach(Engine& engine, Rank& rank, void* base, std::uint64_t size) {
    auto [it, inserted] = attached_buffers(engine).try_emplace(rank.world);
    if (!inserted) return MPI_ERR_BUFFER;
    it->second.base = base;
    it->second.size = size;
    return MPI_SUCCESS;
}

bool detach(Engine& engine, Rank& rank, void** base, std::uint64_t* size) {
    auto& buffers = attached_buffers(engine);
    auto it = buffers.find(rank.world);
    *base = nullptr;
    *size = 0;
    if (it == buffers.end()) return false;
    std::vector<Request*> sends;
    for (const Pending& p : it->second.pending) sends.push_back(p.send);
    completion::wait_all(engine, rank, sends.data(), static_cast<int>(sends.size()));
    it = buffers.find(rank.world);  // other ranks may have attached meanwhile
    for (Request* s : sends) engine.free_request(s);
    *base = it->second.base;
    *size = it->second.size;
    buffers.erase(it);
    return true;
}

int reserve(Engine& engine, Rank& rank, std::uint64_t bytes, char** storage, std::string* why) {
    auto& buffers = attached_buffers(engine);
    auto it = buffers.find(rank.world);
    if (it == buffers.end()) {
        *why = "no buffer is attached (MPI_Buffer_attach)";
        return MPI_ERR_BUFFER;
    }
    const std::uint64_t need = bytes + MPI_BSEND_OVERHEAD;
    if (reclaim(engine, rank, it->second) && it->second.used + need > it->second.size) {
        // Sends that completed before our clock may not be decided yet: process every
        // event up to now, so the answer does not depend on host scheduling.
        engine.catch_up(rank);
        it = buffers.find(rank.world);
        reclaim(engine, rank, it->second);
    }
    Attached& a = it->second;
    if (a.used + need > a.size) {
        *why = "the attached buffer has " + std::to_string(a.size - a.used) + " of " + std::to_string(a.size) +
               " bytes free; this message needs " + std::to_string(need) + " (" + std::to_string(bytes) +
               " + MPI_BSEND_OVERHEAD)";
        return MPI_ERR_BUFFER;
    }
    Pending p;
    p.charged = need;
    if (engine.options().payload.carries(bytes) && bytes > 0) p.data.reset(new char[bytes]);
    *storage = p.data.get();
    a.used += need;
    a.pending.push_back(std::move(p));
    return MPI_SUCCESS;
}

void track(Engine& engine, Rank& rank, Request* send) {
    attached_buffers(engine).at(rank.world).pending.back().send = send;
}

}  // namespace xsim::bsend

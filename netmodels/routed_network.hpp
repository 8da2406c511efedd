// Base of the network models: path() comes from the model; arrival() is the closed form,
// or, with network.contention = true, first-come-first-served link reservation over the
// links the model's route() names.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "netmodels/machine.hpp"

namespace xsim::net {

// Per link: the time until which it carries an earlier transfer. A transfer that needs a
// busy link waits for it (links are served in call order), so transfers that overlap in
// time share each link's bandwidth by taking turns. Entries that ended before every start
// seen since the last sweep are dropped when the table grows past a bound.
class LinkReservations {
public:
    // Reserves `links` for `duration` from the earliest time >= ready at which all are
    // free; returns that start time.
    SimTime reserve(const std::vector<std::uint64_t>& links, SimTime ready, SimTime duration);
    std::size_t size() const { return free_at_.size(); }

private:
    void sweep();
    std::unordered_map<std::uint64_t, SimTime> free_at_;
    SimTime min_ready_since_sweep_ = kNever;
    std::size_t sweep_threshold_ = 1u << 16;
};

class RoutedNetwork : public NetworkModel {
public:
    explicit RoutedNetwork(bool contention) : contention_(contention) { closed_form_arrival_ = !contention; }
    using NetworkModel::arrival;
    SimTime arrival(int src, int dst, const Transfer& t, SimTime start) override;
    bool contention() const { return contention_; }
    bool arrival_depends_on_call_order() const override { return contention_; }
    // Link ids a src -> dst message occupies (cleared first). Only used with contention.
    virtual void route(int src, int dst, std::vector<std::uint64_t>& links) const = 0;

private:
    bool contention_;
    LinkReservations reservations_;
    std::vector<std::uint64_t> scratch_;
};

}  // namespace xsim::net

// load_machine(): configuration -> mapping -> network model (by name) -> processor model.
#include <exception>
#include <memory>

#include "netmodels/config.hpp"
#include "netmodels/network_registry.hpp"
#include "netmodels/processor_model.hpp"
#include "netmodels/rank_mapping.hpp"

namespace xsim::net {
namespace {

class ConfiguredMachine final : public Machine {
public:
    explicit ConfiguredMachine(std::shared_ptr<const RankMapping> mapping) : mapping_(std::move(mapping)) {}
    int node_of(int rank) const override { return mapping_->node_of(rank); }
    int local_rank_of(int rank) const override { return mapping_->place(rank).local; }
    int ranks_on_node_of(int rank) const override { return mapping_->ranks_on_node(mapping_->node_of(rank)); }

private:
    std::shared_ptr<const RankMapping> mapping_;
};

std::unique_ptr<Machine> build_machine(const MachineSpec& spec, int world_size) {
    MachineConfig cfg = load_machine_config(spec);
    auto mapping = std::make_shared<const RankMapping>(cfg.mapping, cfg.origins, world_size);
    auto machine = std::make_unique<ConfiguredMachine>(mapping);
    machine->world_size = world_size;
    machine->network = find_network_model(cfg.network.model)->make(cfg.network, mapping, cfg.origins);
    machine->processor = make_processor_model(cfg.processor, mapping);
    machine->poll_cost = seconds_to_simtime(cfg.processor.poll_cost);
    machine->clock_read_cost = seconds_to_simtime(cfg.processor.clock_read_cost);
    machine->storage = StorageModel(seconds_to_simtime(cfg.storage.latency), cfg.storage.bandwidth);
    machine->effective_config_json = std::move(cfg.effective_json);
    return machine;
}

}  // namespace

std::unique_ptr<Machine> load_machine(const MachineSpec& spec, int world_size) {
    try {
        return build_machine(spec, world_size);
    } catch (const ConfigError&) {
        throw;
    } catch (const std::exception& e) {
        // A check missing above (the fuzz test looks for these): still one line, never an
        // uncaught exception in every process.
        throw ConfigError((spec.config_file.empty() ? std::string("built-in default machine") : spec.config_file) +
                          ": cannot load the machine configuration: " + e.what());
    }
}

}  // namespace xsim::net

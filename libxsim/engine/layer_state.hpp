// State that a layer above the engine keeps per real process (the protocol's buffered-send
// buffers, the collectives' forced algorithm choices, the Fortran handle numbers and I/O units, the named regions). The engine owns it, so two engines
// never share it and it ends with the engine, but does not know its type: each such layer
// derives its state from LayerState, names its slot here, and reaches it through
// layer_state<State>(engine) (engine.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

namespace xsim {

struct LayerState {
    virtual ~LayerState() = default;
};

enum class LayerSlot : std::uint8_t {
    BufferedSends,            // p2p/bsend_buffer.cpp
    ForcedCollectiveChoices,  // colls/registry.cpp
    CollectiveMeetings,       // colls/direct_exchange.cpp
    FortranHandles,           // fortran/handles.cpp
    Regions,                  // report/regions.cpp
    SpanningMeetings,         // colls/spanning_exchange.cpp
    FortranUnits,             // fortran/io_units.cpp
    Windows,                  // rma/window.cpp
    FileErrhandlers,          // io/file_errors.cpp
    SharedFilePointers,       // io/shared_pointer.cpp
    OpenMpTeams,              // runtime/openmp_interposition.cpp
    ToolInterface,            // bindings/tool_interface.cpp
};
constexpr std::size_t kLayerSlots = 12;

}  // namespace xsim

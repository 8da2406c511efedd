// The untyped lists of registered algorithms, one per selectable collective.
#include "libxsim/colls/algorithm_registry.hpp"

#include <array>

namespace xsim::colls {

std::vector<const AlgorithmInfo*>& registered_algorithms(CollKind kind) {
    // Function-local: registrations run during static initialisation, in any file order.
    static std::array<std::vector<const AlgorithmInfo*>, kCollKindCount> lists;
    static std::vector<const AlgorithmInfo*> none;  // communicator construction: nothing to choose
    const int k = static_cast<int>(kind);
    if (k <= 0 || k >= kCollKindCount) {
        none.clear();
        return none;
    }
    return lists[static_cast<std::size_t>(k)];
}

}  // namespace xsim::colls

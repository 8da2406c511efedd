// Where algorithms register: each algorithm file ends with one line,
//   XSIM_REGISTER_ALGORITHM(allgather_ring, CollKind::Allgather, CollKind::Allgatherv);
// which adds the object to those collectives' tables during static initialisation, and
// selectors.cpp sets each table's default choice the same way (XSIM_REGISTER_DEFAULT).
// The tables are function-local statics, so registration order across files does not
// matter; within a table algorithms are kept in name order, analytic ones last, so the
// listing does not depend on link order. A name registered twice for one collective stops
// the program at start-up. Every colls/ object is linked whole (libxsim/CMakeLists.txt:
// an object library, not an archive member the linker could drop); the registry test
// (tests/conformance/registry_check.cpp) checks that every algorithm file registered.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <type_traits>
#include <vector>

#include "libxsim/colls/algorithm.hpp"

namespace xsim::colls {

// The argument struct of each selectable collective.
template <CollKind K> struct ArgsOf;
template <> struct ArgsOf<CollKind::Barrier> { using type = BarrierArgs; };
template <> struct ArgsOf<CollKind::Bcast> { using type = BcastArgs; };
template <> struct ArgsOf<CollKind::Reduce> { using type = ReduceArgs; };
template <> struct ArgsOf<CollKind::Allreduce> { using type = ReduceArgs; };
template <> struct ArgsOf<CollKind::Gather> { using type = RootedArgs; };
template <> struct ArgsOf<CollKind::Gatherv> { using type = RootedArgs; };
template <> struct ArgsOf<CollKind::Scatter> { using type = RootedArgs; };
template <> struct ArgsOf<CollKind::Scatterv> { using type = RootedArgs; };
template <> struct ArgsOf<CollKind::Allgather> { using type = AllgatherArgs; };
template <> struct ArgsOf<CollKind::Allgatherv> { using type = AllgatherArgs; };
template <> struct ArgsOf<CollKind::Alltoall> { using type = AlltoallArgs; };
template <> struct ArgsOf<CollKind::Alltoallv> { using type = AlltoallArgs; };
template <> struct ArgsOf<CollKind::Alltoallw> { using type = AlltoallArgs; };
template <> struct ArgsOf<CollKind::ReduceScatter> { using type = ReduceScatterArgs; };
template <> struct ArgsOf<CollKind::ReduceScatterBlock> { using type = ReduceScatterArgs; };
template <> struct ArgsOf<CollKind::Scan> { using type = ReduceArgs; };
template <> struct ArgsOf<CollKind::Exscan> { using type = ReduceArgs; };
template <> struct ArgsOf<CollKind::NeighborAllgather> { using type = NeighborArgs; };
template <> struct ArgsOf<CollKind::NeighborAllgatherv> { using type = NeighborArgs; };
template <> struct ArgsOf<CollKind::NeighborAlltoall> { using type = NeighborArgs; };
template <> struct ArgsOf<CollKind::NeighborAlltoallv> { using type = NeighborArgs; };
template <> struct ArgsOf<CollKind::NeighborAlltoallw> { using type = NeighborArgs; };

// The names of every collective's algorithms, untyped (listing, forced choices).
std::vector<const AlgorithmInfo*>& registered_algorithms(CollKind kind);

// The typed table of collective K.
template <CollKind K>
Collective<typename ArgsOf<K>::type>& table_of() {
    static Collective<typename ArgsOf<K>::type> table{K, {}, nullptr};
    return table;
}

namespace detail {

inline bool listed_before(const AlgorithmInfo& a, const AlgorithmInfo& b) {
    const bool a_analytic = std::string_view(a.name).starts_with("analytic");
    const bool b_analytic = std::string_view(b.name).starts_with("analytic");
    if (a_analytic != b_analytic) return b_analytic;
    return std::string_view(a.name) < std::string_view(b.name);
}

template <CollKind K>
void add_algorithm(const Algorithm<typename ArgsOf<K>::type>& algorithm) {
    auto& typed = table_of<K>().algorithms;
    std::vector<const AlgorithmInfo*>& names = registered_algorithms(K);
    for (const AlgorithmInfo* known : names) {
        if (std::string_view(known->name) != algorithm.name) continue;
        std::fprintf(stderr, "xsim: two algorithms named '%s' registered for %s\n", algorithm.name,
                     kCollNames[static_cast<int>(K)].key);
        std::abort();
    }
    auto at = typed.begin();
    while (at != typed.end() && listed_before(**at, algorithm)) ++at;
    names.insert(names.begin() + (at - typed.begin()), &algorithm);
    typed.insert(at, &algorithm);
}

}  // namespace detail

// Registers one algorithm object for collectives Ks (all taking the same arguments).
template <CollKind First, CollKind... Rest>
struct AlgorithmRegistration {
    using Args = typename ArgsOf<First>::type;
    static_assert((std::is_same_v<Args, typename ArgsOf<Rest>::type> && ...),
                  "an algorithm registers only for collectives that take the same arguments");
    explicit AlgorithmRegistration(const Algorithm<Args>& algorithm) {
        detail::add_algorithm<First>(algorithm);
        (detail::add_algorithm<Rest>(algorithm), ...);
    }
};

// Sets collective K's default choice (selectors.cpp).
template <CollKind K>
struct DefaultRegistration {
    explicit DefaultRegistration(const Algorithm<typename ArgsOf<K>::type>* (*choose)(
        const Context&, const typename ArgsOf<K>::type&)) {
        table_of<K>().choose = choose;
    }
};

}  // namespace xsim::colls

#define XSIM_REGISTRATION_CONCAT_(a, b) a##b
#define XSIM_REGISTRATION_NAME_(a, b) XSIM_REGISTRATION_CONCAT_(a, b)
// One line after an algorithm's definition: XSIM_REGISTER_ALGORITHM(object, CollKind::X, ...).
#define XSIM_REGISTER_ALGORITHM(object, ...)                                                    \
    static const ::xsim::colls::AlgorithmRegistration<__VA_ARGS__> XSIM_REGISTRATION_NAME_( \
        xsim_registers_, __COUNTER__) {                                                      \
        object                                                                               \
    }
// selectors.cpp: XSIM_REGISTER_DEFAULT(CollKind::X, choose_x).
#define XSIM_REGISTER_DEFAULT(kind, choose)                                                     \
    static const ::xsim::colls::DefaultRegistration<kind> XSIM_REGISTRATION_NAME_(xsim_default_, \
                                                                                   __COUNTER__) {\
        choose                                                                                   \
    }

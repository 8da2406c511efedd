#include "libxsim/mpi/process_objects.hpp"

#include <cstdio>
#include <cstdlib>

namespace xsim {

namespace detail {

ProcessObjects* g_current_objects = nullptr;

void no_current_objects() {
    std::fprintf(stderr, "xsim: internal error: an MPI object was used with no engine (no current ProcessObjects)\n");
    std::abort();
}

}  // namespace detail

ProcessObjects::ProcessObjects() {
    empty_group.refs = 1 << 30;  // MPI_GROUP_EMPTY is never freed
}

ProcessObjects::~ProcessObjects() {
    // Communicators still alive at the end hold their own references; only ours go.
    if (world_group && --world_group->refs == 0) delete world_group;
    for (auto& [key, extras] : predefined_extras) delete extras.attributes;
    for (auto& [key, attributes] : type_attributes) delete attributes;
}

CurrentObjects::CurrentObjects(ProcessObjects& objects) : mine_(&objects), previous_(detail::g_current_objects) {
    detail::g_current_objects = &objects;
}

CurrentObjects::~CurrentObjects() {
    if (detail::g_current_objects == mine_) detail::g_current_objects = previous_;
}

}  // namespace xsim

// Sentinels, statuses, CHARACTER arguments and the fate of uncovered Fortran calls.
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/fortran/convert.hpp"

extern "C" [[noreturn]] __attribute__((visibility("hidden"))) void xsim_unsupported_call(const char* name);

namespace xsim::fortran {
namespace {

static_assert(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0 && kStatusSize == 6,
              "Open MPI 4.1's Fortran status is its C MPI_Status: MPI_STATUS_SIZE = 6");

// Open MPI's mpif.h and `use mpi` declare each sentinel in a COMMON block of its own,
// exported as mpi_fortran_<name>_: the program and the Fortran libraries all resolve it to
// one address (the program's own copy when it names the sentinel), which the dynamic
// linker finds again here. A sentinel no loaded object defines cannot be passed at all.
struct Sentinels {
    const void* bottom = dlsym(RTLD_DEFAULT, "mpi_fortran_bottom_");
    const void* in_place = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_");
    const void* status_ignore = dlsym(RTLD_DEFAULT, "mpi_fortran_status_ignore_");
    const void* statuses_ignore = dlsym(RTLD_DEFAULT, "mpi_fortran_statuses_ignore_");
    const void* unweighted = dlsym(RTLD_DEFAULT, "mpi_fortran_unweighted_");
    const void* weights_empty = dlsym(RTLD_DEFAULT, "mpi_fortran_weights_empty_");
};

const Sentinels& sentinels() {
    static const Sentinels s;
    return s;
}

bool is(const void* f, const void* sentinel) { return sentinel && f == sentinel; }

}  // namespace

void* buffer(void* f) {
    if (is(f, sentinels().bottom)) return MPI_BOTTOM;
    if (is(f, sentinels().in_place)) return MPI_IN_PLACE;
    return f;
}

int* weights(MPI_Fint* f) {
    if (is(f, sentinels().unweighted)) return MPI_UNWEIGHTED;
    if (is(f, sentinels().weights_empty)) return MPI_WEIGHTS_EMPTY;
    return f;
}

bool is_status_ignore(const MPI_Fint* f) { return is(f, sentinels().status_ignore); }
bool is_statuses_ignore(const MPI_Fint* f) { return is(f, sentinels().statuses_ignore); }

MPI_Status load_status(const MPI_Fint* f) {
    MPI_Status c{};
    std::memcpy(&c, f, sizeof c);
    return c;
}

void store_status(MPI_Fint* f, const MPI_Status& c) {
    if (!is_status_ignore(f)) std::memcpy(f, &c, sizeof c);
}

int store_narrowed(MPI_Fint* f, MPI_Aint value, const char* call) {
    if (value >= INT32_MIN && value <= INT32_MAX) {
        *f = static_cast<MPI_Fint>(value);
        return MPI_SUCCESS;
    }
    CallScope scope(call);
    return scope.fail(nullptr, MPI_ERR_ARG,
                      "the result " + std::to_string(value) +
                          " does not fit in this MPI-1 call's default INTEGER; use its MPI-2 replacement "
                          "(MPI_GET_ADDRESS, MPI_TYPE_GET_EXTENT) with INTEGER(KIND=MPI_ADDRESS_KIND)");
}

std::vector<MPI_Aint> widened(const MPI_Fint* f, MPI_Fint count) {
    std::vector<MPI_Aint> c(count > 0 ? static_cast<std::size_t>(count) : 0);
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = f[i];
    return c;
}

std::string from_fortran(const char* s, std::size_t length) {
    std::size_t first = 0;
    while (first < length && s[first] == ' ') ++first;
    while (length > first && s[length - 1] == ' ') --length;
    return std::string(s + first, length - first);
}

OutString::OutString(char* f, std::size_t length) : f_(f), length_(length), buffer_(std::max<std::size_t>(length, 1024) + 1, '\0') {}

void OutString::store() const {
    const std::size_t n = std::min(length_, std::strlen(buffer_.data()));
    std::memcpy(f_, buffer_.data(), n);
    std::memset(f_ + n, ' ', length_ - n);
}

void unsupported(const char* name) {
    const std::string what = std::string(name) + " (Fortran)";
    xsim_unsupported_call(what.c_str());
}

}  // namespace xsim::fortran

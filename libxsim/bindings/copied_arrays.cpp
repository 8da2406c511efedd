#include "libxsim/bindings/copied_arrays.hpp"

namespace xsim {

template <class T>
const T* CopiedArrays::own(std::vector<std::vector<T>>& store, const T* data, int n) {
    if (!data || n <= 0) return data;
    store.emplace_back(data, data + n);
    return store.back().data();
}

void CopiedArrays::copy(colls::Blocks& b, int n) {
    b.counts = own(ints_, b.counts, n);
    b.displs = own(ints_, b.displs, n);
    b.types = own(types_, b.types, n);
    b.byte_displs = own(aints_, b.byte_displs, n);
}

const int* CopiedArrays::copy(const int* ints, int n) { return own(ints_, ints, n); }

}  // namespace xsim

// The attribute store's language rules (MPI-4.0 section 19.3.7, mpi/attributes.hpp): what C
// and Fortran read of an attribute set in either language, what the callbacks of a C or a
// Fortran keyval get, and that a copy keeps the attribute's language.
#include <gtest/gtest.h>

#include <mpi.h>

#include <string>

#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/process_objects.hpp"

using namespace xsim;

namespace {

MPI_Comm kHandle = reinterpret_cast<MPI_Comm>(0x1000);
void* g_deleted = nullptr;  // what the last delete callback got
int g_deletes = 0;

int record_delete(MPI_Comm, int, void* value, void*) {
    g_deleted = value;
    ++g_deletes;
    return MPI_SUCCESS;
}
// As C's MPI_COMM_DUP_FN: the value in is the value out.
int dup_copy(MPI_Comm, int, void*, void* in, void* out, int* flag) {
    *static_cast<void**>(out) = in;
    *flag = 1;
    return MPI_SUCCESS;
}
// As a Fortran copy callback behind its trampoline (fortran/keyvals.cpp): the integer in the void*.
int plus_one_copy(MPI_Comm, int, void*, void* in, void* out, int* flag) {
    *static_cast<void**>(out) = reinterpret_cast<void*>(reinterpret_cast<MPI_Aint>(in) + 1);
    *flag = 1;
    return MPI_SUCCESS;
}
int null_copy(MPI_Comm, int, void*, void*, void* out, int* flag) {
    *static_cast<void**>(out) = nullptr;
    *flag = 1;
    return MPI_SUCCESS;
}

MPI_Aint address(const void* p) { return reinterpret_cast<MPI_Aint>(p); }

}  // namespace

// Not in the anonymous namespace: the tests derive from it, and in a unity batch GCC warns
// (-Wsubobject-linkage) about a base of internal linkage in a file that is not the main one.
class AttributeLanguages : public ::testing::Test {
protected:
    void SetUp() override {
        g_deleted = nullptr;
        g_deletes = 0;
    }
    void TearDown() override {
        delete_all_attributes(from, kHandle);
        delete_all_attributes(to, kHandle);
    }
    int keyval(MPI_Comm_copy_attr_function* copy, Language language) {
        const int k = create_keyval(KeyvalKind::Comm, copy, record_delete, nullptr);
        set_keyval_language(k, language);
        return k;
    }
    ProcessObjects objects;
    CurrentObjects current{objects};
    Attributes* from = nullptr;
    Attributes* to = nullptr;
};

TEST_F(AttributeLanguages, EachLanguageReadsItsView) {
    const int k_c = keyval(nullptr, Language::C), k_f = keyval(nullptr, Language::C);
    int target = 5;
    ASSERT_EQ(set_attribute(from, kHandle, k_c, Language::C, address(&target)), MPI_SUCCESS);
    const MPI_Aint big = (MPI_Aint{1} << 40) + 3;
    ASSERT_EQ(set_attribute(from, kHandle, k_f, Language::Fortran, big), MPI_SUCCESS);

    MPI_Aint v = 0;
    ASSERT_TRUE(get_attribute(from, k_c, Language::C, &v));
    EXPECT_EQ(v, address(&target));  // C: the pointer
    ASSERT_TRUE(get_attribute(from, k_c, Language::Fortran, &v));
    EXPECT_EQ(v, address(&target));  // Fortran: its address
    ASSERT_TRUE(get_attribute(from, k_f, Language::Fortran, &v));
    EXPECT_EQ(v, big);  // Fortran: the value
    ASSERT_TRUE(get_attribute(from, k_f, Language::C, &v));
    const auto* stored = reinterpret_cast<const MPI_Aint*>(v);
    EXPECT_EQ(*stored, big);  // C: a pointer to the value
    // The pointer C holds stays valid as other attributes come and go.
    for (int i = 0; i < 20; ++i) set_attribute(from, kHandle, keyval(nullptr, Language::C), Language::Fortran, i);
    bool found = false;
    delete_attribute(from, kHandle, k_c, &found);
    EXPECT_TRUE(found);
    EXPECT_EQ(*stored, big);
    ASSERT_TRUE(get_attribute(from, k_f, Language::C, &v));
    EXPECT_EQ(reinterpret_cast<const MPI_Aint*>(v), stored);
}

TEST_F(AttributeLanguages, DeleteCallbacksGetTheirLanguagesView) {
    const int k_c = keyval(nullptr, Language::C), k_f = keyval(nullptr, Language::Fortran);
    int target = 1;
    set_attribute(from, kHandle, k_c, Language::Fortran, 42);
    set_attribute(from, kHandle, k_f, Language::C, address(&target));
    bool found = false;
    ASSERT_EQ(delete_attribute(from, kHandle, k_c, &found), MPI_SUCCESS);
    ASSERT_NE(g_deleted, nullptr);
    EXPECT_EQ(*static_cast<MPI_Aint*>(g_deleted), 42);  // a C callback: a pointer to the Fortran value
    ASSERT_EQ(delete_attribute(from, kHandle, k_f, &found), MPI_SUCCESS);
    EXPECT_EQ(g_deleted, &target);  // a Fortran callback: the C pointer as an integer
    // Replacing a value deletes the old one with the callback.
    set_attribute(from, kHandle, k_f, Language::Fortran, 7);
    set_attribute(from, kHandle, k_f, Language::Fortran, 8);
    EXPECT_EQ(address(g_deleted), 7);
    EXPECT_EQ(g_deletes, 3);
}

TEST_F(AttributeLanguages, CopiesKeepTheAttributesLanguage) {
    int target = 9;
    const int c_dup_c = keyval(dup_copy, Language::C), c_dup_f = keyval(dup_copy, Language::C);
    const int f_plus_f = keyval(plus_one_copy, Language::Fortran), f_dup_c = keyval(dup_copy, Language::Fortran);
    const int none = keyval(nullptr, Language::C);
    set_attribute(from, kHandle, c_dup_c, Language::C, address(&target));
    set_attribute(from, kHandle, c_dup_f, Language::Fortran, -77);
    set_attribute(from, kHandle, f_plus_f, Language::Fortran, -5);
    set_attribute(from, kHandle, f_dup_c, Language::C, address(&target));
    set_attribute(from, kHandle, none, Language::Fortran, 1);
    std::string why;
    ASSERT_EQ(copy_attributes(from, kHandle, to, &why), MPI_SUCCESS) << why;

    MPI_Aint v = 0, old = 0;
    ASSERT_TRUE(get_attribute(to, c_dup_c, Language::C, &v));
    EXPECT_EQ(v, address(&target));  // C's dup of a C pointer: the pointer
    ASSERT_TRUE(get_attribute(to, c_dup_f, Language::Fortran, &v));
    EXPECT_EQ(v, -77);  // C's dup of a Fortran value: still a Fortran value ...
    ASSERT_TRUE(get_attribute(to, c_dup_f, Language::C, &v));
    ASSERT_TRUE(get_attribute(from, c_dup_f, Language::C, &old));
    EXPECT_NE(v, old);  // ... stored in the copy
    EXPECT_EQ(*reinterpret_cast<MPI_Aint*>(v), -77);
    ASSERT_TRUE(get_attribute(to, f_plus_f, Language::Fortran, &v));
    EXPECT_EQ(v, -4);  // a Fortran callback got the value
    ASSERT_TRUE(get_attribute(to, f_dup_c, Language::C, &v));
    EXPECT_EQ(v, address(&target));  // Fortran's dup of a C pointer: the pointer, for C
    EXPECT_FALSE(get_attribute(to, none, Language::C, &v));  // no copy callback: not copied
}

TEST_F(AttributeLanguages, ACCopyOfAFortranValueMustReturnAPointer) {
    const int k = keyval(null_copy, Language::C);
    set_attribute(from, kHandle, k, Language::Fortran, 3);
    std::string why;
    EXPECT_EQ(copy_attributes(from, kHandle, to, &why), MPI_ERR_ARG);
    EXPECT_NE(why.find("null attribute_val_out"), std::string::npos) << why;
}

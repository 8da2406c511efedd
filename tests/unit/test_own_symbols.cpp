// The names of xsim's own functions for the crash report (engine/own_symbols): looked up in
// the symbol table of the file xsim's code is in (here the unit test's executable, which links
// the engine statically), demangled only on the signal stack, cut to the buffer given.
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <signal.h>

#include <cstring>
#include <string>
#include <vector>

#include "libxsim/engine/own_symbols.hpp"
#include "libxsim/engine/stack_guard.hpp"

using namespace xsim;

namespace {

const void* object_base(const void* address) {
    Dl_info where{};
    return dladdr(address, &where) ? where.dli_fbase : nullptr;
}

// An instruction 4 bytes into xsim::format_stack_size(char*, std::size_t, std::size_t).
const void* inside_format_stack_size() { return reinterpret_cast<const char*>(&format_stack_size) + 4; }

// What the signal handler found (the test's own statics: one thread, one handler at a time).
struct Lookup {
    const void* pc;
    const void* base;
    OwnCode code;
    char text[400];
};
Lookup g_lookup;

void look_up_in_handler(int) {
    g_lookup.code = name_own_code(g_lookup.pc, g_lookup.base, g_lookup.text, sizeof g_lookup.text);
}

}  // namespace

TEST(OwnSymbols, NamesAFunctionOfXsimMangledOffTheSignalStack) {
    load_own_symbols();
    const void* pc = inside_format_stack_size();
    char text[400];
    ASSERT_EQ(name_own_code(pc, object_base(pc), text, sizeof text), OwnCode::Named) << text;
    EXPECT_EQ(std::string(text), "_ZN4xsim17format_stack_sizeEPcmm+0x4");
}

TEST(OwnSymbols, DemanglesOnTheSignalStack) {
    load_own_symbols();
    std::vector<char> stack(256 * 1024);
    stack_t alternate{}, previous{};
    alternate.ss_sp = stack.data();
    alternate.ss_size = stack.size();
    ASSERT_EQ(sigaltstack(&alternate, &previous), 0);
    struct sigaction action{}, old{};
    action.sa_handler = look_up_in_handler;
    action.sa_flags = SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ASSERT_EQ(sigaction(SIGUSR1, &action, &old), 0);
    g_lookup.pc = inside_format_stack_size();
    g_lookup.base = object_base(g_lookup.pc);
    g_lookup.code = OwnCode::Other;
    raise(SIGUSR1);
    sigaction(SIGUSR1, &old, nullptr);
    sigaltstack(&previous, nullptr);
    ASSERT_EQ(g_lookup.code, OwnCode::Named) << g_lookup.text;
    if (own_symbols_demangled())
        EXPECT_EQ(std::string(g_lookup.text), "xsim::format_stack_size(char*, unsigned long, unsigned long)+0x4");
    else
        EXPECT_EQ(std::string(g_lookup.text), "_ZN4xsim17format_stack_sizeEPcmm+0x4");
}

TEST(OwnSymbols, CutsALongNameButKeepsTheOffset) {
    load_own_symbols();
    const void* pc = inside_format_stack_size();
    char text[20];
    ASSERT_EQ(name_own_code(pc, object_base(pc), text, sizeof text), OwnCode::Named) << text;
    EXPECT_EQ(std::string(text), "_ZN4xsim17f...+0x4");
}

TEST(OwnSymbols, OtherObjectsAndDataAreNotNamed) {
    load_own_symbols();
    char text[100] = "untouched";
    const void* in_libc = reinterpret_cast<const void*>(&strlen);
    EXPECT_EQ(name_own_code(in_libc, object_base(in_libc), text, sizeof text), OwnCode::Other);
    EXPECT_STREQ(text, "");
    // A variable of xsim's object: in it, but in no function.
    EXPECT_EQ(name_own_code(&g_lookup, object_base(&g_lookup), text, sizeof text), OwnCode::Unnamed);
    EXPECT_STREQ(text, "");
    EXPECT_EQ(name_own_code(nullptr, nullptr, text, sizeof text), OwnCode::Other);
}

#include <gtest/gtest.h>

#include <limits>

#include "libxsim/engine/options.hpp"
#include "libxsim/engine/stack_guard.hpp"

using namespace xsim;

namespace {

CommandLine parse(std::vector<std::string> words, const char* env = nullptr) {
    static std::vector<std::string> storage;
    storage = std::move(words);
    static std::vector<char*> argv;
    argv.clear();
    for (auto& w : storage) argv.push_back(w.data());
    return parse_command_line(static_cast<int>(argv.size()), argv.data(), env);
}

std::vector<std::string> app_args(const CommandLine& cl) {
    std::vector<std::string> out;
    for (char* a : cl.app_argv)
        if (a) out.emplace_back(a);
    return out;
}

}  // namespace

TEST(Options, RemovesEveryXsimOptionAndKeepsApplicationArguments) {
    auto cl = parse({"./app", "-xsim-np", "1000", "--size", "7", "-xsim-compute=none", "-xsim-stack", "128k", "last"});
    EXPECT_EQ(cl.options.np, 1000);
    EXPECT_EQ(cl.options.compute, ComputeMode::None);
    EXPECT_EQ(cl.options.stack_bytes, 128u * 1024);
    EXPECT_EQ(app_args(cl), (std::vector<std::string>{"./app", "--size", "7", "last"}));
    EXPECT_EQ(cl.app_argv.back(), nullptr);
}

TEST(Options, DefaultsAreMeasuredComputeWithTheStackLeftToTheRankCount) {
    auto cl = parse({"./app"});
    EXPECT_EQ(cl.options.np, 0);
    EXPECT_EQ(cl.options.compute, ComputeMode::Measured);
    EXPECT_FALSE(cl.options.stack_given);
    EXPECT_EQ(cl.options.stack_bytes, 1024u * 1024);  // until choose_default_stack
    EXPECT_EQ(cl.options.payload.mode, PayloadMode::On);
}

// Without -xsim-stack: 8 MiB while a real process hosts at most 4,096 ranks (the largest
// block, ceil(ranks / processes)), 1 MiB up to 65,536, then halved until the process's stacks
// span at most 64 GiB, down to 64 KiB; the same on every process of a run.
TEST(Options, DefaultStackFollowsTheRanksPerProcess) {
    EXPECT_EQ(default_stack_bytes(1, 1), 8u << 20);
    EXPECT_EQ(default_stack_bytes(4096, 1), 8u << 20);
    EXPECT_EQ(default_stack_bytes(4097, 1), 1u << 20);
    EXPECT_EQ(default_stack_bytes(8192, 2), 8u << 20);
    EXPECT_EQ(default_stack_bytes(8193, 2), 1u << 20);  // blocks of 4,097 and 4,096
    EXPECT_EQ(default_stack_bytes(1LL << 17, 2), 1u << 20);
    EXPECT_EQ(default_stack_bytes((1LL << 17) + 1, 2), 512u << 10);  // blocks of 65,537 and 65,536
    EXPECT_EQ(default_stack_bytes(1LL << 20, 2), 128u << 10);
    EXPECT_EQ(default_stack_bytes((1LL << 20) + 1, 1), 64u << 10);  // the floor
    EXPECT_EQ(default_stack_bytes(1LL << 27, 1), 64u << 10);
    EXPECT_EQ(default_stack_bytes(1LL << 20, 256), 8u << 20);
    for (long long per_process = 4097; per_process < (1LL << 22); per_process = per_process * 3 / 2) {
        const std::size_t stack = default_stack_bytes(per_process, 1);
        EXPECT_TRUE(stack <= (1u << 20) && stack >= (64u << 10) && (stack & (stack - 1)) == 0) << per_process;
        EXPECT_TRUE(stack == (64u << 10) || stack * per_process <= (std::size_t{64} << 30)) << per_process;
    }

    auto by_default = parse({"./app"});
    choose_default_stack(by_default.options, 4, 1);
    EXPECT_EQ(by_default.options.stack_bytes, 8u << 20);
    EXPECT_STREQ(stack_origin(by_default.options.stack_bytes, false),
                 " (the default for up to 4096 simulated ranks per real process)");
    choose_default_stack(by_default.options, 1 << 17, 2);
    EXPECT_EQ(by_default.options.stack_bytes, 1u << 20);
    EXPECT_STREQ(stack_origin(by_default.options.stack_bytes, false),
                 " (the default for 4097 to 65536 simulated ranks per real process)");
    choose_default_stack(by_default.options, 1 << 20, 2);
    EXPECT_EQ(by_default.options.stack_bytes, 128u << 10);
    EXPECT_STREQ(stack_origin(by_default.options.stack_bytes, false),
                 " (the default above 65536 simulated ranks per real process, which keeps its stacks within 64 "
                 "GiB of address space)");
}

TEST(Options, OverflowMessageNamesTheStackAndHowItWasChosen) {
    char text[480];
    format_stack_overflow(text, sizeof text, 3, 8u << 20, stack_origin(8u << 20, false), "detected in MPI_Send");
    EXPECT_STREQ(text, "stack overflow in simulated rank 3 (detected in MPI_Send): its stack of 8 MiB (the default for "
                       "up to 4096 simulated ranks per real process) is used up; rerun with a larger one, e.g. "
                       "-xsim-stack 32m");
    format_stack_overflow(text, sizeof text, 0, 1u << 20, stack_origin(1u << 20, true), "detected in MPI_Recv");
    EXPECT_STREQ(text, "stack overflow in simulated rank 0 (detected in MPI_Recv): its stack of 1 MiB is used up; "
                       "rerun with a larger one, e.g. -xsim-stack 4m");
}

TEST(Options, GivenStackAlwaysWins) {
    for (auto cl : {parse({"./app", "-xsim-stack", "1m"}), parse({"./app"}, "-xsim-stack 1m")}) {
        EXPECT_TRUE(cl.options.stack_given);
        choose_default_stack(cl.options, 4, 1);
        EXPECT_EQ(cl.options.stack_bytes, 1u << 20);
        EXPECT_STREQ(stack_origin(cl.options.stack_bytes, cl.options.stack_given), "");
    }
    auto big = parse({"./app", "-xsim-stack=16m"});
    choose_default_stack(big.options, 1 << 20, 1);
    EXPECT_EQ(big.options.stack_bytes, 16u << 20);
}

TEST(Options, EnvironmentOptionsComeFirstAndArgvWins) {
    auto cl = parse({"./app", "-xsim-np", "8"}, "-xsim-np 4 -xsim-payload off -xsim-set a.b=1");
    EXPECT_EQ(cl.options.np, 8);
    EXPECT_EQ(cl.options.payload.mode, PayloadMode::Off);
    ASSERT_EQ(cl.options.overrides.size(), 1u);
    EXPECT_EQ(cl.options.overrides[0], "a.b=1");
}

TEST(Options, SetIsRepeatable) {
    auto cl = parse({"./app", "-xsim-set", "x=1", "-xsim-set=y.z=2"});
    EXPECT_EQ(cl.options.overrides, (std::vector<std::string>{"x=1", "y.z=2"}));
}

TEST(Options, PrivatizeLibsTakesNamesAndIsRepeatable) {
    auto cl = parse({"./app", "-xsim-privatize-libs", "fftw3,libgsl.so.27", "-xsim-privatize-libs=gmp"});
    EXPECT_EQ(cl.options.privatize_libraries, (std::vector<std::string>{"fftw3", "libgsl.so.27", "gmp"}));
    EXPECT_TRUE(parse({"./app"}).options.privatize_libraries.empty());
}

// -xsim-privatize-remap: auto (0: measured on the host), off (none remapped: the largest
// size_t), or a size, never below the 64 KiB under which runs are always copied.
TEST(Options, PrivatizeRemapTakesAutoOffOrASize) {
    EXPECT_EQ(parse({"./app"}).options.privatize_remap_from, 0u);
    EXPECT_EQ(parse({"./app", "-xsim-privatize-remap", "auto"}).options.privatize_remap_from, 0u);
    EXPECT_EQ(parse({"./app", "-xsim-privatize-remap=off"}).options.privatize_remap_from, std::numeric_limits<std::size_t>::max());
    EXPECT_EQ(parse({"./app", "-xsim-privatize-remap", "1m"}).options.privatize_remap_from, std::size_t{1} << 20);
    EXPECT_EQ(parse({"./app", "-xsim-privatize-remap", "4k"}).options.privatize_remap_from, std::size_t{64} << 10);
    EXPECT_THROW(parse({"./app", "-xsim-privatize-remap", "sometimes"}), OptionError);
}

TEST(Options, BadInputNamesTheOption) {
    auto message = [](std::vector<std::string> words, const char* env = nullptr) {
        try {
            parse(std::move(words), env);
        } catch (const OptionError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message({"a", "-xsim-np", "0"}).find("-xsim-np"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-np", "-3"}).find("at least 1"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-np", "12abc"}).find("not a whole number"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-np"}).find("missing value"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-npp", "4"}).find("unknown option '-xsim-npp'"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-compute", "fast"}).find("-xsim-compute"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-stack", "1k"}).find("too small"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-stack", "3k"}).find("use 2k, 4k or 8k"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-stack", "64q"}).find("unit"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-set", "novalue"}).find("KEY=VALUE"), std::string::npos);
    for (const char* names : {"", "fftw3,", ",fftw3", "fftw3,,gsl", "/usr/lib/libfftw3.so.3", "fftw3 gsl"})
        EXPECT_NE(message({"a", "-xsim-privatize-libs", names}).find("-xsim-privatize-libs: expected library names"),
                  std::string::npos)
            << names;
    EXPECT_NE(message({"a", "-xsim-help=1"}).find("takes no value"), std::string::npos);
    EXPECT_NE(message({"a"}, "--verbose").find("XSIM_OPTIONS"), std::string::npos);
    EXPECT_NE(message({"a", "-xsim-np", "3000000000"}).find("int"), std::string::npos);
}

TEST(Options, SizesAcceptCommonUnits) {
    EXPECT_EQ(parse_size("o", "65536"), 65536u);
    EXPECT_EQ(parse_size("o", "64k"), 65536u);
    EXPECT_EQ(parse_size("o", "64KiB"), 65536u);
    EXPECT_EQ(parse_size("o", "1m"), 1048576u);
    EXPECT_EQ(parse_size("o", "1.5M"), 1572864u);
    EXPECT_EQ(parse_size("o", "2g"), 2147483648u);
}

TEST(Options, HelpListsEveryOption) {
    const std::string help = options_help();
    for (const char* name : {"-xsim-np", "-xsim-compute", "-xsim-stack", "-xsim-report", "-xsim-config", "-xsim-set",
                             "-xsim-payload", "-xsim-progress", "-xsim-quiet", "-xsim-help"})
        EXPECT_NE(help.find(name), std::string::npos) << name;
}

TEST(Options, PayloadOnAndOffKeepTheirMeaning) {
    const PayloadPolicy on = parse({"./app", "-xsim-payload", "on"}).options.payload;
    EXPECT_EQ(on.mode, PayloadMode::On);
    EXPECT_TRUE(on.any());
    EXPECT_TRUE(on.carries(0));
    EXPECT_TRUE(on.carries(std::uint64_t{1} << 62));  // every message carries its data
    EXPECT_FALSE(on.has_threshold());
    const PayloadPolicy off = parse({"./app", "-xsim-payload=off"}).options.payload;
    EXPECT_EQ(off.mode, PayloadMode::Off);
    EXPECT_FALSE(off.any());
    EXPECT_FALSE(off.carries(0));  // not even empty messages: buffers may be null
    EXPECT_FALSE(off.carries(1));
    EXPECT_STREQ(on.name(), "on");
    EXPECT_STREQ(off.name(), "off");
}

TEST(Options, PayloadThresholdKeepsMessagesUpToItsSize) {
    const PayloadPolicy t = parse({"./app", "-xsim-payload", "4k"}).options.payload;
    EXPECT_EQ(t.mode, PayloadMode::Threshold);
    EXPECT_TRUE(t.has_threshold());
    EXPECT_EQ(t.threshold_bytes(), 4096u);
    EXPECT_TRUE(t.carries(0));
    EXPECT_TRUE(t.carries(4096));
    EXPECT_FALSE(t.carries(4097));
    EXPECT_STREQ(t.name(), "threshold");
    EXPECT_EQ(parse({"./app", "-xsim-payload", "65536"}).options.payload.threshold_bytes(), 65536u);
    EXPECT_EQ(parse({"./app", "-xsim-payload", "1.5KiB"}).options.payload.threshold_bytes(), 1536u);
    EXPECT_EQ(parse({"./app", "-xsim-payload", "1"}).options.payload.threshold_bytes(), 1u);
    EXPECT_EQ(parse({"./app", "-xsim-payload", "2g"}).options.payload.threshold_bytes(), std::uint64_t{2} << 30);
}

TEST(Options, PayloadAutoIsTheDocumentedThreshold) {
    const PayloadPolicy a = parse({"./app", "-xsim-payload", "auto"}).options.payload;
    EXPECT_EQ(a.mode, PayloadMode::Auto);
    EXPECT_STREQ(a.name(), "auto");
    EXPECT_EQ(a.threshold_bytes(), kAutoPayloadThreshold);
    EXPECT_EQ(kAutoPayloadThreshold, 4096u);
    EXPECT_TRUE(a.carries(kAutoPayloadThreshold));
    EXPECT_FALSE(a.carries(kAutoPayloadThreshold + 1));
    // The last one wins, from XSIM_OPTIONS or the command line.
    EXPECT_EQ(parse({"./app", "-xsim-payload", "off"}, "-xsim-payload auto").options.payload.mode, PayloadMode::Off);
    EXPECT_EQ(parse({"./app", "-xsim-payload", "auto", "-xsim-payload", "on"}).options.payload.mode, PayloadMode::On);
    EXPECT_NE(options_help().find("on|off|auto|BYTES"), std::string::npos);
}

TEST(Options, BadPayloadValuesNameTheOption) {
    auto message = [](std::vector<std::string> words) {
        try {
            parse(std::move(words));
        } catch (const OptionError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    for (const char* bad : {"maybe", "-4k", "", "yes", "k"}) {
        const std::string m = message({"a", "-xsim-payload", bad});
        EXPECT_EQ(m.rfind("-xsim-payload: expected 'on', 'off', 'auto' or a size in bytes", 0), 0u) << bad << ": " << m;
    }
    EXPECT_EQ(message({"a", "-xsim-payload", "0"}).rfind("-xsim-payload: '0' is not a size", 0), 0u);
    EXPECT_EQ(message({"a", "-xsim-payload", "4q"}).rfind("-xsim-payload: unknown size unit 'q'", 0), 0u);
    EXPECT_EQ(message({"a", "-xsim-payload"}).rfind("-xsim-payload: missing value", 0), 0u);
}

// -xsim-order: cells by default (pdes/processing_order.hpp), time on request; a bad value is
// one line naming the option and what it got.
TEST(Options, OrderIsCellsUnlessTimeIsAsked) {
    EXPECT_EQ(parse({"a"}).options.order, EventOrderOption::Cells);
    EXPECT_EQ(parse({"a", "-xsim-order", "time"}).options.order, EventOrderOption::Time);
    EXPECT_EQ(parse({"a", "-xsim-order=cells"}, "-xsim-order time").options.order, EventOrderOption::Cells);
    try {
        parse({"a", "-xsim-order", "random"});
        ADD_FAILURE() << "-xsim-order random was accepted";
    } catch (const OptionError& e) {
        EXPECT_STREQ(e.what(), "-xsim-order: expected 'cells' or 'time', got 'random'");
    }
}

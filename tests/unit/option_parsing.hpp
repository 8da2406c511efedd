// Command lines for the option tests: words as argv (argv[0] included), parsed as the
// library parses a rank's command line, and the refusal text of a bad one.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "libxsim/engine/options.hpp"

namespace xsim::option_test {

inline Options parsed_options(std::vector<std::string> words, const char* env = nullptr) {
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    return parse_command_line(static_cast<int>(argv.size()), argv.data(), env).options;
}

// The OptionError's text, or "no error" when the line is accepted.
inline std::string option_refusal(std::vector<std::string> words, const char* env = nullptr) {
    try {
        parsed_options(std::move(words), env);
    } catch (const OptionError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace xsim::option_test

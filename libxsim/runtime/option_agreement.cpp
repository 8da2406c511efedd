// Agreement of all real processes on the simulation's settings (option_agreement.hpp).
#include "libxsim/runtime/option_agreement.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <sstream>

namespace xsim::runtime {
namespace {

// Values may hold any byte the shell passed; tab and newline separate the serialized form.
std::string escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else out += c;
    }
    return out;
}

std::string unescape(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 == text.size()) {
            out += text[i];
            continue;
        }
        const char c = text[++i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    }
    return out;
}

std::string shown(const std::pair<std::string, std::string>* entry) {
    std::string value = entry->second;
    if (value.size() > 120) value = value.substr(0, 117) + "...";
    return "'" + entry->first + (value.empty() ? "" : " " + value) + "'";
}

}  // namespace

Settings option_settings(const Options& options) {
    std::map<std::string, std::string> last;  // later options win, as in parsing
    std::string sets;
    for (const auto& [name, value] : options.given) {
        if (name == "-xsim-set") {
            sets += (sets.empty() ? "" : " ") + value;
        } else if (name == "-xsim-quiet") {
            last["-xsim-progress"] = "off";  // the same setting
        } else {
            last[name] = value;
        }
    }
    if (!sets.empty()) last["-xsim-set"] = sets;
    return Settings(last.begin(), last.end());
}

Settings machine_settings(const std::string& effective_config_json) {
    Settings out;
    std::istringstream in(effective_config_json);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        const auto b = line.find_first_not_of(" \t");
        out.emplace_back("machine configuration line " + std::to_string(number),
                         b == std::string::npos ? std::string() : line.substr(b));
    }
    return out;
}

std::string serialize_settings(const Settings& settings) {
    std::string out;
    for (const auto& [name, value] : settings) out += escape(name) + "\t" + escape(value) + "\n";
    return out;
}

Settings deserialize_settings(const std::string& text) {
    Settings out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        out.emplace_back(unescape(line.substr(0, tab)), unescape(line.substr(tab + 1)));
    }
    return out;
}

std::uint64_t settings_hash(const std::string& serialized) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : serialized) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string describe_difference(const Settings& reference, const Settings& mine, int process) {
    const std::size_t n = std::max(reference.size(), mine.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto* theirs = i < reference.size() ? &reference[i] : nullptr;
        const auto* ours = i < mine.size() ? &mine[i] : nullptr;
        if (theirs && ours && *theirs == *ours) continue;
        auto has = [](const Settings& s, const std::string& name) {
            return std::any_of(s.begin(), s.end(), [&](const auto& e) { return e.first == name; });
        };
        const std::string p = "process " + std::to_string(process);
        auto bare = [](std::string name) {  // "start-up error:" reads "no start-up error"
            if (!name.empty() && name.back() == ':') name.pop_back();
            return name;
        };
        std::string what;
        if (ours && !has(reference, ours->first))  // an entry only this process has
            what = p + " has " + shown(ours) + " where process 0 has no " + bare(ours->first);
        else if (theirs && !has(mine, theirs->first))  // an entry only process 0 has
            what = "process 0 has " + shown(theirs) + " where " + p + " has no " + bare(theirs->first);
        else
            what = "process 0 has " + shown(theirs) + " where " + p + " has " + shown(ours);
        return "the real processes were started differently: " + what +
               "; every process must get the same -xsim-* options (mpirun's ':' parts and XSIM_OPTIONS "
               "included) and read the same machine";
    }
    return {};
}

std::string agree_across_processes(const Settings& mine, int process, int processes, const RealCollectives& mpi) {
    if (processes <= 1) return {};
    const std::string text = serialize_settings(mine);
    const std::uint64_t h = settings_hash(text);
    // min(h) and min(~h) = ~max(h): equal everywhere iff min == max.
    std::uint64_t both[2] = {h, ~h};
    mpi.allreduce(MPI_IN_PLACE, both, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    if (both[0] == ~both[1]) return {};

    // They differ: process 0's settings to everyone, the lowest differing process explains.
    std::string reference = text;
    unsigned long long size = reference.size();
    mpi.bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    reference.resize(static_cast<std::size_t>(size));
    mpi.bcast(reference.data(), static_cast<int>(size), MPI_CHAR, 0, MPI_COMM_WORLD);
    int first = reference != text ? process : INT_MAX;
    mpi.allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == INT_MAX) return {};  // unreachable: different hashes mean some text differs from process 0's
    std::string why = process == first ? describe_difference(deserialize_settings(reference), mine, process) : "";
    unsigned long long why_size = why.size();
    mpi.bcast(&why_size, 1, MPI_UNSIGNED_LONG_LONG, first, MPI_COMM_WORLD);
    why.resize(static_cast<std::size_t>(why_size));
    mpi.bcast(why.data(), static_cast<int>(why_size), MPI_CHAR, first, MPI_COMM_WORLD);
    return why;
}

}  // namespace xsim::runtime

#pragma once
// Option values shared by several commands: numbers, node-count lists and output files, each
// checked with a message that names the option, the value and what is allowed.

#include <charconv>
#include <cmath>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace comet::cli {

// A finite number written in full (no trailing text).
inline bool parse_double(std::string_view v, double& out) {
    if (v.empty()) return false;
    const auto res = std::from_chars(v.data(), v.data() + v.size(), out);
    return res.ec == std::errc() && res.ptr == v.data() + v.size() && std::isfinite(out);
}

// An integer written in full (no trailing text).
inline bool parse_int(std::string_view v, int& out) {
    if (v.empty()) return false;
    const auto res = std::from_chars(v.data(), v.data() + v.size(), out);
    return res.ec == std::errc() && res.ptr == v.data() + v.size();
}

inline constexpr int max_node_count = 10000000;

// "8,16,32" -> integers from 1 to `max`; returns an error message naming `option` and saying
// what `what` (e.g. "node counts") allows, or an empty string.
inline std::string parse_positive_list(std::string_view option, std::string_view what, int max, std::string_view list,
                                       std::vector<int>& out) {
    const std::string allowed = std::string(option) + " needs a comma-separated list of " + std::string(what) +
                                ", each an integer from 1 to " + std::to_string(max);
    out.clear();
    while (true) {
        const auto comma = list.find(',');
        const std::string_view id = list.substr(0, comma);
        int n = 0;
        if (!parse_int(id, n) || n < 1 || n > max) return allowed + ", got '" + std::string(id) + "'";
        out.push_back(n);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return {};
}

// "8,16,32" -> node counts; returns an error message or an empty string.
inline std::string parse_nodes(std::string_view list, std::vector<int>& out) {
    return parse_positive_list("--nodes", "node counts", max_node_count, list, out);
}

// The directory a file would be written to must exist: checked before a long run, not after.
inline std::string output_problem(const std::string& option, const std::filesystem::path& file) {
    if (!file.has_filename()) return option + " needs a file name, got '" + file.string() + "'";
    const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        return option + " " + file.string() + ": the directory " + dir.string() + " does not exist";
    if (std::filesystem::is_directory(file, ec)) return option + " " + file.string() + ": is a directory";
    if (::access(dir.c_str(), W_OK) != 0) return option + " " + file.string() + ": the directory " + dir.string() + " is not writable";
    return {};
}

}  // namespace comet::cli

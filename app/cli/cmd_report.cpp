// comet-cli report: the PDF report paints the explorer's Qt charts, so comet-cli (Qt-free, see
// docs/architecture.md) hands the same arguments to `comet-explorer --report`: the one next to
// comet-cli first (the build tree, /usr/bin), else the first on PATH.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <unistd.h>

#include "commands.hpp"

namespace comet::cli {

namespace {

constexpr const char* explorer_name = "comet-explorer";

// The comet-explorer beside this executable, or empty.
std::filesystem::path sibling_explorer() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec || !self.has_parent_path()) return {};
    std::filesystem::path candidate = self.parent_path() / explorer_name;
    return ::access(candidate.c_str(), X_OK) == 0 ? candidate : std::filesystem::path();
}

// The first executable comet-explorer on PATH, or empty.
std::filesystem::path explorer_on_path() {
    const char* path = std::getenv("PATH");
    if (path == nullptr) return {};
    std::string_view rest = path;
    while (true) {
        const auto colon = rest.find(':');
        const std::string_view dir = rest.substr(0, colon);
        if (!dir.empty()) {
            std::filesystem::path candidate = std::filesystem::path(dir) / explorer_name;
            if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        }
        if (colon == std::string_view::npos) break;
        rest.remove_prefix(colon + 1);
    }
    return {};
}

}  // namespace

int cmd_report(Args args) {
    std::filesystem::path explorer = sibling_explorer();
    if (explorer.empty()) explorer = explorer_on_path();
    if (explorer.empty()) {
        std::fprintf(stderr,
                     "comet-cli report: the PDF report is drawn by comet-explorer (the GUI build, COMET_BUILD_GUI=ON), "
                     "which is neither next to comet-cli nor on PATH: report is unavailable\n");
        return exit_bad_input;
    }
    std::vector<std::string> owned;
    owned.reserve(args.size() + 2);
    owned.emplace_back(explorer_name);
    owned.emplace_back("--report");
    for (const std::string_view a : args) owned.emplace_back(a);
    std::vector<char*> argv;
    argv.reserve(owned.size() + 1);
    for (std::string& a : owned) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::setenv("COMET_REPORT_INVOKED_AS", "comet-cli report", 1);
    std::fflush(nullptr);
    ::execv(explorer.c_str(), argv.data());
    // Only reached when the program could not be started.
    std::fprintf(stderr, "comet-cli report: cannot run %s: %s\n", explorer.c_str(), std::strerror(errno));
    return exit_failure;
}

}  // namespace comet::cli

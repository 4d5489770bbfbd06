#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "comet/config.hpp"
#include "commands.hpp"

namespace {

struct Command {
    std::string_view name;
    std::string_view summary;
    int (*run)(comet::cli::Args);
};

constexpr Command commands[] = {
    {"eval", "evaluate one scenario and print its time and memory breakdown", comet::cli::cmd_eval},
    {"search", "find the best parallelisation strategies for a scenario", comet::cli::cmd_search},
    {"compare", "compare up to four saved designs side by side: speedup, memory, best strategy, cost", comet::cli::cmd_compare},
    {"analyze", "cost and energy, which resource matters most (tornado), cluster-size Pareto front", comet::cli::cmd_analyze},
    {"fsdp", "FSDP balance per dp: tokens/GPU needed to hide ZeRO-3 traffic vs tokens/GPU HBM holds", comet::cli::cmd_fsdp},
    {"report", "write a PDF report: summary, heatmap, breakdown, memory, comparison, sensitivity, cost", comet::cli::cmd_report},
    {"sweep", "evaluate a scenario over one or two axes of knobs (a sweep file)", comet::cli::cmd_sweep},
    {"import", "import Calculon files or a Hugging Face config.json as a scenario", comet::cli::cmd_import},
    {"export", "write a scenario as Calculon's application, system and execution files", comet::cli::cmd_export},
    {"validate", "compare the model with the published measurements it ships", comet::cli::cmd_validate},
};

void print_help() {
    std::printf("comet-cli %s - what-if model of large-model training on clusters (COMET methodology)\n\n", comet::config::version);
    std::printf("Usage: comet-cli COMMAND [ARGS]\n\nCommands:\n");
    for (const auto& c : commands) std::printf("  %-10s %.*s\n", std::string(c.name).c_str(), int(c.summary.size()), c.summary.data());
    std::printf(
        "\n'comet-cli COMMAND --help' describes a command.\n"
        "Exit status: 0 result produced (feasible or not), 1 failure, 2 bad input or usage,\n"
        "130 cancelled with Ctrl-C.\n");
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        print_help();
        return args.empty() ? comet::cli::exit_bad_input : comet::cli::exit_ok;
    }
    if (args[0] == "--version") {
        std::printf("comet-cli %s\n", comet::config::version);
        return comet::cli::exit_ok;
    }
    for (const auto& c : commands)
        if (c.name == args[0]) return c.run(comet::cli::Args(args).subspan(1));
    std::fprintf(stderr, "comet-cli: unknown command '%s' (try 'comet-cli --help')\n", std::string(args[0]).c_str());
    return comet::cli::exit_bad_input;
}

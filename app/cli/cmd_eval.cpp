#include <cstdio>
#include <string>

#include "comet/evaluate.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace comet::cli {

namespace {

void usage() {
    std::printf(
        "Usage: comet-cli eval SCENARIO.comet.json [--json]\n\n"
        "Evaluates the scenario and prints the iteration time split into compute, pipeline\n"
        "bubble, exposed TP/PP/DP communication, exposed memory, optimizer and other, the\n"
        "memory per tier and whether it fits. --json prints the same with stable keys.\n");
}

}  // namespace

int cmd_eval(Args args) {
    bool json = false;
    std::string file;
    CommandLine cl("comet-cli eval", usage);
    cl.flag("--json", [&] { json = true; });
    if (const auto done = cl.parse(args)) return *done;
    if (const auto done = cl.single_file(file)) return *done;
    if (file.empty()) return cl.bad("missing SCENARIO file (usage: comet-cli eval SCENARIO [--json])");
    const Loaded<Scenario> loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    const Result r = evaluate(loaded.value->config);
    const std::string out = json ? format_result_json(*loaded.value, r) : format_result_text(*loaded.value, r);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return exit_ok;
}

}  // namespace comet::cli

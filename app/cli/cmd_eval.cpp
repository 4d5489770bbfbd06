#include <cstdio>
#include <string>

#include "comet/evaluate.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "commands.hpp"

namespace comet::cli {

int cmd_eval(Args args) {
    bool json = false;
    std::string file;
    for (const auto a : args) {
        if (a == "--json") json = true;
        else if (a == "--help" || a == "-h") {
            std::printf("Usage: comet-cli eval SCENARIO.comet.json [--json]\n\n"
                        "Evaluates the scenario and prints the iteration time split into compute, pipeline\n"
                        "bubble, exposed TP/PP/DP communication, exposed memory, optimizer and other, the\n"
                        "memory per tier and whether it fits. --json prints the same with stable keys.\n");
            return exit_ok;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "comet-cli eval: unknown option '%s'\n", std::string(a).c_str());
            return exit_bad_input;
        } else if (file.empty()) file = a;
        else {
            std::fprintf(stderr, "comet-cli eval: one scenario file expected, got '%s' too\n", std::string(a).c_str());
            return exit_bad_input;
        }
    }
    if (file.empty()) {
        std::fprintf(stderr, "comet-cli eval: missing SCENARIO file (usage: comet-cli eval SCENARIO [--json])\n");
        return exit_bad_input;
    }
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

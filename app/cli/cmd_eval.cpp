#include <cstdio>
#include <string>

#include "comet/evaluate.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/validation.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace comet::cli {

namespace {

void usage() {
    std::printf(
        "Usage: comet-cli eval SCENARIO.comet.json [--json]\n\n"
        "Evaluates the scenario and prints the iteration time split into compute, pipeline\n"
        "bubble, exposed TP/PP/DP communication, exposed memory, optimizer and other, the\n"
        "memory per tier and whether it fits, and how far to trust it: the range of measured /\n"
        "predicted time over the published runs of its node with its software (presets/validation)\n"
        "and whether its MFU is above every published run on the node. --json prints the same with\n"
        "stable keys (\"trust\").\n");
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
    const TrustBand band = shipped_trust_band(loaded.value->config, loaded.value->software_info.name);
    const bool mfu_flag = r.feasible && band.mfu_above_published(r.mfu);
    std::string out = json ? format_result_json(*loaded.value, r, band) : format_result_text(*loaded.value, r);
    if (!json) {
        out += "\nTrust     " + format_trust_band(band);
        if (band.validated() && r.feasible) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "; iteration %.3f s to %.3f s", band.low * r.iteration_s, band.high * r.iteration_s);
            out += buf;
        }
        out += "\n";
        if (mfu_flag) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "          MFU %.1f %% is above every published run on this node (highest %.1f %%)\n",
                          100 * r.mfu, 100 * band.max_measured_mfu);
            out += buf;
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return exit_ok;
}

}  // namespace comet::cli

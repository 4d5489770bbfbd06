#include <charconv>
#include <cstdio>
#include <string>

#include "comet/compare.hpp"
#include "comet/scenario.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "run_control.hpp"

namespace comet::cli {
namespace {

void usage() {
    std::printf(
        "Usage: comet-cli compare SCENARIO.comet.json [--baseline N] [--json | --csv]\n\n"
        "Evaluates the designs saved in the scenario's \"comparison\" section (up to four: node,\n"
        "cluster size, and a fixed strategy or \"best\", which searches every strategy) on the\n"
        "scenario's model and batch, and prints each design's iteration time, speedup over the\n"
        "baseline design, MFU, HBM use, strategy and cost (docs/scenario-format.md).\n\n"
        "  --baseline N  index of the baseline design (default: the file's \"baseline\")\n"
        "  --json        the same data as JSON\n"
        "  --csv         one CSV row per design (SI units: s, USD, GiB)\n");
}

int bad(const std::string& message) {
    std::fprintf(stderr, "comet-cli compare: %s\n", message.c_str());
    return exit_bad_input;
}

}  // namespace

int cmd_compare(Args args) {
    bool json = false;
    bool csv = false;
    std::string file;
    int baseline = -1;
    CommandLine cl("comet-cli compare", usage);
    cl.flag("--json", [&] { json = true; });
    cl.flag("--csv", [&] { csv = true; });
    cl.option("--baseline", "--baseline needs the index of a design (0, 1, ...), got ''", [&](const std::string& v) {
        const auto res = std::from_chars(v.data(), v.data() + v.size(), baseline);
        if (v.empty() || res.ec != std::errc() || res.ptr != v.data() + v.size() || baseline < 0)
            return "--baseline needs the index of a design (0, 1, ...), got '" + v + "'";
        return std::string();
    });
    if (const auto done = cl.parse(args)) return *done;
    if (const auto done = cl.single_file(file)) return *done;
    if (json && csv) return bad("--json and --csv exclude each other");
    if (file.empty()) return bad("missing SCENARIO file (usage: comet-cli compare SCENARIO [--baseline N] [--json | --csv])");
    Loaded<Scenario> loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    Scenario& sc = *loaded.value;
    if (sc.designs.empty())
        return bad(file + ": no designs to compare (add a \"comparison\" section with 1 to " + std::to_string(max_designs) +
                   " designs, or use File > Compare in comet-explorer)");
    if (baseline >= 0) {
        if (baseline >= static_cast<int>(sc.designs.size()))
            return bad("--baseline " + std::to_string(baseline) + ": must be the index of a design, 0 to " +
                       std::to_string(sc.designs.size() - 1));
        sc.baseline_design = baseline;
    }
    InterruptGuard interrupt;
    SearchControl control;
    control.cancel = interrupt.flag();
    const Comparison c = compare_designs(sc, SearchOptions{}, control);
    if (c.cancelled || interrupt.interrupted()) {
        std::fprintf(stderr, "comet-cli compare: cancelled\n");
        return exit_cancelled;
    }
    // How far to trust each design (issue 40): its node's and software's published runs.
    const std::vector<TrustBand> bands = trust_bands(load_shipped_validation(), sc, c);
    const std::string out = json  ? format_comparison_json(c, bands)
                            : csv ? format_comparison_csv(c, bands)
                                  : format_comparison_text(c, bands);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return exit_ok;
}

}  // namespace comet::cli

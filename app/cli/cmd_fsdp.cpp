#include <cstdio>
#include <string>
#include <vector>

#include "comet/fsdp.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "cli_options.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace comet::cli {
namespace {

// The largest data-parallel degree --dp accepts (as strategy.dp in a scenario).
constexpr int max_dp = 10000000;

void usage() {
    std::printf(
        "Usage: comet-cli fsdp SCENARIO.comet.json [--dp N,N,...] [--json | --csv]\n\n"
        "FSDP balance (after Wang et al. 2025): with ZeRO-3 every microbatch gathers the weights and\n"
        "reduce-scatters the gradients, whatever its size, while the compute that hides that traffic\n"
        "grows with the tokens in the microbatch. For each data-parallel degree, with the scenario's\n"
        "model, node and strategy (tp, cp, pp, recompute, ...) at ZeRO-3, it prints the tokens per GPU\n"
        "a microbatch needs for its compute to hide the FSDP traffic, the most tokens per GPU whose\n"
        "activations HBM holds, and whether the node design hides FSDP (\"hidden\") or not (\"exposed\").\n\n"
        "  --dp LIST   comma-separated data-parallel degrees, each an integer from 1 to %d\n"
        "              (default: powers of two from 2 to 256 or up to the dp the scenario's\n"
        "              cluster allows, and that dp)\n"
        "  --json      the same data as JSON\n"
        "  --csv       one CSV row per degree (SI units: s, tokens)\n",
        max_dp);
}

int bad(const std::string& message) {
    std::fprintf(stderr, "comet-cli fsdp: %s\n", message.c_str());
    return exit_bad_input;
}

}  // namespace

int cmd_fsdp(Args args) {
    bool json = false;
    bool csv = false;
    std::string file;
    std::vector<int> dps;
    CommandLine cl("comet-cli fsdp", usage);
    cl.flag("--json", [&] { json = true; });
    cl.flag("--csv", [&] { csv = true; });
    cl.option("--dp", "--dp needs a comma-separated list of data-parallel degrees, each an integer from 1 to " + std::to_string(max_dp),
              [&](const std::string& v) { return parse_positive_list("--dp", "data-parallel degrees", max_dp, v, dps); });
    if (const auto done = cl.parse(args)) return *done;
    if (const auto done = cl.single_file(file)) return *done;
    if (json && csv) return bad("--json and --csv exclude each other");
    if (file.empty()) return bad("missing SCENARIO file (usage: comet-cli fsdp SCENARIO [--dp N,N,...] [--json | --csv])");
    const Loaded<Scenario> loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    const Scenario& sc = *loaded.value;
    if (sc.config.workload == Workload::dlrm)
        return bad(file +
                   " trains a DLRM: the FSDP balance weighs a transformer's ZeRO-3 weight gathers against the tokens "
                   "HBM holds, and a DLRM's MLPs are replicated (its tables are sharded instead)");
    if (dps.empty()) dps = fsdp_default_dps(sc.config);
    const std::vector<FsdpPoint> points = fsdp_balance(sc.config, dps);
    const std::string out = json ? format_fsdp_json(sc, points) : csv ? format_fsdp_csv(points) : format_fsdp_text(sc, points);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return exit_ok;
}

}  // namespace comet::cli

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "comet/knobs.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/search.hpp"
#include "comet/units.hpp"
#include "cli_options.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "run_control.hpp"

namespace comet::cli {
namespace {

constexpr int max_top = 1000;

std::string strategy_knob_ids() {
    std::string ids;
    for (const KnobInfo& k : all_knobs())
        if (k.kind == KnobKind::strategy) ids += (ids.empty() ? "" : ", ") + std::string(k.id);
    return ids;
}

void usage() {
    std::printf(
        "Usage: comet-cli search SCENARIO.comet.json [--top K] [--objective time|mfu]\n"
        "                        [--knobs KNOB,KNOB,...] [--no-prune] [--json] [--quiet]\n\n"
        "Searches every valid combination of the strategy knobs for the scenario's model, node,\n"
        "cluster and training settings, and prints the best K strategies, the best one's full\n"
        "breakdown, and how many configurations were evaluated, pruned and infeasible (by reason).\n\n"
        "  --top K          strategies to list, 1 to %d (default 2)\n"
        "  --objective O    time: shortest iteration (default); mfu: highest model FLOP utilisation\n"
        "  --knobs LIST     strategy knobs to vary (default all); the others keep the scenario's value\n"
        "  --no-prune       evaluate every configuration instead of skipping those a lower bound\n"
        "                   proves worse (same answer, slower; for checking)\n"
        "  --json           the same data as JSON (docs/cli.md)\n"
        "  --quiet          no progress bar (it is shown only when stderr is a terminal)\n\n"
        "Strategy knobs: %s\n"
        "Ctrl-C stops the search (exit status 130).\n",
        max_top, strategy_knob_ids().c_str());
}

int bad(const std::string& message) {
    std::fprintf(stderr, "comet-cli search: %s\n", message.c_str());
    return exit_bad_input;
}

// "tp,pp,dp" -> bit set; returns an error message or an empty string.
std::string parse_knobs(std::string_view list, KnobSet& out) {
    KnobSet set = 0;
    while (true) {
        const auto comma = list.find(',');
        const std::string_view id = list.substr(0, comma);
        if (id.empty()) return "--knobs needs a comma-separated list of strategy knobs (" + strategy_knob_ids() + ")";
        const auto k = knob_from_id(id);
        if (!k) return "--knobs: unknown knob '" + std::string(id) + "' (strategy knobs: " + strategy_knob_ids() + ")";
        if (knob_info(*k).kind != KnobKind::strategy)
            return "--knobs: '" + std::string(id) + "' is not a strategy knob (strategy knobs: " + strategy_knob_ids() + ")";
        set |= knob_bit(*k);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    out = set;
    return {};
}

}  // namespace

int cmd_search(Args args) {
    std::string file;
    SearchOptions opt;
    bool json = false, quiet = false;
    CommandLine cl("comet-cli search", usage);
    cl.flag("--json", [&] { json = true; });
    cl.flag("-q,--quiet", [&] { quiet = true; });
    cl.flag("--no-prune", [&] { opt.prune = false; });
    const std::string top_allowed = "--top needs an integer from 1 to " + std::to_string(max_top);
    cl.option("--top", top_allowed, [&](const std::string& v) {
        int k = 0;
        if (!parse_int(v, k) || k < 1 || k > max_top) return top_allowed + ", got '" + v + "'";
        opt.top_k = k;
        return std::string();
    });
    cl.option("--objective", "--objective needs 'time' or 'mfu'", [&](const std::string& v) {
        if (v == "time")
            opt.objective = Objective::time;
        else if (v == "mfu")
            opt.objective = Objective::mfu;
        else
            return "--objective must be 'time' or 'mfu', got '" + v + "'";
        return std::string();
    });
    cl.option("--knobs", "--knobs needs a comma-separated list of strategy knobs (" + strategy_knob_ids() + ")",
              [&](const std::string& v) { return parse_knobs(v, opt.knobs); });
    if (const auto done = cl.parse(args)) return *done;
    if (const auto done = cl.single_file(file)) return *done;
    if (file.empty()) return bad("missing SCENARIO file (usage: comet-cli search SCENARIO [--top K] [--json])");

    const Loaded<Scenario> loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    const Scenario& sc = *loaded.value;

    SearchResult sr;
    {
        InterruptGuard interrupt;
        ProgressBar bar(!quiet && ProgressBar::stderr_is_terminal(), "searching");
        SearchControl control;
        control.cancel = interrupt.flag();
        control.progress = [&bar](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
        sr = search(sc.config, opt, control);
        bar.finish();
        if (sr.cancelled || interrupt.interrupted()) {
            std::fprintf(stderr, "comet-cli search: cancelled\n");
            return exit_cancelled;
        }
    }
    const std::string out = json ? format_search_json(sc, opt, sr) : format_search_text(sc, opt, sr);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return exit_ok;
}

}  // namespace comet::cli

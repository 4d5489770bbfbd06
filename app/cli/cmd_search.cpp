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

std::string knob_names(KnobSet set) {
    std::string out;
    for (const KnobInfo& k : all_knobs())
        if (k.kind == KnobKind::strategy && (set & knob_bit(k.knob))) out += (out.empty() ? "" : ", ") + std::string(k.id);
    return out;
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

std::string stats_text(const SearchStats& st) {
    std::string o = "Search space  " + std::to_string(st.space) + (st.space == 1 ? " configuration: " : " configurations: ") + std::to_string(st.evaluated) +
                    " evaluated, " + std::to_string(st.pruned) + " pruned by a lower bound\n";
    o += "              " + std::to_string(st.feasible) + " feasible, " + std::to_string(st.infeasible_total()) +
         " infeasible\n";
    bool header = false;
    for (std::size_t i = 0; i < st.infeasible.size(); ++i) {
        if (st.infeasible[i] == 0) continue;
        if (!header) o += "Infeasible by reason\n";
        header = true;
        const auto reason = static_cast<Infeasible>(i);
        char buf[256];
        std::snprintf(buf, sizeof buf, "  %-26s %12llu  %s\n", std::string(to_string(reason)).c_str(),
                      static_cast<unsigned long long>(st.infeasible[i]), std::string(describe(reason)).c_str());
        o += buf;
    }
    return o;
}

std::string result_text(const Scenario& sc, const SearchOptions& opt, const SearchResult& sr) {
    std::string o;
    o += "Scenario    " + (sc.name.empty() ? std::string("(unnamed)") : sc.name) + "\n";
    const std::string knobs = (opt.knobs & all_strategy_knobs) == all_strategy_knobs ? "every strategy knob" : knob_names(opt.knobs);
    o += "Search      " + knobs + "; objective " + (opt.objective == Objective::time ? "time" : "mfu") +
         (opt.prune ? "" : "; no pruning") + "\n\n";
    if (!sr.found()) {
        o += "No feasible configuration: every strategy in the search space is infeasible.\n\n";
        return o + stats_text(sr.stats);
    }
    std::size_t width = 8;
    for (const Candidate& c : sr.top) width = std::max(width, format_strategy(c.strategy).size());
    char buf[512];
    std::snprintf(buf, sizeof buf, "%4s  %-*s  %12s  %12s  %7s  %9s\n", "Rank", static_cast<int>(width), "Strategy",
                  "Iteration", "Tokens/s", "MFU", "HBM used");
    o += buf;
    for (std::size_t i = 0; i < sr.top.size(); ++i) {
        const Candidate& c = sr.top[i];
        std::snprintf(buf, sizeof buf, "%4zu  %-*s  %12s  %12.0f  %5.1f %%  %5.1f GiB\n", i + 1, static_cast<int>(width),
                      format_strategy(c.strategy).c_str(), format_seconds(c.result.iteration_s).c_str(), c.result.tokens_per_s,
                      100 * c.result.mfu, units::bytes_to_gib(c.result.hbm.used_bytes()));
        o += buf;
    }
    Scenario best = sc;
    best.config.strategy = sr.top.front().strategy;
    o += "\nBest strategy\n\n" + format_result_text(best, sr.top.front().result) + "\n";
    return o + stats_text(sr.stats);
}

std::string result_json(const Scenario& sc, const SearchOptions& opt, const SearchResult& sr) {
    using nlohmann::ordered_json;
    ordered_json j;
    j["scenario"] = sc.name;
    j["objective"] = opt.objective == Objective::time ? "time" : "mfu";
    ordered_json knobs = ordered_json::array();
    for (const KnobInfo& k : all_knobs())
        if (k.kind == KnobKind::strategy && (opt.knobs & knob_bit(k.knob))) knobs.push_back(k.id);
    j["knobs"] = std::move(knobs);
    j["prune"] = opt.prune;
    j["found"] = sr.found();
    ordered_json top = ordered_json::array();
    for (std::size_t i = 0; i < sr.top.size(); ++i) {
        const Candidate& c = sr.top[i];
        top.push_back({{"rank", i + 1},
                       {"strategy", format_strategy(c.strategy)},
                       {"settings", ordered_json::parse(strategy_to_json(c.strategy))},
                       {"iteration_s", c.result.iteration_s},
                       {"tokens_per_s", c.result.tokens_per_s},
                       {"mfu", c.result.mfu},
                       {"hbm_used_gib", units::bytes_to_gib(c.result.hbm.used_bytes())}});
    }
    j["top"] = std::move(top);
    if (sr.found()) {
        Scenario best = sc;
        best.config.strategy = sr.top.front().strategy;
        j["best"] = ordered_json::parse(format_result_json(best, sr.top.front().result));
    } else {
        j["best"] = nullptr;
    }
    const SearchStats& st = sr.stats;
    ordered_json by_reason = ordered_json::object();
    for (std::size_t i = 0; i < st.infeasible.size(); ++i)
        if (st.infeasible[i] > 0) by_reason[std::string(to_string(static_cast<Infeasible>(i)))] = st.infeasible[i];
    j["stats"] = {{"space", st.space},
                  {"evaluated", st.evaluated},
                  {"pruned", st.pruned},
                  {"feasible", st.feasible},
                  {"infeasible", st.infeasible_total()},
                  {"infeasible_by_reason", std::move(by_reason)}};
    return j.dump(2) + "\n";
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
    const std::string out = json ? result_json(sc, opt, sr) : result_text(sc, opt, sr);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return exit_ok;
}

}  // namespace comet::cli

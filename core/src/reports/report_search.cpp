// comet-cli search's renderings (format_search_text / format_search_json, comet/report.hpp).
#include <algorithm>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "comet/knobs.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/search.hpp"
#include "comet/units.hpp"

namespace comet {
namespace {

std::string knob_names(KnobSet set) {
    std::string out;
    for (const KnobInfo& k : all_knobs())
        if (k.kind == KnobKind::strategy && (set & knob_bit(k.knob))) out += (out.empty() ? "" : ", ") + std::string(k.id);
    return out;
}

std::string stats_text(const SearchStats& st) {
    std::string o = "Search space  " + std::to_string(st.space) + (st.space == 1 ? " configuration: " : " configurations: ") +
                    std::to_string(st.evaluated) + " evaluated, " + std::to_string(st.pruned) + " pruned by a lower bound\n";
    o += "              " + std::to_string(st.feasible) + " feasible, " + std::to_string(st.infeasible_total()) + " infeasible\n";
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

}  // namespace

std::string format_search_text(const Scenario& sc, const SearchOptions& opt, const SearchResult& sr) {
    std::string o;
    o += "Scenario    " + (sc.name.empty() ? std::string("(unnamed)") : sc.name) + "\n";
    const KnobSet own = sc.config.workload == Workload::dlrm ? dlrm_strategy_knobs : transformer_strategy_knobs;
    const std::string knobs = (opt.knobs & own) == own ? "every strategy knob" : knob_names(opt.knobs & own);
    o += "Search      " + knobs + "; objective " + (opt.objective == Objective::time ? "time" : "mfu") + (opt.prune ? "" : "; no pruning") +
         "\n\n";
    if (!sr.found()) {
        o += "No feasible configuration: every strategy in the search space is infeasible.\n\n";
        return o + stats_text(sr.stats);
    }
    std::size_t width = 8;
    const Workload w = sc.config.workload;
    for (const Candidate& c : sr.top) width = std::max(width, format_strategy(c.strategy, w).size());
    char buf[512];
    std::snprintf(buf, sizeof buf, "%4s  %-*s  %12s  %12s  %7s  %9s\n", "Rank", static_cast<int>(width), "Strategy", "Iteration",
                  w == Workload::dlrm ? "Samples/s" : "Tokens/s", "MFU", "HBM used");
    o += buf;
    for (std::size_t i = 0; i < sr.top.size(); ++i) {
        const Candidate& c = sr.top[i];
        std::snprintf(buf, sizeof buf, "%4zu  %-*s  %12s  %12.0f  %5.1f %%  %5.1f GiB\n", i + 1, static_cast<int>(width),
                      format_strategy(c.strategy, w).c_str(), format_seconds(c.result.iteration_s).c_str(), c.result.tokens_per_s,
                      100 * c.result.mfu, units::bytes_to_gib(c.result.hbm.used_bytes()));
        o += buf;
    }
    Scenario best = sc;
    best.config.strategy = sr.top.front().strategy;
    o += "\nBest strategy\n\n" + format_result_text(best, sr.top.front().result) + "\n";
    return o + stats_text(sr.stats);
}

std::string format_search_json(const Scenario& sc, const SearchOptions& opt, const SearchResult& sr) {
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
                       {"strategy", format_strategy(c.strategy, sc.config.workload)},
                       {"settings", ordered_json::parse(strategy_to_json(c.strategy, sc.config.workload))},
                       {"iteration_s", c.result.iteration_s},
                       {"tokens_per_s", c.result.tokens_per_s},
                       {"mfu", c.result.mfu},
                       {"mfu_causal", c.result.mfu_causal},
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
    j["stats"] = {{"space", st.space},       {"evaluated", st.evaluated},           {"pruned", st.pruned},
                  {"feasible", st.feasible}, {"infeasible", st.infeasible_total()}, {"infeasible_by_reason", std::move(by_reason)}};
    return j.dump(2) + "\n";
}

}  // namespace comet

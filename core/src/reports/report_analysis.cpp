// Text and JSON of comet-cli analyze: cost and energy, the sensitivity tornado and the
// time/cost Pareto points (docs/cli.md).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "comet/economics.hpp"
#include "comet/evaluate.hpp"
#include "comet/knobs.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "reports/report_json.hpp"

namespace comet {

namespace {

std::string value_text(double v, std::string_view unit) { return format_printf("%g", v) + (unit.empty() ? "" : " " + std::string(unit)); }

std::string cost_text(const Scenario& sc, const Result& r, const CostReport& c, const CostInputs& in) {
    std::string o = "Scenario    " + (sc.name.empty() ? std::string("(unnamed)") : sc.name) + "\n";
    o += "Strategy    " + format_strategy(sc.config.strategy, sc.config.workload) + "\n\n";
    o += "Cost and energy of the scenario as given\n";
    if (!r.feasible) return o + "  INFEASIBLE: " + explain(r) + " (no cost)\n";
    o += "  Iteration time           " + format_duration(r.iteration_s) + "\n";
    o += "  GPUs / nodes powered     " + std::to_string(c.gpus) + " / " + std::to_string(c.nodes_powered) + "\n";
    o += "  GPU-hour price           " + format_hourly_price(c.gpu_hour_price_usd) +
         (c.amortised ? " (purchase price amortised over " + format_printf("%g", in.lifetime_years) + " years)" : "") + "\n";
    const bool dlrm = sc.config.workload == Workload::dlrm;
    o += std::string(dlrm ? "  Samples per iteration    " : "  Tokens per iteration     ") + format_printf("%.0f", c.tokens_per_iteration) +
         "\n";
    o += "  Per iteration            " + format_printf("%.4g", c.gpu_hours_per_iteration) + " GPU-h, " +
         format_usd(c.cost_per_iteration_usd) + ", " + format_kwh(c.energy_per_iteration_kwh) + "\n";
    o += std::string(dlrm ? "  Per million samples      " : "  Per million tokens       ") + format_duration(c.time_per_million_tokens_s) +
         ", " + format_usd(c.cost_per_million_tokens_usd) + ", " + format_kwh(c.energy_per_million_tokens_kwh) + "\n";
    if (in.tokens_to_train > 0)
        o += "  To train " + format_printf("%.3g", in.tokens_to_train) + (dlrm ? " samples  " : " tokens  ") +
             format_duration(c.time_to_train_s) + ", " + format_usd(c.cost_to_train_usd) + ", " + format_kwh(c.energy_to_train_kwh) + "\n";
    return o;
}

std::string time_or_x(bool feasible, double t) { return feasible ? format_duration(t) : std::string("x"); }

std::string tornado_text(const std::vector<SensitivityBar>& bars, double fraction) {
    std::string o = "\nWhich resource matters: best iteration time with each resource at -" + format_printf("%g", 100 * fraction) +
                    " % and +" + format_printf("%g", 100 * fraction) + " % (largest effect first)\n";
    if (bars.empty() || !bars.front().base_feasible)
        o += "  (no strategy is feasible for the scenario as given)\n";
    else
        o += "  Base (best strategy)     " + format_duration(bars.front().base_time_s) + "\n";
    char buf[512];
    std::snprintf(buf, sizeof buf, "  %-26s %14s %14s %12s %12s %10s\n", "Resource", "Low value", "High value", "Time low", "Time high",
                  "Change");
    o += buf;
    for (const SensitivityBar& b : bars) {
        const KnobInfo& k = knob_info(b.knob);
        std::string change = "-";
        if (std::isinf(b.effect_s))
            change = "feasibility";
        else if (b.base_feasible && b.base_time_s > 0)
            change = format_printf("%.2f", 100 * b.effect_s / b.base_time_s) + " %";
        std::snprintf(buf, sizeof buf, "  %-26s %14s %14s %12s %12s %10s\n", std::string(k.label).c_str(),
                      value_text(b.low_value, k.unit).c_str(), value_text(b.high_value, k.unit).c_str(),
                      time_or_x(b.low_feasible, b.time_low_s).c_str(), time_or_x(b.high_feasible, b.time_high_s).c_str(), change.c_str());
        o += buf;
    }
    return o + "  x = no feasible strategy; Change = largest |time change| relative to the base\n";
}

std::string software_text(const std::vector<SoftwareChange>& changes) {
    if (changes.empty()) return {};
    std::string o = "\nWhich software change buys most: best iteration time with each change (largest gain first)\n";
    if (!changes.front().base_feasible)
        o += "  (no strategy is feasible for the scenario as given)\n";
    else
        o += "  Base (best strategy)     " + format_duration(changes.front().base_time_s) + "\n";
    char buf[512];
    std::snprintf(buf, sizeof buf, "  %-62s %-48s %12s %10s\n", "Change", "Field", "Time", "Change");
    o += buf;
    for (const SoftwareChange& c : changes) {
        std::string change = "-";
        if (c.feasible != c.base_feasible)
            change = "feasibility";
        else if (c.feasible && c.base_time_s > 0)
            change = format_printf("%+.2f", 100 * (c.time_s - c.base_time_s) / c.base_time_s) + " %";
        std::snprintf(buf, sizeof buf, "  %-62s %-48s %12s %10s\n", c.what.c_str(), (c.field + " " + c.from + " -> " + c.to).c_str(),
                      time_or_x(c.feasible, c.time_s).c_str(), change.c_str());
        o += buf;
    }
    return o;
}

std::string pareto_text(const std::vector<ParetoPoint>& points, const CostInputs& in, Workload w) {
    const bool totals = in.tokens_to_train > 0;
    const std::string items = item_name(w);
    std::string o = "\nDesigns and cluster sizes: " +
                    (totals ? "time and cost to train " + format_printf("%.3g", in.tokens_to_train) + " " + items
                            : "time and cost per million " + items + " (no --tokens)") +
                    "\n";
    int width = 7;
    for (const ParetoPoint& p : points) width = std::max(width, static_cast<int>(std::min<std::size_t>(p.label.size(), 60)));
    char buf[512];
    std::snprintf(buf, sizeof buf, "  %-*s %14s %14s %6s  %s\n", width, "Cluster", "Time", "Cost", "Front", "Strategy");
    o += buf;
    for (const ParetoPoint& p : points) {
        std::snprintf(buf, sizeof buf, "  %-*s %14s %14s %6s  %s\n", width, p.label.substr(0, 60).c_str(),
                      p.feasible ? format_duration(p.time_to_train_s).c_str() : "x", p.feasible ? format_usd(p.cost_usd).c_str() : "x",
                      p.on_front ? "*" : "", p.feasible ? format_strategy(p.strategy, w).c_str() : "(no feasible strategy)");
        o += buf;
    }
    return o + "  * = on the Pareto front (nothing else is both faster and cheaper)\n";
}

// The strategy's feasibility and iteration time, then the core's cost object.
nlohmann::ordered_json cost_json(const Result& r, const CostReport& c) {
    nlohmann::ordered_json j = {{"feasible", r.feasible}, {"iteration_s", r.feasible ? r.iteration_s : 0.0}};
    j.update(cost_report_json(c));
    return j;
}

}  // namespace

std::string format_analysis_text(const Scenario& sc, const Result& r, const CostReport& cost, const std::vector<SensitivityBar>& bars,
                                 double fraction, const std::vector<ParetoPoint>& points, const std::vector<SoftwareChange>& software) {
    const CostInputs& in = sc.cost;
    std::string out = cost_text(sc, r, cost, in) + tornado_text(bars, fraction) + software_text(software);
    if (!points.empty()) out += pareto_text(points, in, sc.config.workload);
    return out;
}

std::string format_analysis_json(const Scenario& sc, const Result& r, const CostReport& cost, const std::vector<SensitivityBar>& bars,
                                 double fraction, const std::vector<ParetoPoint>& points, const std::vector<SoftwareChange>& software) {
    const CostInputs& in = sc.cost;
    using nlohmann::ordered_json;
    ordered_json j;
    j["scenario"] = sc.name;
    j["strategy"] = format_strategy(sc.config.strategy, sc.config.workload);
    j["cost"] = cost_json(r, cost);
    j["fraction"] = fraction;
    ordered_json tornado = ordered_json::array();
    for (const SensitivityBar& b : bars)
        tornado.push_back({{"knob", knob_info(b.knob).id},
                           {"base_value", b.base_value},
                           {"low_value", b.low_value},
                           {"high_value", b.high_value},
                           {"base_time_s", b.base_time_s},
                           {"time_low_s", b.time_low_s},
                           {"time_high_s", b.time_high_s},
                           {"base_feasible", b.base_feasible},
                           {"low_feasible", b.low_feasible},
                           {"high_feasible", b.high_feasible},
                           {"changes_feasibility", std::isinf(b.effect_s)},
                           {"effect_s", std::isinf(b.effect_s) ? 0.0 : b.effect_s}});
    j["tornado"] = std::move(tornado);
    ordered_json changes = ordered_json::array();
    for (const SoftwareChange& c : software)
        changes.push_back({{"change", c.what},
                           {"field", c.field},
                           {"from", c.from},
                           {"to", c.to},
                           {"base_feasible", c.base_feasible},
                           {"base_time_s", c.base_time_s},
                           {"feasible", c.feasible},
                           {"time_s", c.time_s}});
    j["software_changes"] = std::move(changes);
    ordered_json pareto = ordered_json::array();
    for (const ParetoPoint& p : points)
        pareto.push_back({{"nodes", p.nodes},
                          {"label", p.label},
                          {"feasible", p.feasible},
                          {"strategy", p.feasible ? format_strategy(p.strategy, sc.config.workload) : std::string()},
                          {"time_s", p.time_to_train_s},
                          {"cost_usd", p.cost_usd},
                          {"on_front", p.on_front}});
    j["pareto_per"] = in.tokens_to_train > 0 ? "training_run" : "million_tokens";
    j["pareto"] = std::move(pareto);
    return j.dump(2) + "\n";
}

}  // namespace comet

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "comet/check.hpp"
#include "comet/compare.hpp"
#include "comet/economics.hpp"
#include "comet/evaluate.hpp"
#include "comet/knobs.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/search.hpp"
#include "cli_options.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace comet::cli {
namespace {

void usage() {
    std::printf(
        "Usage: comet-cli analyze SCENARIO.comet.json [--fraction F] [--price-gpu-hour USD]\n"
        "                         [--purchase-usd USD] [--lifetime-years Y] [--node-power-kw KW]\n"
        "                         [--pue P] [--kwh USD] [--tokens N] [--nodes N,N,...] [--json]\n\n"
        "Prices come from the scenario's \"cost\" section and the node's power_kw; options override them.\n"
        "Prints the cost and energy of the scenario as given (its own strategy), a tornado table\n"
        "(the best iteration time, from a strategy search, with each hardware resource at -F and +F\n"
        "of its value, largest effect first) and, with --nodes, the time and cost to train for each\n"
        "cluster size with the Pareto front marked. Formulas: docs/economics.md.\n\n"
        "  --fraction F         resource change for the tornado, > 0 and at most 0.95 (default 0.1)\n"
        "  --price-gpu-hour USD price per GPU-hour, >= 0 (file, else 0); wins over --purchase-usd\n"
        "  --purchase-usd USD   purchase price per GPU, amortised over the lifetime, >= 0 (file, else 0)\n"
        "  --lifetime-years Y   amortisation lifetime, > 0 (file, else 4)\n"
        "  --node-power-kw KW   power of one node at load, 0 to 10000 (default: the node's power_kw)\n"
        "  --pue P              data-centre power usage effectiveness, >= 1 (file, else 1.2)\n"
        "  --kwh USD            electricity price per kWh, >= 0 (file, else 0.10)\n"
        "  --tokens N           tokens to train, >= 0 (e.g. 3e11; file, else 0 = per-iteration and\n"
        "                       per-million-token figures only)\n"
        "  --nodes LIST         comma-separated node counts, each an integer from 1 to 10000000\n"
        "  --json               the same data as JSON\n");
}

int bad(const std::string& message) {
    std::fprintf(stderr, "comet-cli analyze: %s\n", message.c_str());
    return exit_bad_input;
}

std::string value_text(double v, std::string_view unit) {
    return format_printf("%g", v) + (unit.empty() ? "" : " " + std::string(unit));
}

std::string cost_text(const Scenario& sc, const Result& r, const CostReport& c, const CostInputs& in) {
    std::string o = "Scenario    " + (sc.name.empty() ? std::string("(unnamed)") : sc.name) + "\n";
    o += "Strategy    " + format_strategy(sc.config.strategy) + "\n\n";
    o += "Cost and energy of the scenario as given\n";
    if (!r.feasible) return o + "  INFEASIBLE: " + explain(r) + " (no cost)\n";
    o += "  Iteration time           " + format_duration(r.iteration_s) + "\n";
    o += "  GPUs / nodes powered     " + std::to_string(c.gpus) + " / " + std::to_string(c.nodes_powered) + "\n";
    o += "  GPU-hour price           " + format_usd(c.gpu_hour_price_usd) +
         (c.amortised ? " (purchase price amortised over " + format_printf("%g", in.lifetime_years) + " years)" : "") + "\n";
    o += "  Tokens per iteration     " + format_printf("%.0f", c.tokens_per_iteration) + "\n";
    o += "  Per iteration            " + format_printf("%.4g", c.gpu_hours_per_iteration) + " GPU-h, " +
         format_usd(c.cost_per_iteration_usd) + ", " + format_kwh(c.energy_per_iteration_kwh) + "\n";
    o += "  Per million tokens       " + format_duration(c.time_per_million_tokens_s) + ", " + format_usd(c.cost_per_million_tokens_usd) +
         ", " + format_kwh(c.energy_per_million_tokens_kwh) + "\n";
    if (in.tokens_to_train > 0)
        o += "  To train " + format_printf("%.3g", in.tokens_to_train) + " tokens  " + format_duration(c.time_to_train_s) + ", " +
             format_usd(c.cost_to_train_usd) + ", " + format_kwh(c.energy_to_train_kwh) + "\n";
    return o;
}

std::string time_or_x(bool feasible, double t) { return feasible ? format_duration(t) : std::string("x"); }

std::string tornado_text(const std::vector<SensitivityBar>& bars, double fraction) {
    std::string o = "\nWhich resource matters: best iteration time with each resource at -" + format_printf("%g", 100 * fraction) +
                    " % and +" + format_printf("%g", 100 * fraction) + " % (largest effect first)\n";
    if (bars.empty() || !bars.front().base_feasible) o += "  (no strategy is feasible for the scenario as given)\n";
    else
        o += "  Base (best strategy)     " + format_duration(bars.front().base_time_s) + "\n";
    char buf[512];
    std::snprintf(buf, sizeof buf, "  %-26s %14s %14s %12s %12s %10s\n", "Resource", "Low value", "High value", "Time low",
                  "Time high", "Change");
    o += buf;
    for (const SensitivityBar& b : bars) {
        const KnobInfo& k = knob_info(b.knob);
        std::string change = "-";
        if (std::isinf(b.effect_s)) change = "feasibility";
        else if (b.base_feasible && b.base_time_s > 0) change = format_printf("%.2f", 100 * b.effect_s / b.base_time_s) + " %";
        std::snprintf(buf, sizeof buf, "  %-26s %14s %14s %12s %12s %10s\n", std::string(k.label).c_str(),
                      value_text(b.low_value, k.unit).c_str(), value_text(b.high_value, k.unit).c_str(),
                      time_or_x(b.low_feasible, b.time_low_s).c_str(), time_or_x(b.high_feasible, b.time_high_s).c_str(),
                      change.c_str());
        o += buf;
    }
    return o + "  x = no feasible strategy; Change = largest |time change| relative to the base\n";
}

std::string pareto_text(const std::vector<ParetoPoint>& points, const CostInputs& in) {
    const bool totals = in.tokens_to_train > 0;
    std::string o = "\nDesigns and cluster sizes: " +
                    (totals ? "time and cost to train " + format_printf("%.3g", in.tokens_to_train) + " tokens"
                            : std::string("time and cost per million tokens (no --tokens)")) + "\n";
    int width = 7;
    for (const ParetoPoint& p : points) width = std::max(width, static_cast<int>(std::min<std::size_t>(p.label.size(), 60)));
    char buf[512];
    std::snprintf(buf, sizeof buf, "  %-*s %14s %14s %6s  %s\n", width, "Cluster", "Time", "Cost", "Front", "Strategy");
    o += buf;
    for (const ParetoPoint& p : points) {
        std::snprintf(buf, sizeof buf, "  %-*s %14s %14s %6s  %s\n", width, p.label.substr(0, 60).c_str(),
                      p.feasible ? format_duration(p.time_to_train_s).c_str() : "x", p.feasible ? format_usd(p.cost_usd).c_str() : "x",
                      p.on_front ? "*" : "", p.feasible ? format_strategy(p.strategy).c_str() : "(no feasible strategy)");
        o += buf;
    }
    return o + "  * = on the Pareto front (nothing else is both faster and cheaper)\n";
}

// The strategy's feasibility and iteration time, then the core's cost object.
nlohmann::ordered_json cost_json(const Result& r, const CostReport& c) {
    nlohmann::ordered_json j = {{"feasible", r.feasible}, {"iteration_s", r.feasible ? r.iteration_s : 0.0}};
    j.update(nlohmann::ordered_json::parse(format_cost_json(c)));
    return j;
}

}  // namespace

int cmd_analyze(Args args) {
    std::string file;
    // Options override the scenario's "cost" section and its node's power.
    struct Override {
        const char* option;
        const char* path;  // as check_cost_inputs / check_config name it
        const char* allowed;
        std::optional<double> value;
    };
    std::array<Override, 7> overrides{{
        {"--price-gpu-hour", "cost.price_per_gpu_hour_usd", "a price in USD >= 0", {}},
        {"--purchase-usd", "cost.purchase_price_per_gpu_usd", "a price in USD >= 0", {}},
        {"--lifetime-years", "cost.lifetime_years", "a number of years > 0", {}},
        {"--node-power-kw", "node.power_kw", "a power in kW >= 0", {}},
        {"--pue", "cost.pue", "a number >= 1", {}},
        {"--kwh", "cost.price_per_kwh_usd", "a price in USD per kWh >= 0", {}},
        {"--tokens", "cost.tokens_to_train", "a token count >= 0 (e.g. 3e11)", {}},
    }};
    double fraction = 0.1;
    std::vector<int> nodes;
    bool json = false;
    CommandLine cl("comet-cli analyze", usage);
    // "--opt needs ALLOWED[, got 'v']": a finite number written in full.
    const auto number = [](const std::string& option, const char* allowed, const std::string& v, double& out) {
        if (!parse_double(v, out)) return option + " needs " + allowed + ", got '" + v + "'";
        return std::string();
    };
    cl.flag("--json", [&] { json = true; });
    cl.option("--fraction", "--fraction needs a number > 0 and at most 0.95", [&](const std::string& v) {
        std::string problem = number("--fraction", "a number > 0 and at most 0.95", v, fraction);
        if (problem.empty() && !(fraction > 0 && fraction <= 0.95))
            problem = "--fraction needs a number > 0 and at most 0.95, got '" + v + "'";
        return problem;
    });
    for (Override& o : overrides)
        cl.option(o.option, std::string(o.option) + " needs " + o.allowed, [&o, &number](const std::string& v) {
            double x = 0;
            std::string problem = number(o.option, o.allowed, v, x);
            o.value = x;
            return problem;
        });
    cl.option("--nodes", "--nodes needs a comma-separated list of node counts, each an integer from 1 to 10000000",
              [&](const std::string& v) { return parse_nodes(v, nodes); });
    if (const auto done = cl.parse(args)) return *done;
    if (const auto done = cl.single_file(file)) return *done;
    if (file.empty()) return bad("missing SCENARIO file (usage: comet-cli analyze SCENARIO [--fraction F] [--nodes LIST])");
    Loaded<Scenario> loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    Scenario& sc = *loaded.value;
    CostInputs& in = sc.cost;
    double* const fields[] = {&in.price_per_gpu_hour_usd, &in.purchase_price_per_gpu_usd, &in.lifetime_years,
                              &sc.config.node.power_kw, &in.pue, &in.price_per_kwh_usd, &in.tokens_to_train};
    for (std::size_t k = 0; k < overrides.size(); ++k)
        if (overrides[k].value) *fields[k] = *overrides[k].value;
    // The file was valid, so a problem now comes from an option: name it.
    std::vector<FieldError> errors = check_cost_inputs(in);
    for (FieldError& e : check_config(sc.config))
        if (e.path == "node.power_kw") errors.push_back(std::move(e));
    for (const FieldError& e : errors)
        for (const Override& o : overrides)
            if (o.value && e.path == o.path)
                return bad(std::string(o.option) + " " + format_printf("%g", e.value) + ": must be " + e.allowed + " (" + e.path + ")");
    const SearchOptions opt;
    const Result r = evaluate(sc.config);
    const CostReport cost = cost_report(sc.config, r, in);
    const std::vector<SensitivityBar> bars = sensitivity(sc.config, fraction, opt);
    std::vector<ParetoPoint> points;
    if (!nodes.empty() || !sc.designs.empty()) points = pareto_over_designs(sc, nodes, opt);

    std::string out;
    if (json) {
        using nlohmann::ordered_json;
        ordered_json j;
        j["scenario"] = sc.name;
        j["strategy"] = format_strategy(sc.config.strategy);
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
        ordered_json pareto = ordered_json::array();
        for (const ParetoPoint& p : points)
            pareto.push_back({{"nodes", p.nodes},
                              {"label", p.label},
                              {"feasible", p.feasible},
                              {"strategy", p.feasible ? format_strategy(p.strategy) : std::string()},
                              {"time_s", p.time_to_train_s},
                              {"cost_usd", p.cost_usd},
                              {"on_front", p.on_front}});
        j["pareto_per"] = in.tokens_to_train > 0 ? "training_run" : "million_tokens";
        j["pareto"] = std::move(pareto);
        out = j.dump(2) + "\n";
    } else {
        out = cost_text(sc, r, cost, in) + tornado_text(bars, fraction);
        if (!points.empty()) out += pareto_text(points, in);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return exit_ok;
}

}  // namespace comet::cli

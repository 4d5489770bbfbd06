#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
    double* const fields[] = {&in.price_per_gpu_hour_usd,
                              &in.purchase_price_per_gpu_usd,
                              &in.lifetime_years,
                              &sc.config.node.power_kw,
                              &in.pue,
                              &in.price_per_kwh_usd,
                              &in.tokens_to_train};
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
    const std::vector<SoftwareChange> software = software_changes(sc.config, opt);
    std::vector<ParetoPoint> points;
    if (!nodes.empty() || !sc.designs.empty()) points = pareto_over_designs(sc, nodes, opt);

    const std::string out = json ? format_analysis_json(sc, r, cost, bars, fraction, points, software)
                                 : format_analysis_text(sc, r, cost, bars, fraction, points, software);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return exit_ok;
}

}  // namespace comet::cli

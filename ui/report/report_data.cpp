// The computing half of the report: core calls only, so that it can run on a worker thread.

#include <algorithm>
#include <cmath>

#include "comet/evaluate.hpp"
#include "common/axis_defaults.hpp"
#include "common/validation_status.hpp"
#include "report/report.hpp"

namespace comet::ui {

SweepSpec report_sweep_spec(const Config& config, const ReportOptions& options) {
    return sweep_around(config, options.x, options.y, std::clamp(options.steps, report_min_steps, report_max_steps), options.search_cells);
}

ReportData compute_report_data(const Scenario& scenario, const ReportOptions& options, const std::atomic<bool>* cancel) {
    ReportData d;
    d.scenario = scenario;
    d.options = options;
    const Config& config = scenario.config;
    // Each step below is short (milliseconds to a second); the searches and the sweep also stop
    // inside, the tornado and the Pareto points only between steps (they take no cancel flag).
    const auto stop = [&](bool step_cancelled = false) {
        d.cancelled = d.cancelled || step_cancelled || (cancel && cancel->load(std::memory_order_relaxed));
        return d.cancelled;
    };
    SearchOptions search_options;
    search_options.top_k = 1;  // only the best is shown
    SearchControl control;
    control.cancel = cancel;

    std::vector<std::string> preset_errors;
    const auto node_presets = load_node_presets(preset_errors);
    d.validation = validation_text_for(shipped_validation(), config.node, node_presets);
    d.software_validation = software_validation_text_for(shipped_validation(), config.software, load_software_presets(preset_errors),
                                                         config.node, node_presets);
    d.band = shipped_trust_band(config.node, config.software, scenario.software_info.name);
    if (stop()) return d;
    d.current = evaluate(config);
    d.cost = cost_report(config, d.current, scenario.cost);
    const SearchResult found = search(config, search_options, control);
    if (stop(found.cancelled)) return d;
    d.best = best_or_reason(config, found);
    Config best_config = config;
    best_config.strategy = d.best->strategy;
    d.best_cost = cost_report(best_config, d.best->result, scenario.cost);

    if (options.with_grid) {
        d.spec = report_sweep_spec(config, options);
        d.grid = run_sweep(config, d.spec, control);
        if (stop(d.grid.cancelled)) return d;
    }
    if (options.with_comparison && !scenario.designs.empty()) {
        d.comparison = compare_designs(scenario, search_options, control);
        if (stop(d.comparison.cancelled)) return d;
        d.design_bands = trust_bands(shipped_validation_and_presets(), scenario, d.comparison);
    }
    d.tornado = sensitivity(config, options.fraction, search_options);
    if (stop()) return d;
    d.software = software_changes(config, search_options, control);
    if (stop()) return d;
    d.pareto = pareto_over_designs(scenario, options.pareto_nodes, search_options);
    stop();
    return d;
}

}  // namespace comet::ui

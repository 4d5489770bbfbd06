#pragma once
// Economics of a training configuration: what an iteration and a training run cost in money
// and energy, which hardware resource matters most (tornado sensitivity), and which cluster
// size gives the best time/cost trade-off (Pareto front). Formulas: docs/economics.md.

#include <string>
#include <vector>

#include "comet/check.hpp"
#include "comet/knobs.hpp"
#include "comet/result.hpp"
#include "comet/search.hpp"
#include "comet/spec.hpp"

namespace comet {

inline constexpr double hours_per_year = 365.25 * 24.0;  // 8766 h, used for amortisation

// CostInputs (prices, PUE, token budget) is in spec.hpp; the power per node is NodeSpec::power_kw.

// Every number is 0 when `valid` is false (infeasible result or invalid inputs).
struct CostReport {
    bool valid = false;
    bool amortised = false;           // the GPU price comes from the purchase price
    long long gpus = 0;               // tp * pp * dp
    long long nodes_powered = 0;      // ceil(gpus / accelerators per node)
    double gpu_hour_price_usd = 0;    // the price per GPU-hour used
    double tokens_per_iteration = 0;  // global batch * seq_len
    double gpu_hours_per_iteration = 0;
    double gpu_cost_per_iteration_usd = 0;
    double energy_per_iteration_kwh = 0;
    double energy_cost_per_iteration_usd = 0;
    double cost_per_iteration_usd = 0;  // GPU cost + energy cost
    double time_per_million_tokens_s = 0;
    double cost_per_million_tokens_usd = 0;
    double energy_per_million_tokens_kwh = 0;
    double time_to_train_s = 0;  // 0 when tokens_to_train is 0
    double cost_to_train_usd = 0;
    double energy_to_train_kwh = 0;
};

// Problems with the inputs, each naming the field ("cost.pue = 0.9: must be at least 1").
[[nodiscard]] std::vector<FieldError> check_cost_inputs(const CostInputs& in);
// `result` must be the evaluation of `config` (or of config with the strategy that produced it).
[[nodiscard]] CostReport cost_report(const Config& config, const Result& result, const CostInputs& in);

// One bar of a tornado chart: the best iteration time with one resource at (1 - fraction) and
// (1 + fraction) times its base value. A time is 0 when its side is infeasible.
struct SensitivityBar {
    Knob knob = Knob::matrix_tflops;
    double base_value = 0;
    double low_value = 0;   // base * (1 - fraction)
    double high_value = 0;  // base * (1 + fraction)
    double time_low_s = 0;
    double time_high_s = 0;
    double base_time_s = 0;
    bool low_feasible = false;
    bool high_feasible = false;
    bool base_feasible = false;
    // max(|time_low - base|, |time_high - base|); +infinity when one side changes feasibility.
    double effect_s = 0;
};

// The resources a tornado varies (expanded_* only when the base has an expanded tier, the
// spine's oversubscription only on a leaf-spine fabric).
[[nodiscard]] std::vector<Knob> sensitivity_knobs(const Config& base);
// Bars sorted by effect, largest first (ties keep the order of sensitivity_knobs). Uses
// comet::search with `search` (top_k forced to 1). Empty when fraction is outside (0, 0.95].
[[nodiscard]] std::vector<SensitivityBar> sensitivity(const Config& base, double fraction, const SearchOptions& search);

// One software change and the best iteration time it gives (which software change buys most).
struct SoftwareChange {
    std::string what;      // "the whole step as CUDA graphs, dispatch sizes on the device"
    std::string field;     // the software field it switches, e.g. "software.graph_scope"
    std::string from, to;  // that field's values, as the scenario file writes them
    bool base_feasible = false;
    double base_time_s = 0;
    bool feasible = false;  // a strategy runs with the change
    double time_s = 0;      // the best iteration time with it
};

// The software switches that differ from `base` and apply to its workload (CUDA graphs over
// the dense layers or the whole step, one grouped expert kernel, dispatch sizes on the device,
// the vendor's attention kernel instead of FlashAttention-2), each priced by comet::search
// (top_k forced to 1); the largest gain first. Empty when every switch is already on.
// `control.cancel` stops it: then nothing is returned.
[[nodiscard]] std::vector<SoftwareChange> software_changes(const Config& base, const SearchOptions& search,
                                                           const SearchControl& control = {});

struct ParetoPoint {
    std::string label;
    double time_to_train_s = 0;
    double cost_usd = 0;
    bool on_front = false;
    bool feasible = true;                       // infeasible points are never on the front
    std::string design;                         // the design's name (pareto_over_designs)
    int nodes = 0;                              // set by pareto_over_cluster_sizes
    Strategy strategy;                          // the best strategy found (pareto_over_cluster_sizes)
    Workload workload = Workload::transformer;  // what the strategy trains (for its rendering)
};

// Marks the points no other feasible point dominates (minimise both; a point dominates another
// when it is no worse in both and better in one, so equal points are all on the front).
// Returns every point, in input order.
[[nodiscard]] std::vector<ParetoPoint> pareto_front(const std::vector<ParetoPoint>& points);

// Best strategy per node count, then its time and cost to train tokens_to_train tokens (or,
// when tokens_to_train is 0, the time and cost of one million tokens). Front marked.
[[nodiscard]] std::vector<ParetoPoint> pareto_over_cluster_sizes(const Config& base, const std::vector<int>& node_counts,
                                                                 const CostInputs& in, const SearchOptions& search);

}  // namespace comet

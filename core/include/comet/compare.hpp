#pragma once
// Side-by-side comparison of up to four designs (node, cluster size, strategy or "best
// strategy") training the same model with the same batch: each design's result, its speedup over
// a baseline design, and its cost. The designs and the baseline are saved in the scenario.

#include <string>
#include <vector>

#include "comet/economics.hpp"
#include "comet/scenario.hpp"
#include "comet/search.hpp"
#include "comet/validation.hpp"

namespace comet {

struct DesignOutcome {
    std::string name;
    bool best_strategy = true;  // the strategy was searched
    Config config;              // what was evaluated, with the strategy used (the best found)
    Result result;              // infeasible with a reason when the design cannot run
    // baseline iteration time / this iteration time: > 1 = faster than the baseline. 0 when
    // this design or the baseline is infeasible.
    double speedup = 0;
    CostReport cost;  // with the scenario's cost inputs and the design's node power
};

struct Comparison {
    std::vector<DesignOutcome> designs;  // in the scenario's order
    int baseline = 0;
    bool cancelled = false;  // control.cancel was set; designs may be incomplete
};

// Evaluates (or searches, with `options`) every design of the scenario. Never throws.
[[nodiscard]] Comparison compare_designs(const Scenario& s, const SearchOptions& options = {}, const SearchControl& control = {});

// Time to train against cost (or, without a token budget, per million tokens), front marked
// over all points. With no node counts: each design as it is (its size, its strategy or the best
// one), labelled with its name. With node counts: each distinct node of the designs at every
// count with its best strategy, labelled "<node name>, <n> nodes (<g> GPUs)". A scenario without
// designs stands for itself as the design "current" (best strategy).
[[nodiscard]] std::vector<ParetoPoint> pareto_over_designs(const Scenario& s, const std::vector<int>& node_counts,
                                                           const SearchOptions& options = {});

// How far to trust each design's answer (issue 40): the band of its node and software (the
// design's own software named by its software_info, else the scenario's), one per design of `c`.
[[nodiscard]] std::vector<TrustBand> trust_bands(const ShippedValidation& shipped, const Scenario& s, const Comparison& c);

// A table for people and a JSON document for scripts; `bands` (one per design, may be empty)
// add each design's band and MFU flag.
[[nodiscard]] std::string format_comparison_text(const Comparison& c, const std::vector<TrustBand>& bands = {});
[[nodiscard]] std::string format_comparison_json(const Comparison& c, const std::vector<TrustBand>& bands = {});
// One row per design with a header; names quoted as RFC 4180 asks; numbers in SI units
// (seconds, USD, GiB per accelerator). Infeasible designs have empty numbers and a reason. The
// trust columns (runs, basis, likely_low, likely_high as measured / predicted time,
// mfu_above_published) are empty without `bands`.
[[nodiscard]] std::string format_comparison_csv(const Comparison& c, const std::vector<TrustBand>& bands = {});

}  // namespace comet

#pragma once
// Sweeps: one or two axes over any knob, each cell evaluated as given or with the best strategy
// searched for it. Cells are evaluated in parallel; results do not depend on the thread count.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "comet/knobs.hpp"
#include "comet/result.hpp"
#include "comet/search.hpp"

namespace comet {

struct Axis {
    Knob knob = Knob::tp;
    std::vector<double> values;
};

// Value lists: `steps` values from `from` to `to` inclusive, evenly spaced or geometric.
[[nodiscard]] std::vector<double> linear_values(double from, double to, int steps);
[[nodiscard]] std::vector<double> log_values(double from, double to, int steps);

struct SweepSpec {
    Axis x;
    std::optional<Axis> y;
    bool search = false;           // search the best strategy in every cell
    SearchOptions search_options;  // the axes' own strategy knobs are never searched
};

struct SweepCell {
    double x = 0;
    double y = 0;
    Strategy strategy;  // evaluated (searched or as given)
    Result result;      // best feasible when searching; otherwise the evaluation
    bool has_runner_up = false;
    Strategy runner_up_strategy;
    double runner_up_iteration_s = 0;
    std::uint64_t evaluated = 0;   // configurations evaluated for this cell
    std::uint64_t infeasible = 0;  // of those, infeasible
};

struct SweepResult {
    int nx = 0;
    int ny = 1;
    std::vector<SweepCell> cells;               // row-major: cell (ix, iy) at iy * nx + ix
    Workload workload = Workload::transformer;  // what the cells' strategies train (for their rendering)
    bool cancelled = false;
    [[nodiscard]] const SweepCell& at(int ix, int iy) const {
        return cells[static_cast<std::size_t>(iy) * static_cast<std::size_t>(nx) + static_cast<std::size_t>(ix)];
    }
};

[[nodiscard]] SweepResult run_sweep(const Config& base, const SweepSpec& spec, const SearchControl& control = {});

}  // namespace comet

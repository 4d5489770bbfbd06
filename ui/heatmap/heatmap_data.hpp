#pragma once
// What the heatmap shows: one value per cell (NaN when infeasible) on two labelled axes.
// Built from a SweepResult by make_heatmap_data(); consumed by HeatmapGeometry/HeatmapWidget.

#include <QMetaType>
#include <QString>
#include <optional>
#include <span>
#include <vector>

#include "common/metrics.hpp"
#include "comet/sweep.hpp"

namespace comet::ui {

struct HeatmapCell {
    double value = 0;      // in the metric's unit; NaN = infeasible
    QString reason;        // for infeasible cells: why (from comet::explain)
    QString tooltip;       // multi-line breakdown shown on hover
    bool feasible = true;  // false with a finite value: HBM use of a configuration that does not fit
};

struct CellIndex {
    int ix = 0;
    int iy = 0;
    bool operator==(const CellIndex&) const = default;
};

struct HeatmapData {
    QString title_suffix;  // e.g. "best strategy per cell", shown after the metric in the title
    int nx = 0;
    int ny = 0;
    std::vector<double> x_values;  // axis values, size nx
    std::vector<double> y_values;  // size ny (1 for a 1-D sweep)
    QString x_label;               // "HBM bandwidth (GB/s)"
    QString y_label;
    bool x_log = false;  // axis values are geometric
    bool y_log = false;
    bool x_continuous = false;  // the knob takes any value (not a count): ticks at round values
    bool y_continuous = false;
    std::vector<HeatmapCell> cells;  // row-major: (ix, iy) at iy * nx + ix
    Metric metric = Metric::iteration_time;
    Workload workload = Workload::transformer;  // what the cells train (throughput in tokens or samples)
    std::optional<CellIndex> current;           // the configuration being edited, when on the grid
    std::optional<CellIndex> best;              // best feasible cell for the metric
    // Why no cell has a value although some run (a cost metric without a token budget or a
    // price): drawn over the cells and said in the summary; empty otherwise.
    QString note;
    // The difference view (make_relative()): every value is the metric's change against the
    // current cell's value, as a fraction (-0.25 = 25 % less); `baseline` is that value.
    bool relative = false;
    double baseline = 0;
    // A categorical map (Metric::strategy_family): the names of the categories, most cells
    // first; a cell's value is its index. Empty for a numeric metric.
    std::vector<QString> categories;

    [[nodiscard]] const HeatmapCell& at(int ix, int iy) const {
        return cells[static_cast<std::size_t>(iy) * static_cast<std::size_t>(nx) + static_cast<std::size_t>(ix)];
    }
};

// What the cost metrics (cost per M tokens, time to train) need besides a cell's result: the
// configuration the grid is around (each cell's axis values and strategy are set on it, so a
// node-count axis prices its GPUs) and the scenario's prices and token budget. The one price of
// the scenario's node, as on every other page (docs/economics.md).
struct HeatmapCost {
    Config config;
    CostInputs inputs;
};

// Values, reasons, tooltips, and the best cell of a sweep; `current` is the cell whose axis
// values equal the edited configuration's (if any). A cost metric without `cost` has no value in
// any cell (the reason says so).
[[nodiscard]] HeatmapData make_heatmap_data(const SweepSpec& spec, const SweepResult& result, Metric metric,
                                            std::optional<CellIndex> current, const HeatmapCost* cost = nullptr);

// The difference view of a map: every value becomes its change against the current cell's (the
// configuration being edited, priced as every other cell: the same search, the same strategy
// rule), so that 'how much faster than what we have' is read off the colours. The colours keep
// the metric's direction (for a time, -30 % is the bright end). Without a current cell on the
// grid, or with one that cannot run, no cell has a value and the note says why.
void make_relative(HeatmapData& d);
// A value as the map shows it: the metric's format ("3.81 s"), or "-23.4 %" in the difference view.
[[nodiscard]] QString format_heatmap_value(const HeatmapData& d, double v);
// What the colours are: "Iteration time", or "Iteration time vs the current cell" in the difference view.
[[nodiscard]] QString heatmap_value_label(const HeatmapData& d);

// The cell of `config` on the grid of `spec`, if its knob values are on both axes (compared
// with a relative tolerance: axis values come from arithmetic, the configuration's from a file).
[[nodiscard]] std::optional<CellIndex> cell_of(const SweepSpec& spec, const Config& config);

// "HBM bandwidth (GB/s)", "Tensor parallelism": the knob's label, capitalised, with its unit.
[[nodiscard]] QString axis_title(Knob knob);
// Axis tick text: "6.25", "1189", "131072"; at most three significant digits below 100.
[[nodiscard]] QString format_axis_value(double v);
// True when the values are positive and evenly spaced on a log scale (at least three of them).
[[nodiscard]] bool is_geometric(std::span<const double> values);
// One paragraph for screen readers: grid size, feasible cells, the metric's range and the best cell.
[[nodiscard]] QString summarize(const HeatmapData& d);

}  // namespace comet::ui

Q_DECLARE_METATYPE(comet::ui::CellIndex)

#pragma once
// The one-click PDF report of a scenario: summary and assumptions, heatmap, breakdown, memory,
// comparison of designs, sensitivity and cost. In two halves so that the GUI can compute off its
// thread and paint on it:
//   1. compute_report_data(): core calls only (no Qt widgets); safe on any thread, cancellable.
//   2. write_report_pdf(): paints charts and text into a multi-page PDF; GUI thread only (it
//      creates chart widgets, so a QApplication must exist).
// `comet-cli report` runs both in a row.

#include <QString>
#include <atomic>
#include <optional>
#include <vector>

#include "comet/compare.hpp"
#include "comet/validation.hpp"
#include "comet/economics.hpp"
#include "comet/scenario.hpp"
#include "comet/search.hpp"
#include "comet/sweep.hpp"
#include "common/metrics.hpp"
#include "heatmap/heatmap_data.hpp"

namespace comet::ui {

// Limits of ReportOptions (the explorer's own ranges); compute_report_data clamps `steps` and
// sensitivity() returns no bars for a fraction outside them.
inline constexpr int report_min_steps = 2;
inline constexpr int report_max_steps = 128;
inline constexpr double report_max_fraction = 0.95;  // > 0 and at most this (comet::sensitivity)

struct ReportOptions {
    Knob x = Knob::hbm_gbps;  // heatmap axes, valued by default_axis() around the scenario
    Knob y = Knob::scale_out_gbps;
    Metric metric = Metric::iteration_time;  // what the heatmap colours show
    int steps = 17;                          // cells per axis for continuous knobs
    bool search_cells = true;                // best strategy in every heatmap cell (else the scenario's)
    double fraction = 0.1;                   // tornado: each resource at -fraction and +fraction
    std::vector<int> pareto_nodes;           // node counts for the Pareto chart; empty = each design as is
    // The Cost & Sensitivity page needs neither the grid nor the comparison (it has its own).
    bool with_grid = true;
    bool with_comparison = true;
};

struct ReportData {
    Scenario scenario;
    ReportOptions options;
    Result current;                 // the scenario's strategy as given
    std::optional<Candidate> best;  // best strategy on the scenario's own node and size; its
                                    // result says why when nothing fits (comet::best_or_reason)
    CostReport cost;                // of the strategy as given
    CostReport best_cost;           // of the best strategy
    SweepSpec spec;
    SweepResult grid;
    Comparison comparison;  // empty when the scenario has no designs
    std::vector<SensitivityBar> tornado;
    std::vector<ParetoPoint> pareto;
    // How the scenario's node validates against published runs (common/validation_status.hpp):
    // "DGX H100: 6 published runs, mean error ...", or that it is not validated.
    QString validation;
    QString software_validation;  // the software's validation, over every hardware and on this node
    // How far to trust the scenario's answers and each compared design's (issue 40): the
    // published runs of the node with the software (core trust_band); one per comparison design.
    TrustBand band;
    std::vector<TrustBand> design_bands;
    // Which software change buys most (core software_changes, issue 38): each switch the
    // scenario's software does not have yet, priced by the search, largest gain first.
    std::vector<SoftwareChange> software;
    bool cancelled = false;  // stopped early: the fields after the last one computed are empty
};

// The heatmap grid of a report: default_axis() for both knobs around `config`, as the explorer
// builds it (one axis when x == y).
[[nodiscard]] SweepSpec report_sweep_spec(const Config& config, const ReportOptions& options);

// Everything the report shows. Thread-safe and Qt-widget-free: call it from a worker thread.
// `cancel` is checked between the steps and inside the searches and the sweep.
[[nodiscard]] ReportData compute_report_data(const Scenario& scenario, const ReportOptions& options,
                                             const std::atomic<bool>* cancel = nullptr);

// "COMET Explorer report — <model> on <nodes> x <node>" of the configuration as it is now: the
// PDF's title and every page's header.
[[nodiscard]] QString report_title(const ReportData& data);
// Pages write_report_pdf() writes: summary, heatmap, comparison (only with designs), sensitivity & cost.
[[nodiscard]] int report_page_count(const ReportData& data);

// Writes the report as an A4 landscape PDF (vector). GUI thread, with a QApplication. Returns an
// empty string on success, otherwise why not, naming `path`. Written to a temporary file beside
// `path` and renamed, so a failure leaves any existing file as it was. Refuses cancelled data.
[[nodiscard]] QString write_report_pdf(const ReportData& data, const QString& path);

}  // namespace comet::ui

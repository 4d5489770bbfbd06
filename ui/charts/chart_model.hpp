#pragma once
// What the charts show, computed without any chart library: values in display units, colours,
// legend entries, axis ranges, the text drawn on the bars and points, and the tooltips.
// The Qt Charts views only copy these numbers into series, so they are unit-tested here.

#include <QColor>
#include <QFontMetricsF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <cstddef>
#include <span>
#include <vector>

#include "chart_data.hpp"
#include "comet/economics.hpp"
#include "comet/fsdp.hpp"

namespace comet::ui {

// A segment carries its value as text only when it spans at least this share of the axis.
inline constexpr double segment_label_min_share = 0.06;

struct StackCategory {
    QString name;  // legend text, e.g. "DP comm"
    QColor color;
};

// Fixed order and colours (Okabe-Ito, colour-blind safe, and two darker ones from Paul Tol's
// scheme), the same for every update so that a category keeps its colour while knobs move.
// Time: compute, pipeline bubble, TP, PP, DP comm, EP all-to-all, CP ring exchange, memory,
// optimizer, other (the parts of TimeBreakdown, which add up to the iteration time).
[[nodiscard]] std::span<const StackCategory> time_categories();
[[nodiscard]] std::span<const StackCategory> memory_categories();  // weights … other

struct StackSeries {
    QString name;
    QColor color;
    std::vector<double> values;           // one per bar, in display units
    std::vector<QString> segment_labels;  // one per bar; empty where the segment is too small
    bool all_zero = true;                 // omitted from the legend
};

struct ValueAxisModel {
    QString title;         // "Iteration time (s)"
    double max = 1;        // the axis runs from min to max
    int tick_count = 2;    // including min and max
    QString label_format;  // printf-style, "%.0f"
    double min = 0;
};

// Stacked horizontal bars: series[c].values[b] is category c of bar b.
struct StackedBarsModel {
    std::vector<QString> bar_labels;
    std::vector<QString> bar_short_labels;  // per bar, for rows too short for the label; may be empty
    std::vector<StackSeries> series;        // every category, in the fixed order
    std::vector<double> totals;             // per bar, display units
    std::vector<QString> total_labels;      // per bar, drawn at the bar's end, e.g. "101 s"
    ValueAxisModel axis;
    QString empty_message;  // shown instead of bars when there are none; empty = "No data"

    [[nodiscard]] bool empty() const noexcept { return bar_labels.empty(); }
    [[nodiscard]] std::size_t bar_count() const noexcept { return bar_labels.size(); }
    [[nodiscard]] std::vector<QString> legend_names() const;  // non-zero categories, in order
};

struct BreakdownSeriesModel : StackedBarsModel {
    QString unit = QStringLiteral("s");  // "s" or "ms", chosen from the largest total
    double per_second = 1;               // display units per second
};

struct MemorySeriesModel : StackedBarsModel {
    std::vector<double> capacity_gib;  // per tier; 0 = capacity unknown, no marker
    std::vector<bool> over_capacity;   // per tier
    QString title_suffix;              // "HBM exceeds capacity by 12.3 GiB", empty when all fit

    [[nodiscard]] bool any_over_capacity() const;
};

[[nodiscard]] BreakdownSeriesModel build_breakdown_model(const std::vector<BreakdownBar>& bars);
[[nodiscard]] MemorySeriesModel build_memory_model(const std::vector<MemoryBar>& tiers);

// Hover text for one segment: "tp4 (pinned)\nDP comm: 0.54 s (0.5 %)".
[[nodiscard]] QString segment_tooltip(const BreakdownSeriesModel& m, std::size_t category, std::size_t bar);
[[nodiscard]] QString segment_tooltip(const MemorySeriesModel& m, std::size_t category, std::size_t bar);

// A value axis from 0 to a round number at or above `largest` (1, 2, 2.5 or 5 times 10^k), in at
// most `max_intervals` steps.
[[nodiscard]] ValueAxisModel nice_axis(double largest, const QString& title, int max_intervals = 5);
// A value axis over [lo, hi] plus a little room on both sides, with round ends and steps; it does
// not go below 0 when lo is not negative.
[[nodiscard]] ValueAxisModel nice_range(double lo, double hi, const QString& title, int max_intervals = 5);

// Display-unit number with about three significant digits and no trailing zeros:
// "101", "87.2", "5.83", "0.56", "80".
[[nodiscard]] QString format_amount(double v);

// A bar label shortened to `budget` pixels: cut at the end, but a short trailing group such as
// "(pinned)" stays whole, since it tells the bars apart.
[[nodiscard]] QString elide_bar_label(const QString& label, const QFontMetricsF& metrics, qreal budget);

// ---- Tornado: which resource matters most (comet::sensitivity) ----

// One side of a tornado row: the best iteration time with the resource at (1 -/+ fraction)
// times its base value, as a change relative to the base time.
struct TornadoSide {
    bool feasible = false;
    double change_pct = 0;  // 100 * (time - base) / base; 0 when infeasible
    QString text;           // at the bar's end: "+8.3 %", "−5.1 %", "infeasible"
    QString tooltip;
};

struct TornadoRow {
    QString label;  // "HBM bandwidth (2039 GB/s)": the resource and its base value
    TornadoSide low;
    TornadoSide high;
};

struct TornadoModel {
    std::vector<TornadoRow> rows;  // in the given order (largest effect first), first = top row
    QString low_name;              // legend: "resource −10 %"
    QString high_name;             // "resource +10 %"
    QColor low_color;
    QColor high_color;
    QString default_title;  // "Sensitivity of the best iteration time (±10 %)"
    QString message;        // instead of bars: "No data", "No feasible base configuration"
    ValueAxisModel axis;    // change in percent, symmetric around 0

    [[nodiscard]] bool empty() const noexcept { return rows.empty(); }
    [[nodiscard]] bool any_infeasible() const;
};

// `fraction` as the bars were computed with (0.1 for ±10 %).
[[nodiscard]] TornadoModel build_tornado_model(const std::vector<SensitivityBar>& bars, double fraction);

// "+8.3 %", "−5.1 %" (a true minus sign), "+0.042 %", "0 %".
[[nodiscard]] QString format_signed_percent(double pct);

// ---- FSDP balance: tokens per GPU that hide FSDP traffic vs what HBM allows (comet::fsdp_balance) ----

// A y range drawn on a logarithmic axis (base 10) when the values span more than this factor.
inline constexpr double fsdp_log_span = 20;

struct FsdpMarker {
    QPointF pos;      // x: GPUs, y: tokens per GPU per microbatch
    QString tooltip;  // the point's numbers and verdict
};

struct FsdpChartModel {
    // Drawn points, in the given order: only those that can run and, on a log axis, are > 0.
    std::vector<FsdpMarker> needed;   // tokens per GPU needed to hide the FSDP traffic
    std::vector<FsdpMarker> allowed;  // the most tokens per GPU whose activations fit in HBM
    std::vector<QPointF> hidden;      // the `needed` points where HBM allows at least as many
    QString needed_name;              // legend: "Tokens per GPU needed to hide FSDP traffic"
    QString allowed_name;             // "Most tokens per GPU HBM allows"
    QString hidden_name;              // "FSDP hidden"
    QColor needed_color;
    QColor allowed_color;
    QColor hidden_color;
    QString not_drawn;  // "Not drawn: dp 2, 4 (no sequence fits in HBM)"; empty when all are
    QString message;    // instead of lines: "No data", "No size can run: <reason>"
    QString default_title;
    // x: GPUs on a base-2 logarithmic axis from x_min to x_max.
    double x_min = 1;
    double x_max = 2;
    QString x_title;  // "GPUs (dp × 64 per replica)"
    // y: tokens per GPU per microbatch, from 0 (linear: y_axis) or on a base-10 logarithmic axis
    // from y_log_min to y_log_max (the decades around the values, wider when a value is close
    // to an end).
    bool log_y = false;
    ValueAxisModel y_axis;
    double y_log_min = 1;
    double y_log_max = 10;

    [[nodiscard]] bool empty() const noexcept { return needed.empty() && allowed.empty(); }
};

[[nodiscard]] FsdpChartModel build_fsdp_model(const std::vector<FsdpPoint>& points);

// Token counts: "850", "12.3 k", "1.25 M".
[[nodiscard]] QString format_tokens(double tokens);
// What a point means in a few words: "hidden", "exposed", "no sequence fits in HBM", or why it
// cannot run (comet::describe of its reason).
[[nodiscard]] QString fsdp_verdict(const FsdpPoint& p);

// ---- Pareto: time to train against cost (comet::pareto_front) ----

struct ParetoMarker {
    QPointF pos;  // x: time in ParetoModel::time_unit, y: cost in ParetoModel::cost_unit
    QString label;
    QString tooltip;  // label, time, cost, strategy
    bool on_front = false;
};

struct ParetoModel {
    std::vector<ParetoMarker> points;  // the feasible points, in the given order
    std::vector<QPointF> front_steps;  // the front as a staircase in order of time
    std::size_t infeasible_count = 0;  // left out of `points`
    QString infeasible_note;           // "2 infeasible, not shown"; empty when none
    QString time_unit;                 // "days" when the longest time is over 2 days, else "h"
    double seconds_per_time_unit = 3600;
    QString cost_unit;  // "USD", "k USD" or "M USD", from the largest cost
    double usd_per_cost_unit = 1;
    ValueAxisModel time_axis;  // "Time to train (days)"
    ValueAxisModel cost_axis;  // "Cost to train (M USD)"
    QColor front_color;
    QColor dominated_color;
    QString message;  // instead of points: "No data", "No feasible configuration"

    [[nodiscard]] bool empty() const noexcept { return points.empty(); }
};

[[nodiscard]] ParetoModel build_pareto_model(const std::vector<ParetoPoint>& points);

// Puts one label of size sizes[i] beside each anchor point, trying right, left, above, below and
// the diagonals, and takes the first spot inside `bounds` that covers no other label, no marker
// (a square of 2 * `marker_radius` around each anchor) and no obstacle (e.g. the lines joining
// points); when none is free, the spot that covers least. Greedy in input order, so earlier
// points get the better spots.
[[nodiscard]] std::vector<QRectF> place_point_labels(const std::vector<QPointF>& anchors, const std::vector<QSizeF>& sizes, QRectF bounds,
                                                     qreal marker_radius, const std::vector<QRectF>& obstacles = {});

}  // namespace comet::ui

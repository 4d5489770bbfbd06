#pragma once
// What the breakdown and memory charts show, computed without any chart library: values in
// display units, colours, legend entries, value-axis range and the text drawn on the bars.
// The Qt Charts views only copy these numbers into series, so they are unit-tested here.

#include <QColor>
#include <QFontMetricsF>
#include <QString>
#include <cstddef>
#include <span>
#include <vector>

#include "chart_data.hpp"

namespace comet::ui {

// A segment carries its value as text only when it spans at least this share of the axis.
inline constexpr double segment_label_min_share = 0.06;

struct StackCategory {
    QString name;  // legend text, e.g. "DP comm"
    QColor color;
};

// Fixed order and colours (Okabe-Ito, colour-blind safe), the same for every update so that
// a category keeps its colour while knobs move.
[[nodiscard]] std::span<const StackCategory> time_categories();    // compute … other
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
    double max = 1;        // the axis runs from 0 to max
    int tick_count = 2;    // including 0 and max
    QString label_format;  // printf-style, "%.0f"
};

// Stacked horizontal bars: series[c].values[b] is category c of bar b.
struct StackedBarsModel {
    std::vector<QString> bar_labels;
    std::vector<StackSeries> series;    // every category, in the fixed order
    std::vector<double> totals;         // per bar, display units
    std::vector<QString> total_labels;  // per bar, drawn at the bar's end, e.g. "101 s"
    ValueAxisModel axis;

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

// A value axis from 0 to a round number at or above `largest` (1, 2, 2.5 or 5 times 10^k).
[[nodiscard]] ValueAxisModel nice_axis(double largest, const QString& title);

// Display-unit number with about three significant digits and no trailing zeros:
// "101", "87.2", "5.83", "0.56", "80".
[[nodiscard]] QString format_amount(double v);

// A bar label shortened to `budget` pixels: cut at the end, but a short trailing group such as
// "(pinned)" stays whole, since it tells the bars apart.
[[nodiscard]] QString elide_bar_label(const QString& label, const QFontMetricsF& metrics, qreal budget);

}  // namespace comet::ui

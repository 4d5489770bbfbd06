#pragma once
// Private to ui/report: the report's text as simple HTML for QTextDocument (which wraps it within
// the page's margins), and the number formats it uses. No painting here.

#include <QDateTime>
#include <QString>

#include <vector>

#include "charts/chart_data.hpp"
#include "common/metrics.hpp"
#include "report/report.hpp"

namespace comet::ui::report {

// The explorer's (and the core's) renderings: ui::format_duration, ui::format_money.
[[nodiscard]] inline QString format_duration(double s) { return ui::format_duration(s); }
[[nodiscard]] inline QString format_usd(double usd) { return ui::format_money(usd); }
// "1.01 T", "70.6 B", "124 M".
[[nodiscard]] QString format_count(double n);
[[nodiscard]] QString format_speedup(double speedup);  // "1.51x", "–" when 0

// Memory tiers of one configuration for the memory chart and table: HBM, and the expanded tier
// when the node has one.
[[nodiscard]] std::vector<MemoryBar> memory_tiers(const Result& r);

// Shared look of every text block (sizes in points).
[[nodiscard]] QString style_sheet();

// Page 1, left column: the scenario, its model, node, cluster, training and strategy.
[[nodiscard]] QString scenario_html(const ReportData& d, const QDateTime& when);
// Page 1, right column: the result of the strategy as given (breakdown and memory tables, or why
// it is infeasible), the best strategy found, and the assumptions behind the numbers.
[[nodiscard]] QString result_html(const ReportData& d);
[[nodiscard]] QString assumptions_html(const ReportData& d);
// Comparison page: one row per design.
[[nodiscard]] QString comparison_html(const ReportData& d);
// Sensitivity & cost page: cost of the strategy as given and of the best one, and the inputs.
[[nodiscard]] QString cost_html(const ReportData& d);  // ends with software_changes_html
// "Which software change buys most": a table of d.software (empty when there is none).
[[nodiscard]] QString software_changes_html(const ReportData& d);
// Under the breakdown chart: the strategies of its bars "As given" and "Best strategy".
[[nodiscard]] QString strategies_caption_html(const ReportData& d);
// What stands in for the Pareto chart when it has fewer than two feasible points.
[[nodiscard]] QString pareto_note_html(const ReportData& d);

}  // namespace comet::ui::report

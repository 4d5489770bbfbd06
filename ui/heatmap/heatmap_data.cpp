#include "heatmap_data.hpp"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

#include "comet/breakdown.hpp"
#include "comet/economics.hpp"
#include "comet/knobs.hpp"
#include "comet/report.hpp"
#include "comet/units.hpp"
#include "common/metrics.hpp"

namespace comet::ui {
namespace {

QString capitalised(std::string_view text) {
    QString s = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
    if (!s.isEmpty()) s[0] = s[0].toUpper();
    return s;
}

QString axis_line(Knob knob, double v) {
    const KnobInfo& k = knob_info(knob);
    QString line = capitalised(k.label) + QStringLiteral(": ") + format_axis_value(v);
    if (!k.unit.empty()) line += QLatin1Char(' ') + display_unit(k.unit);
    return line;
}

QString share_line(const QString& name, double s, double total) {
    return name + QStringLiteral(": ") + format_seconds(s) + QStringLiteral(" (") +
           QString::number(total > 0 ? 100.0 * s / total : 0.0, 'f', 1) + QStringLiteral(" %)");
}

void append_breakdown(QStringList& lines, const Result& r) {
    const TimeBreakdown& t = r.time;
    const double T = r.iteration_s;
    lines << QStringLiteral("Iteration time: ") + format_seconds(T);
    // The breakdown's parts (comet/breakdown.hpp) in chart order: those every transformer has,
    // and the others (EP, CP, a DLRM's) where they cost time.
    for (const TimePart* p : time_parts_by_chart_rank()) {
        const bool always = p->workloads == 3 || (p->workloads == 1 && !p->optional);
        if (always || p->of(t) > 0)
            lines << share_line(QStringLiteral("  ") + QString::fromUtf8(p->label.data(), static_cast<qsizetype>(p->label.size())),
                                p->of(t), T);
    }
}

void append_hbm(QStringList& lines, const Result& r) {
    if (!(r.hbm.capacity_bytes > 0) || !(r.hbm.used_bytes() > 0)) return;
    lines << QStringLiteral("HBM: ") + QString::number(units::bytes_to_gib(r.hbm.used_bytes()), 'f', 1) + QStringLiteral(" of ") +
                 QString::number(units::bytes_to_gib(r.hbm.capacity_bytes), 'f', 1) + QStringLiteral(" GiB per accelerator");
}

bool never_evaluated(const SweepResult& result, const SweepCell& cell) { return result.cancelled && cell.evaluated == 0; }

QString reason_of(const SweepResult& result, const SweepCell& cell) {
    if (never_evaluated(result, cell)) return QStringLiteral("Not evaluated: the sweep was cancelled");
    if (!cell.result.feasible) return QString::fromStdString(explain(cell.result));
    return QStringLiteral("no result for this metric");
}

// A cost metric's value for a cell: the cell's axis values and strategy on the base configuration,
// priced with the scenario's cost inputs (core's cost_report(), as the Cost page prices).
double cost_value(const SweepSpec& spec, const SweepCell& cell, Metric metric, const HeatmapCost* cost, double x, double y, QString* why) {
    if (!cost) {
        *why = QStringLiteral("no prices to price the cells with");
        return std::numeric_limits<double>::quiet_NaN();
    }
    Config c = cost->config;
    set_knob(c, spec.x.knob, x);
    if (spec.y) set_knob(c, spec.y->knob, y);
    c.strategy = cell.strategy;
    return cost_metric_value(cost_report(c, cell.result, cost->inputs), metric, why);
}

double cell_value(const SweepResult& result, const SweepCell& cell, Metric metric) {
    if (never_evaluated(result, cell)) return std::numeric_limits<double>::quiet_NaN();
    const double v = metric_value(cell.result, metric);
    // A search that finds nothing fitting reports no footprint: 0 GiB would look like the best cell.
    if (metric == Metric::hbm_use && !(cell.result.hbm.used_bytes() > 0)) return std::numeric_limits<double>::quiet_NaN();
    return v;
}

// Axis values come from the spec: a cell a cancelled sweep never reached has none of its own.
QStringList axis_lines(const SweepSpec& spec, double x, double y) {
    QStringList lines{axis_line(spec.x.knob, x)};
    if (spec.y) lines << axis_line(spec.y->knob, y);
    return lines;
}

QString tooltip_of(const SweepSpec& spec, QStringList lines, const SweepCell& cell, const HeatmapCell& hc, Metric metric,
                   Workload workload) {
    const bool breakdown = hc.feasible && std::isfinite(hc.value);
    // The breakdown starts with the iteration time: no need to repeat it.
    if (std::isfinite(hc.value) && metric != Metric::strategy_family && !(breakdown && metric == Metric::iteration_time))
        lines << metric_label(metric, workload) + QStringLiteral(": ") + format_metric(hc.value, metric, workload);
    if (!breakdown) {
        lines << QStringLiteral("Infeasible: ") + hc.reason;
        if (spec.search && cell.evaluated > 0)
            lines << QStringLiteral("Searched %1 strategies, none fits").arg(cell.evaluated);
        else if (!spec.search)
            lines << QStringLiteral("Strategy: ") + QString::fromStdString(format_strategy(cell.strategy, workload));
        append_hbm(lines, cell.result);
        return lines.join(QLatin1Char('\n'));
    }
    lines << QStringLiteral("Strategy: ") + QString::fromStdString(format_strategy(cell.strategy, workload));
    append_breakdown(lines, cell.result);
    append_hbm(lines, cell.result);
    return lines.join(QLatin1Char('\n'));
}

HeatmapCell make_cell(const SweepSpec& spec, const SweepResult& result, const SweepCell& cell, Metric metric, QStringList axes,
                      const HeatmapCost* cost, double x, double y) {
    HeatmapCell hc;
    QString no_cost;
    hc.value = is_cost_metric(metric) && !never_evaluated(result, cell) && cell.result.feasible
                   ? cost_value(spec, cell, metric, cost, x, y, &no_cost)
                   : cell_value(result, cell, metric);
    hc.feasible = cell.result.feasible && !never_evaluated(result, cell);
    if (!hc.feasible || !std::isfinite(hc.value)) hc.reason = no_cost.isEmpty() ? reason_of(result, cell) : no_cost;
    if (never_evaluated(result, cell))
        hc.tooltip = (axes << hc.reason).join(QLatin1Char('\n'));
    else
        hc.tooltip = tooltip_of(spec, std::move(axes), cell, hc, metric, result.workload);
    return hc;
}

std::vector<double> axis_values(const std::optional<Axis>& axis, int n) {
    if (!axis) return std::vector<double>(static_cast<std::size_t>(n), 0.0);
    std::vector<double> v = axis->values;
    v.resize(static_cast<std::size_t>(n), std::numeric_limits<double>::quiet_NaN());
    return v;
}

std::optional<CellIndex> best_cell(const HeatmapData& d) {
    const bool higher = metric_info(d.metric).higher_is_better;
    std::optional<CellIndex> best;
    double best_value = 0;
    for (int iy = 0; iy < d.ny; ++iy) {
        for (int ix = 0; ix < d.nx; ++ix) {
            const HeatmapCell& c = d.at(ix, iy);
            if (!c.feasible || !std::isfinite(c.value)) continue;
            if (!best || (higher ? c.value > best_value : c.value < best_value)) {
                best = CellIndex{ix, iy};
                best_value = c.value;
            }
        }
    }
    return best;
}

// The strategy family map: each feasible cell's best strategy named by the parallel dimensions
// it uses; the categories most cells first (a tie: by name), at most 8 (the rest are "Other");
// the star stays on the fastest cell.
void make_families(HeatmapData& d, const SweepResult& result) {
    constexpr std::size_t max_categories = 8;
    std::vector<QString> names(d.cells.size());
    std::vector<std::pair<QString, int>> counts;
    for (int iy = 0; iy < d.ny; ++iy) {
        for (int ix = 0; ix < d.nx; ++ix) {
            const SweepCell& cell = result.at(ix, iy);
            const std::size_t i = static_cast<std::size_t>(iy) * static_cast<std::size_t>(d.nx) + static_cast<std::size_t>(ix);
            if (!d.cells[i].feasible) continue;
            names[i] = strategy_family(cell.strategy, result.workload);
            auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == names[i]; });
            if (it == counts.end())
                counts.emplace_back(names[i], 1);
            else
                ++it->second;
        }
    }
    std::sort(counts.begin(), counts.end(),
              [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    for (const auto& c : counts) d.categories.push_back(c.first);
    if (d.categories.size() > max_categories) {
        d.categories.resize(max_categories - 1);
        d.categories.push_back(QStringLiteral("Other"));
    }
    std::optional<CellIndex> fastest;
    double fastest_s = 0;
    for (int iy = 0; iy < d.ny; ++iy) {
        for (int ix = 0; ix < d.nx; ++ix) {
            const std::size_t i = static_cast<std::size_t>(iy) * static_cast<std::size_t>(d.nx) + static_cast<std::size_t>(ix);
            HeatmapCell& c = d.cells[i];
            if (names[i].isEmpty()) {
                c.value = std::numeric_limits<double>::quiet_NaN();
                continue;
            }
            const auto at = std::find(d.categories.begin(), d.categories.end(), names[i]);
            const std::size_t index =
                at == d.categories.end() ? d.categories.size() - 1 : static_cast<std::size_t>(at - d.categories.begin());
            c.value = static_cast<double>(index);
            c.tooltip += QStringLiteral("\nStrategy family: ") + names[i];
            const double t = result.at(ix, iy).result.iteration_s;
            if (!fastest || t < fastest_s) {
                fastest = CellIndex{ix, iy};
                fastest_s = t;
            }
        }
    }
    d.best = fastest;
}

QString cell_position(const HeatmapData& d, CellIndex c) {
    QString s = d.x_label + QLatin1Char(' ') + format_axis_value(d.x_values[static_cast<std::size_t>(c.ix)]);
    if (d.ny > 1 || !d.y_label.isEmpty())
        s += QStringLiteral(", ") + d.y_label + QLatin1Char(' ') + format_axis_value(d.y_values[static_cast<std::size_t>(c.iy)]);
    return s;
}

QString grid_size(const HeatmapData& d) {
    if (d.ny > 1) return QStringLiteral("%1 by %2 configurations").arg(d.nx).arg(d.ny);
    return QStringLiteral("%1 configurations").arg(d.nx);
}

}  // namespace

QString summarize(const HeatmapData& d) {
    const MetricInfo& info = metric_info(d.metric);
    QString by = d.x_label;
    if (!d.y_label.isEmpty()) by += QStringLiteral(" and ") + d.y_label;
    QString s = heatmap_value_label(d) + QStringLiteral(" by ") + by + QStringLiteral(": ") + grid_size(d);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    int feasible = 0;
    for (const HeatmapCell& c : d.cells) {
        if (c.feasible && std::isfinite(c.value)) ++feasible;
        if (!std::isfinite(c.value)) continue;
        lo = std::min(lo, c.value);
        hi = std::max(hi, c.value);
    }
    s += QStringLiteral(", %1 feasible, %2 infeasible.").arg(feasible).arg(static_cast<qsizetype>(d.cells.size()) - feasible);
    if (!d.categories.empty()) {  // a family map: how many cells each family wins
        std::vector<int> won(d.categories.size(), 0);
        for (const HeatmapCell& c : d.cells)
            if (std::isfinite(c.value) && c.value >= 0 && c.value < static_cast<double>(won.size()))
                ++won[static_cast<std::size_t>(c.value)];
        QStringList parts;
        for (std::size_t i = 0; i < won.size(); ++i) parts << d.categories[i] + QStringLiteral(" %1").arg(won[i]);
        s += QStringLiteral(" Cells per family: ") + parts.join(QStringLiteral(", ")) + QLatin1Char('.');
        if (d.best)
            s += QStringLiteral(" Fastest: ") + format_heatmap_value(d, d.at(d.best->ix, d.best->iy).value) + QStringLiteral(" at ") +
                 cell_position(d, *d.best) + QLatin1Char('.');
        if (d.current && std::isfinite(d.at(d.current->ix, d.current->iy).value))
            s += QStringLiteral(" Current: ") + format_heatmap_value(d, d.at(d.current->ix, d.current->iy).value) + QStringLiteral(" at ") +
                 cell_position(d, *d.current) + QLatin1Char('.');
        if (!d.note.isEmpty()) s += QLatin1Char(' ') + d.note;
        return s;
    }
    if (lo <= hi)
        s += QStringLiteral(" Values from ") + format_heatmap_value(d, lo) + QStringLiteral(" to ") + format_heatmap_value(d, hi) +
             (info.higher_is_better ? QStringLiteral("; higher is better.") : QStringLiteral("; lower is better."));
    if (d.best)
        s += QStringLiteral(" Best: ") + format_heatmap_value(d, d.at(d.best->ix, d.best->iy).value) + QStringLiteral(" at ") +
             cell_position(d, *d.best) + QLatin1Char('.');
    if (d.current)
        s += QStringLiteral(" Current: ") + format_heatmap_value(d, d.at(d.current->ix, d.current->iy).value) + QStringLiteral(" at ") +
             cell_position(d, *d.current) + QLatin1Char('.');
    if (!d.note.isEmpty()) s += QLatin1Char(' ') + d.note;
    return s;
}

void make_relative(HeatmapData& d) {
    if (!d.categories.empty()) return;  // categories have no size to compare: the families stay
    d.relative = true;
    d.baseline = std::numeric_limits<double>::quiet_NaN();
    const HeatmapCell* base = d.current && d.current->ix >= 0 && d.current->ix < d.nx && d.current->iy >= 0 && d.current->iy < d.ny
                                  ? &d.at(d.current->ix, d.current->iy)
                                  : nullptr;
    QString no_baseline;
    if (!base)
        no_baseline = QStringLiteral("No change to show: the current configuration is not on this grid (its values are not on both axes).");
    else if (!base->feasible || !std::isfinite(base->value) || !(base->value > 0))
        no_baseline = QStringLiteral("No change to show: the current configuration's cell has no value (") +
                      (base->reason.isEmpty() ? QStringLiteral("no result") : base->reason) + QStringLiteral(").");
    if (!no_baseline.isEmpty()) {
        for (HeatmapCell& c : d.cells) {
            if (std::isfinite(c.value) && c.reason.isEmpty()) c.reason = no_baseline;
            c.value = std::numeric_limits<double>::quiet_NaN();
        }
        d.note = d.note.isEmpty() ? no_baseline : d.note + QLatin1Char(' ') + no_baseline;
        d.best.reset();
        return;
    }
    d.baseline = base->value;
    for (HeatmapCell& c : d.cells) {
        if (!std::isfinite(c.value)) continue;
        c.value = c.value / d.baseline - 1.0;
        c.tooltip += QStringLiteral("\nChange vs the current cell: ") + signed_percent(c.value, 1);
    }
}

QString format_heatmap_value(const HeatmapData& d, double v) {
    if (!d.categories.empty()) {
        const long i = std::isfinite(v) ? std::lround(v) : -1;
        return i >= 0 && i < static_cast<long>(d.categories.size()) ? d.categories[static_cast<std::size_t>(i)] : QStringLiteral("–");
    }
    if (!d.relative) return format_metric(v, d.metric, d.workload);
    return std::abs(v) < 0.0005 ? QStringLiteral("0.0 %") : signed_percent(v, 1);  // no sign on no change
}

QString heatmap_value_label(const HeatmapData& d) {
    const QString label = metric_label(d.metric, d.workload);
    return d.relative ? label + QStringLiteral(" vs the current cell") : label;
}

QString axis_title(Knob knob) {
    const KnobInfo& k = knob_info(knob);
    QString title = capitalised(k.label);
    if (!k.unit.empty()) title += QStringLiteral(" (") + display_unit(k.unit) + QLatin1Char(')');
    return title;
}

QString format_axis_value(double v) {
    if (!std::isfinite(v)) return QStringLiteral("–");
    const double a = std::abs(v);
    if (a >= 1e7) return QString::number(v, 'g', 3);
    if (a >= 100 || a == 0) return QString::number(v, 'f', 0);
    // Three significant digits, trailing zeros dropped: 6.25, 12.5, 8.41, 0.125.
    const int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(a))));
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0'))) s.chop(1);
        if (s.endsWith(QLatin1Char('.'))) s.chop(1);
    }
    return s;
}

bool is_geometric(std::span<const double> values) {
    if (values.size() < 3) return false;
    for (double v : values)
        if (!(v > 0) || !std::isfinite(v)) return false;
    const double mean_step = std::log(values.back() / values.front()) / static_cast<double>(values.size() - 1);
    if (!(std::abs(mean_step) > 1e-9)) return false;
    // Evenly spaced values are not geometric; rounded geometric values (1189, 1414) still are.
    for (std::size_t i = 1; i < values.size(); ++i) {
        const double step = std::log(values[i] / values[i - 1]);
        if (std::abs(step - mean_step) > 0.05 * std::abs(mean_step)) return false;
    }
    return true;
}

HeatmapData make_heatmap_data(const SweepSpec& spec, const SweepResult& result, Metric metric, std::optional<CellIndex> current,
                              const HeatmapCost* cost) {
    HeatmapData d;
    d.nx = result.nx;
    d.ny = result.ny;
    d.metric = metric;
    d.workload = result.workload;
    d.x_values = axis_values(spec.x, d.nx);
    d.y_values = axis_values(spec.y, d.ny);
    d.x_label = axis_title(spec.x.knob);
    if (spec.y) d.y_label = axis_title(spec.y->knob);
    d.x_log = is_geometric(d.x_values);
    d.y_log = spec.y && is_geometric(d.y_values);
    d.x_continuous = !knob_info(spec.x.knob).integer;
    d.y_continuous = spec.y && !knob_info(spec.y->knob).integer;
    if (result.cells.size() != static_cast<std::size_t>(d.nx) * static_cast<std::size_t>(d.ny)) return HeatmapData{};
    d.cells.reserve(result.cells.size());
    for (int iy = 0; iy < d.ny; ++iy) {
        for (int ix = 0; ix < d.nx; ++ix) {
            const double x = d.x_values[static_cast<std::size_t>(ix)], y = d.y_values[static_cast<std::size_t>(iy)];
            d.cells.push_back(make_cell(spec, result, result.at(ix, iy), metric, axis_lines(spec, x, y), cost, x, y));
        }
    }
    if (current && current->ix >= 0 && current->ix < d.nx && current->iy >= 0 && current->iy < d.ny) d.current = current;
    if (metric == Metric::strategy_family) {
        make_families(d, result);
        return d;
    }
    d.best = best_cell(d);
    // Cells that run but have no value: the cost inputs lack what the metric needs. Say so once.
    if (is_cost_metric(metric) && !d.best) {
        for (const HeatmapCell& c : d.cells) {
            if (c.feasible && !std::isfinite(c.value)) {
                d.note = c.reason.left(1).toUpper() + c.reason.mid(1) + QLatin1Char('.');
                break;
            }
        }
    }
    return d;
}

std::optional<CellIndex> cell_of(const SweepSpec& spec, const Config& config) {
    const auto index_of = [](const std::vector<double>& values, double v) -> std::optional<int> {
        for (std::size_t i = 0; i < values.size(); ++i)
            if (std::fabs(values[i] - v) <= 1e-9 * std::max(1.0, std::fabs(v))) return static_cast<int>(i);
        return std::nullopt;
    };
    const std::optional<int> ix = index_of(spec.x.values, get_knob(config, spec.x.knob));
    const std::optional<int> iy = spec.y ? index_of(spec.y->values, get_knob(config, spec.y->knob)) : std::optional<int>(0);
    if (!ix || !iy) return std::nullopt;
    return CellIndex{*ix, *iy};
}

}  // namespace comet::ui

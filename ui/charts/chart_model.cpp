#include "chart_model.hpp"

#include <QStringList>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "comet/breakdown.hpp"
#include "comet/knobs.hpp"
#include "comet/report.hpp"
#include "comet/units.hpp"
#include "common/metrics.hpp"

namespace comet::ui {
namespace {

// Okabe-Ito palette (plus its grey), distinguishable with the common colour-vision deficiencies.
const QColor oi_blue{0x00, 0x72, 0xB2};
const QColor oi_sky{0x56, 0xB4, 0xE9};
const QColor oi_green{0x00, 0x9E, 0x73};
const QColor oi_yellow{0xF0, 0xE4, 0x42};
const QColor oi_vermillion{0xD5, 0x5E, 0x00};
const QColor oi_grey{0x99, 0x99, 0x99};
// Two more, darker than any of the above, from Paul Tol's colour-blind safe "muted" scheme.
const QColor tol_indigo{0x33, 0x22, 0x88};

// Room past the longest bar for its total label.
constexpr double total_label_headroom = 1.15;
constexpr double capacity_label_headroom = 1.4;
// Room past the longest tornado bar for its "+12.3 %" label, and steps on each side of 0.
constexpr double tornado_label_headroom = 1.3;
constexpr int tornado_intervals_per_side = 3;
// Share of the data span left free on each side of a scatter, so end points are not cut in half.
constexpr double scatter_padding_share = 0.08;
constexpr double seconds_per_day = 86400;
constexpr double seconds_per_hour = 3600;
const QChar minus_sign(0x2212);  // a true minus, as wide as the plus

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// printf format for labels of an axis stepping by mant * 10^k.
QString axis_label_format(double mant, int k) {
    const int decimals = std::max(0, -k + (mant == 2.5 ? 1 : 0));
    return QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f");
}

// Calls `fits(step, mant, k)` with round steps of increasing size (1, 2, 2.5, 5 times 10^k from
// about span / max_intervals) until it accepts one.
template <class Fits>
void for_nice_steps(double span, int max_intervals, Fits fits) {
    const int k0 = static_cast<int>(std::floor(std::log10(span / max_intervals)));
    for (int k = k0;; ++k)
        for (double mant : {1.0, 2.0, 2.5, 5.0})
            if (fits(mant * std::pow(10.0, k), mant, k)) return;
}

// In time_categories() order (the breakdown's).
std::array<double, 12> time_parts(const TimeBreakdown& t) {
    std::array<double, 12> out{};
    const auto parts = comet::time_parts_by_chart_rank();
    for (std::size_t i = 0; i < out.size() && i < parts.size(); ++i) out[i] = parts[i]->of(t);
    return out;
}

std::array<double, 6> memory_parts(const MemoryFootprint& m) {
    return {m.weights_bytes, m.gradients_bytes, m.optimizer_bytes, m.activations_bytes, m.other_bytes, m.margin_bytes};
}

std::vector<StackSeries> empty_series(std::span<const StackCategory> cats, std::size_t bars) {
    std::vector<StackSeries> out;
    out.reserve(cats.size());
    for (const StackCategory& c : cats) out.push_back({c.name, c.color, std::vector<double>(bars, 0.0), std::vector<QString>(bars), true});
    return out;
}

// Totals, zero flags and segment labels, once the values and the axis are in place.
void finish(StackedBarsModel& m) {
    m.totals.assign(m.bar_count(), 0.0);
    for (StackSeries& s : m.series) {
        for (std::size_t b = 0; b < m.bar_count(); ++b) {
            m.totals[b] += s.values[b];
            if (s.values[b] != 0) s.all_zero = false;
        }
    }
    const double threshold = segment_label_min_share * m.axis.max;
    for (StackSeries& s : m.series)
        for (std::size_t b = 0; b < m.bar_count(); ++b)
            if (s.values[b] > 0 && s.values[b] >= threshold) s.segment_labels[b] = format_amount(s.values[b]);
}

QString percent_text(double part, double whole) {
    if (!(whole > 0)) return QStringLiteral("–");
    const double pct = 100.0 * part / whole;
    if (pct > 0 && pct < 0.05) return QStringLiteral("< 0.1 %");
    return QString::number(pct, 'f', 1) + QStringLiteral(" %");
}

}  // namespace

std::span<const StackCategory> time_categories() {
    // The breakdown's parts, legends and colours (comet/breakdown.hpp), in chart order.
    static const std::array<StackCategory, 12> cats = [] {
        std::array<StackCategory, 12> out;
        const auto parts = comet::time_parts_by_chart_rank();
        for (std::size_t i = 0; i < out.size() && i < parts.size(); ++i) out[i] = {qstr(parts[i]->legend), QColor::fromRgb(parts[i]->rgb)};
        return out;
    }();
    return cats;
}

std::span<const StackCategory> memory_categories() {
    static const std::array<StackCategory, 6> cats{{
        {QStringLiteral("Weights"), oi_blue},
        {QStringLiteral("Gradients"), oi_sky},
        {QStringLiteral("Optimizer"), oi_yellow},
        {QStringLiteral("Activations"), oi_green},
        {QStringLiteral("Other"), oi_grey},
        {QStringLiteral("Allocator margin"), tol_indigo},
    }};
    return cats;
}

std::vector<QString> StackedBarsModel::legend_names() const {
    std::vector<QString> out;
    for (const StackSeries& s : series)
        if (!s.all_zero) out.push_back(s.name);
    return out;
}

bool MemorySeriesModel::any_over_capacity() const {
    return std::find(over_capacity.begin(), over_capacity.end(), true) != over_capacity.end();
}

QString format_amount(double v) {
    const double a = std::abs(v);
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    QString text = a > 0 && a < 1 ? QString::number(v, 'g', 2) : QString::number(v, 'f', decimals);
    if (text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e'))) {
        while (text.endsWith(QLatin1Char('0'))) text.chop(1);
        if (text.endsWith(QLatin1Char('.'))) text.chop(1);
    }
    return text;
}

QString elide_bar_label(const QString& label, const QFontMetricsF& metrics, qreal budget) {
    if (metrics.horizontalAdvance(label) <= budget) return label;
    constexpr qsizetype max_kept_tail = 12;
    const qsizetype open = label.lastIndexOf(QLatin1Char('('));
    if (label.endsWith(QLatin1Char(')')) && open > 0 && label.size() - open <= max_kept_tail) {
        const QString tail = QStringLiteral(" ") + label.mid(open);
        const QString head = label.left(open).trimmed();
        const qreal head_budget = budget - metrics.horizontalAdvance(tail);
        if (head_budget > metrics.horizontalAdvance(QStringLiteral("tp8…")))
            return metrics.elidedText(head, Qt::ElideRight, head_budget) + tail;
    }
    return metrics.elidedText(label, Qt::ElideRight, budget);
}

ValueAxisModel nice_axis(double largest, const QString& title, int max_intervals) {
    max_intervals = std::max(1, max_intervals);
    if (!(largest > 0) || !std::isfinite(largest)) largest = 1;
    ValueAxisModel axis;
    for_nice_steps(largest, max_intervals, [&](double step, double mant, int k) {
        const double intervals = std::ceil(largest / step - 1e-9);
        if (intervals > max_intervals) return false;
        axis = {title, intervals * step, static_cast<int>(intervals) + 1, axis_label_format(mant, k)};
        return true;
    });
    return axis;
}

ValueAxisModel nice_range(double lo, double hi, const QString& title, int max_intervals) {
    max_intervals = std::max(1, max_intervals);
    if (!std::isfinite(lo) || !std::isfinite(hi)) lo = hi = 0;
    if (lo > hi) std::swap(lo, hi);
    if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi))) {  // one value: a window around it
        const double half = lo != 0 ? 0.1 * std::abs(lo) : 1.0;
        lo -= half;
        hi += half;
    }
    const bool non_negative = lo >= 0;
    const double pad = scatter_padding_share * (hi - lo);
    lo -= pad;
    hi += pad;
    if (non_negative) lo = std::max(lo, 0.0);
    ValueAxisModel axis;
    for_nice_steps(hi - lo, max_intervals, [&](double step, double mant, int k) {
        const double min = std::floor(lo / step + 1e-9) * step;
        const double max = std::ceil(hi / step - 1e-9) * step;
        const auto intervals = static_cast<int>(std::lround((max - min) / step));
        if (intervals > max_intervals) return false;
        axis = {title, max, intervals + 1, axis_label_format(mant, k), min};
        return true;
    });
    return axis;
}

BreakdownSeriesModel build_breakdown_model(const std::vector<BreakdownBar>& bars) {
    BreakdownSeriesModel m;
    double largest_s = 0;
    for (const BreakdownBar& b : bars) largest_s = std::max(largest_s, b.time.total());
    if (largest_s > 0 && largest_s < 1) {
        m.unit = QStringLiteral("ms");
        m.per_second = 1e3;
    }
    m.series = empty_series(time_categories(), bars.size());
    for (std::size_t b = 0; b < bars.size(); ++b) {
        m.bar_labels.push_back(bars[b].label);
        m.bar_short_labels.push_back(bars[b].short_label);
        const auto parts = time_parts(bars[b].time);
        for (std::size_t c = 0; c < parts.size(); ++c) m.series[c].values[b] = parts[c] * m.per_second;
    }
    m.axis = nice_axis(largest_s * m.per_second * total_label_headroom, QStringLiteral("Iteration time (") + m.unit + QStringLiteral(")"));
    finish(m);
    for (double t : m.totals) m.total_labels.push_back(format_amount(t) + QStringLiteral(" ") + m.unit);
    return m;
}

MemorySeriesModel build_memory_model(const std::vector<MemoryBar>& tiers) {
    MemorySeriesModel m;
    m.series = empty_series(memory_categories(), tiers.size());
    double largest = 0;
    QStringList overs;
    for (std::size_t t = 0; t < tiers.size(); ++t) {
        const MemoryFootprint& f = tiers[t].footprint;
        m.bar_labels.push_back(tiers[t].tier);
        m.bar_short_labels.push_back(tiers[t].short_label);
        const auto parts = memory_parts(f);
        for (std::size_t c = 0; c < parts.size(); ++c) m.series[c].values[t] = units::bytes_to_gib(parts[c]);
        const double used = units::bytes_to_gib(f.used_bytes());
        const double cap = std::max(0.0, units::bytes_to_gib(f.capacity_bytes));
        m.capacity_gib.push_back(cap);
        m.over_capacity.push_back(cap > 0 && used > cap);
        // The total label goes after the capacity line when the line is past the bar's end:
        // more room past the line than past a bar.
        largest = std::max({largest, used, cap * capacity_label_headroom / total_label_headroom});
        if (m.over_capacity.back())
            overs << tiers[t].tier + QStringLiteral(" exceeds capacity by ") + format_amount(used - cap) + QStringLiteral(" GiB");
    }
    m.title_suffix = overs.join(QStringLiteral("; "));
    m.axis = nice_axis(largest * total_label_headroom, QStringLiteral("Memory per accelerator (GiB)"));
    finish(m);
    for (std::size_t t = 0; t < tiers.size(); ++t) {
        QString text = format_amount(m.totals[t]);
        if (m.capacity_gib[t] > 0) text += QStringLiteral(" / ") + format_amount(m.capacity_gib[t]);
        m.total_labels.push_back(text + QStringLiteral(" GiB"));
    }
    return m;
}

QString segment_tooltip(const BreakdownSeriesModel& m, std::size_t category, std::size_t bar) {
    if (category >= m.series.size() || bar >= m.bar_count()) return {};
    const StackSeries& s = m.series[category];
    const double v = s.values[bar];
    // Tiny parts read better in their own unit than as "0.00003 s".
    const QString amount = v >= 0.1 || v == 0 ? format_amount(v) + QStringLiteral(" ") + m.unit : format_seconds(v / m.per_second);
    return m.bar_labels[bar] + QStringLiteral("\n") + s.name + QStringLiteral(": ") + amount + QStringLiteral(" (") +
           percent_text(v, m.totals[bar]) + QStringLiteral(")");
}

QString segment_tooltip(const MemorySeriesModel& m, std::size_t category, std::size_t bar) {
    if (category >= m.series.size() || bar >= m.bar_count()) return {};
    const StackSeries& s = m.series[category];
    const double v = s.values[bar];
    const bool has_cap = m.capacity_gib[bar] > 0;
    return m.bar_labels[bar] + QStringLiteral("\n") + s.name + QStringLiteral(": ") + format_amount(v) + QStringLiteral(" GiB (") +
           percent_text(v, has_cap ? m.capacity_gib[bar] : m.totals[bar]) +
           (has_cap ? QStringLiteral(" of capacity)") : QStringLiteral(" of used)"));
}

// ---- tornado ----

namespace {

// Knob labels are written for mid-sentence ("scale-out bandwidth"); rows and tooltips start with them.
QString resource_name(Knob knob) {
    QString name = qstr(knob_info(knob).label);
    if (!name.isEmpty()) name[0] = name[0].toUpper();
    return name;
}

QString knob_value_text(Knob knob, double value) {
    const KnobInfo& k = knob_info(knob);
    return format_amount(value) + (k.unit.empty() ? QString() : QStringLiteral(" ") + display_unit(k.unit));
}

QString resource_label(const SensitivityBar& b) {
    return resource_name(b.knob) + QStringLiteral(" (") + knob_value_text(b.knob, b.base_value) + QStringLiteral(")");
}

TornadoSide tornado_side(const SensitivityBar& b, bool high, const QString& side_name) {
    TornadoSide side;
    side.feasible = high ? b.high_feasible : b.low_feasible;
    const double time_s = high ? b.time_high_s : b.time_low_s;
    const QString resource = resource_name(b.knob) + QStringLiteral(" ") + side_name + QStringLiteral(": ") +
                             knob_value_text(b.knob, high ? b.high_value : b.low_value);
    const QString base = QStringLiteral("Base: ") + format_seconds(b.base_time_s);
    if (!side.feasible) {
        side.text = QStringLiteral("infeasible");
        side.tooltip = resource + QStringLiteral("\nNo feasible strategy\n") + base;
        return side;
    }
    side.change_pct = 100.0 * (time_s - b.base_time_s) / b.base_time_s;
    side.text = format_signed_percent(side.change_pct);
    side.tooltip = resource + QStringLiteral("\nBest iteration time: ") + format_seconds(time_s) + QStringLiteral(" (") + side.text +
                   QStringLiteral(")\n") + base;
    return side;
}

}  // namespace

bool TornadoModel::any_infeasible() const {
    return std::any_of(rows.begin(), rows.end(), [](const TornadoRow& r) { return !r.low.feasible || !r.high.feasible; });
}

QString format_signed_percent(double pct) {
    const double a = std::abs(pct);
    if (!(a >= 0.0005)) return QStringLiteral("0 %");
    // One decimal is enough for the big effects; the small ones keep two significant digits
    // so that 0.04 % and 0.004 % stay apart.
    const QString digits = a >= 0.095 ? QString::number(a, 'f', 1) : QString::number(a, 'g', 2);
    return (pct > 0 ? QString(QLatin1Char('+')) : QString(minus_sign)) + digits + QStringLiteral(" %");
}

TornadoModel build_tornado_model(const std::vector<SensitivityBar>& bars, double fraction) {
    TornadoModel m;
    const QString pct = format_amount(100.0 * fraction) + QStringLiteral(" %");
    const QString low_name = QString(minus_sign) + pct;
    const QString high_name = QStringLiteral("+") + pct;
    m.low_name = QStringLiteral("resource ") + low_name;
    m.high_name = QStringLiteral("resource ") + high_name;
    m.low_color = oi_vermillion;
    m.high_color = oi_blue;
    m.default_title = QStringLiteral("Sensitivity of the best iteration time (±") + pct + QStringLiteral(")");
    const QString axis_title = QStringLiteral("Change in best iteration time (%), negative = faster");
    m.axis = nice_axis(1, axis_title, tornado_intervals_per_side);
    if (bars.empty()) {
        m.message = QStringLiteral("No data");
        return m;
    }
    // Every bar carries the same base; without a feasible one there is nothing to compare with.
    if (!bars.front().base_feasible || !(bars.front().base_time_s > 0)) {
        m.message = QStringLiteral("No feasible base configuration");
        return m;
    }
    double largest_pct = 0;
    for (const SensitivityBar& b : bars) {
        TornadoRow row{resource_label(b), tornado_side(b, false, low_name), tornado_side(b, true, high_name)};
        largest_pct = std::max({largest_pct, std::abs(row.low.change_pct), std::abs(row.high.change_pct)});
        m.rows.push_back(std::move(row));
    }
    m.axis = nice_axis(largest_pct * tornado_label_headroom, axis_title, tornado_intervals_per_side);
    m.axis.min = -m.axis.max;
    m.axis.tick_count = 2 * m.axis.tick_count - 1;
    return m;
}

// ---- Pareto ----

namespace {

bool drawable(const ParetoPoint& p) { return p.feasible && std::isfinite(p.time_to_train_s) && std::isfinite(p.cost_usd); }

QString pareto_tooltip(const ParetoPoint& p, const ParetoModel& m, QPointF pos) {
    QStringList lines{QString::fromStdString(p.label)};
    if (!p.design.empty() && p.design != p.label) lines << QStringLiteral("Design: ") + QString::fromStdString(p.design);
    lines << QStringLiteral("Time to train: ") + format_amount(pos.x()) + QStringLiteral(" ") + m.time_unit
          << QStringLiteral("Cost: ") + format_amount(pos.y()) + QStringLiteral(" ") + m.cost_unit
          << QStringLiteral("Strategy: ") + QString::fromStdString(format_strategy(p.strategy, p.workload))
          << (p.on_front ? QStringLiteral("On the Pareto front") : QStringLiteral("Dominated: another point is no slower and no dearer"));
    return lines.join(QLatin1Char('\n'));
}

// Front points joined left to right: across at the earlier cost, then down to the next point,
// which is the edge of what the front makes reachable.
std::vector<QPointF> front_staircase(std::vector<QPointF> front) {
    std::sort(front.begin(), front.end(), [](QPointF a, QPointF b) { return std::pair(a.x(), a.y()) < std::pair(b.x(), b.y()); });
    std::vector<QPointF> steps;
    for (const QPointF& p : front) {
        if (!steps.empty()) steps.emplace_back(p.x(), steps.back().y());
        steps.push_back(p);
    }
    return steps;
}

}  // namespace

ParetoModel build_pareto_model(const std::vector<ParetoPoint>& points) {
    ParetoModel m;
    m.front_color = oi_blue;
    m.dominated_color = oi_grey;
    double longest_s = 0;
    double dearest_usd = 0;
    for (const ParetoPoint& p : points) {
        if (!drawable(p)) {
            ++m.infeasible_count;
            continue;
        }
        longest_s = std::max(longest_s, p.time_to_train_s);
        dearest_usd = std::max(dearest_usd, p.cost_usd);
    }
    if (m.infeasible_count > 0) m.infeasible_note = QString::number(m.infeasible_count) + QStringLiteral(" infeasible, not shown");
    const bool days = longest_s > 2 * seconds_per_day;
    m.time_unit = days ? QStringLiteral("days") : QStringLiteral("h");
    m.seconds_per_time_unit = days ? seconds_per_day : seconds_per_hour;
    const bool millions = dearest_usd >= 1e6, thousands = dearest_usd >= 1e3;
    m.usd_per_cost_unit = millions ? 1e6 : thousands ? 1e3 : 1;
    m.cost_unit = millions ? QStringLiteral("M USD") : thousands ? QStringLiteral("k USD") : QStringLiteral("USD");
    const QString time_title = QStringLiteral("Time to train (") + m.time_unit + QStringLiteral(")");
    const QString cost_title = QStringLiteral("Cost to train (") + m.cost_unit + QStringLiteral(")");

    std::vector<QPointF> front;
    double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
    for (const ParetoPoint& p : points) {
        if (!drawable(p)) continue;
        const QPointF pos(p.time_to_train_s / m.seconds_per_time_unit, p.cost_usd / m.usd_per_cost_unit);
        m.points.push_back({pos, QString::fromStdString(p.label), pareto_tooltip(p, m, pos), p.on_front});
        if (p.on_front) front.push_back(pos);
        x_lo = std::min(x_lo, pos.x());
        x_hi = std::max(x_hi, pos.x());
        y_lo = std::min(y_lo, pos.y());
        y_hi = std::max(y_hi, pos.y());
    }
    m.front_steps = front_staircase(std::move(front));
    if (!m.points.empty() && !(y_hi > 0)) {
        // Without any price every point costs $0: a cost axis from -2 to 2 would say nothing.
        m.points.clear();
        m.front_steps.clear();
        m.message = QStringLiteral(
            "No cost to plot: every configuration costs $0.\nSet a GPU-hour or purchase price (or electricity) on this page.");
        m.time_axis = nice_axis(1, time_title);
        m.cost_axis = nice_axis(1, cost_title);
        return m;
    }
    if (m.points.empty()) {
        m.message = points.empty() ? QStringLiteral("No data")
                                   : QStringLiteral("No feasible configuration (") + QString::number(m.infeasible_count) +
                                         QStringLiteral(" infeasible)");
        m.time_axis = nice_axis(1, time_title);
        m.cost_axis = nice_axis(1, cost_title);
        return m;
    }
    m.time_axis = nice_range(x_lo, x_hi, time_title);
    m.cost_axis = nice_range(y_lo, y_hi, cost_title);
    return m;
}

std::vector<QRectF> place_point_labels(const std::vector<QPointF>& anchors, const std::vector<QSizeF>& sizes, QRectF bounds,
                                       qreal marker_radius, const std::vector<QRectF>& obstacles) {
    const qreal r = marker_radius;
    const qreal gap = r + 3;
    std::vector<QRectF> taken = obstacles;  // obstacles, markers, then the labels placed so far
    for (const QPointF& a : anchors) taken.emplace_back(a.x() - r, a.y() - r, 2 * r, 2 * r);
    const auto overlap = [&](const QRectF& c) {
        qreal area = 0;
        for (const QRectF& t : taken) {
            const QRectF i = c.intersected(t);
            if (i.isValid()) area += i.width() * i.height();
        }
        const QRectF in = c.intersected(bounds);
        const qreal inside = in.isValid() ? in.width() * in.height() : 0;
        return area + 4 * (c.width() * c.height() - inside);  // leaving the plot is worse than touching a neighbour
    };
    std::vector<QRectF> out;
    for (std::size_t i = 0; i < anchors.size() && i < sizes.size(); ++i) {
        const QPointF a = anchors[i];
        const qreal w = sizes[i].width(), h = sizes[i].height();
        const std::array<QPointF, 8> corners{{
            {a.x() + gap, a.y() - h / 2},      // right
            {a.x() - gap - w, a.y() - h / 2},  // left
            {a.x() - w / 2, a.y() - gap - h},  // above
            {a.x() - w / 2, a.y() + gap},      // below
            {a.x() + r, a.y() - r - h},        // above right
            {a.x() + r, a.y() + r},            // below right
            {a.x() - r - w, a.y() - r - h},    // above left
            {a.x() - r - w, a.y() + r},        // below left
        }};
        QRectF best;
        qreal best_cost = std::numeric_limits<qreal>::infinity();
        for (const QPointF& corner : corners) {
            const QRectF c(corner, QSizeF(w, h));
            const qreal cost = overlap(c);
            if (cost < best_cost) {
                best = c;
                best_cost = cost;
            }
            if (cost <= 0) break;
        }
        out.push_back(best);
        taken.push_back(best);
    }
    return out;
}

}  // namespace comet::ui

#include "chart_model.hpp"

#include <QStringList>
#include <algorithm>
#include <array>
#include <cmath>

#include "comet/units.hpp"
#include "common/metrics.hpp"

namespace comet::ui {
namespace {

// Okabe-Ito palette (plus its grey), distinguishable with the common colour-vision deficiencies.
const QColor oi_blue{0x00, 0x72, 0xB2};
const QColor oi_sky{0x56, 0xB4, 0xE9};
const QColor oi_green{0x00, 0x9E, 0x73};
const QColor oi_orange{0xE6, 0x9F, 0x00};
const QColor oi_yellow{0xF0, 0xE4, 0x42};
const QColor oi_vermillion{0xD5, 0x5E, 0x00};
const QColor oi_purple{0xCC, 0x79, 0xA7};
const QColor oi_grey{0x99, 0x99, 0x99};

// Room past the longest bar for its total label.
constexpr double total_label_headroom = 1.15;

std::array<double, 8> time_parts(const TimeBreakdown& t) {
    return {t.compute_s, t.bubble_s, t.tp_comm_s, t.pp_comm_s, t.dp_comm_s, t.memory_s, t.optimizer_s, t.other_s};
}

std::array<double, 5> memory_parts(const MemoryFootprint& m) {
    return {m.weights_bytes, m.gradients_bytes, m.optimizer_bytes, m.activations_bytes, m.other_bytes};
}

std::vector<StackSeries> empty_series(std::span<const StackCategory> cats, std::size_t bars) {
    std::vector<StackSeries> out;
    out.reserve(cats.size());
    for (const StackCategory& c : cats)
        out.push_back({c.name, c.color, std::vector<double>(bars, 0.0), std::vector<QString>(bars), true});
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
    static const std::array<StackCategory, 8> cats{{
        {QStringLiteral("Compute"), oi_blue},
        {QStringLiteral("Pipeline bubble"), oi_grey},
        {QStringLiteral("TP comm"), oi_orange},
        {QStringLiteral("PP comm"), oi_sky},
        {QStringLiteral("DP comm"), oi_green},
        {QStringLiteral("Memory"), oi_purple},
        {QStringLiteral("Optimizer"), oi_yellow},
        {QStringLiteral("Other"), oi_vermillion},
    }};
    return cats;
}

std::span<const StackCategory> memory_categories() {
    static const std::array<StackCategory, 5> cats{{
        {QStringLiteral("Weights"), oi_blue},
        {QStringLiteral("Gradients"), oi_sky},
        {QStringLiteral("Optimizer"), oi_yellow},
        {QStringLiteral("Activations"), oi_green},
        {QStringLiteral("Other"), oi_grey},
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

ValueAxisModel nice_axis(double largest, const QString& title) {
    constexpr int max_intervals = 5;
    if (!(largest > 0) || !std::isfinite(largest)) largest = 1;
    const int k0 = static_cast<int>(std::floor(std::log10(largest / max_intervals)));
    for (int k = k0;; ++k) {
        for (double mant : {1.0, 2.0, 2.5, 5.0}) {
            const double step = mant * std::pow(10.0, k);
            const double intervals = std::ceil(largest / step - 1e-9);
            if (intervals > max_intervals) continue;
            const int decimals = std::max(0, -k + (mant == 2.5 ? 1 : 0));
            return {title, intervals * step, static_cast<int>(intervals) + 1,
                    QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f")};
        }
    }
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
        const auto parts = time_parts(bars[b].time);
        for (std::size_t c = 0; c < parts.size(); ++c) m.series[c].values[b] = parts[c] * m.per_second;
    }
    m.axis = nice_axis(largest_s * m.per_second * total_label_headroom,
                       QStringLiteral("Iteration time (") + m.unit + QStringLiteral(")"));
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
        const auto parts = memory_parts(f);
        for (std::size_t c = 0; c < parts.size(); ++c) m.series[c].values[t] = units::bytes_to_gib(parts[c]);
        const double used = units::bytes_to_gib(f.used_bytes());
        const double cap = std::max(0.0, units::bytes_to_gib(f.capacity_bytes));
        m.capacity_gib.push_back(cap);
        m.over_capacity.push_back(cap > 0 && used > cap);
        largest = std::max({largest, used, cap});
        if (m.over_capacity.back())
            overs << tiers[t].tier + QStringLiteral(" exceeds capacity by ") + format_amount(used - cap) +
                         QStringLiteral(" GiB");
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
    const QString amount = v >= 0.1 || v == 0 ? format_amount(v) + QStringLiteral(" ") + m.unit
                                              : format_seconds(v / m.per_second);
    return m.bar_labels[bar] + QStringLiteral("\n") + s.name + QStringLiteral(": ") + amount + QStringLiteral(" (") +
           percent_text(v, m.totals[bar]) + QStringLiteral(")");
}

QString segment_tooltip(const MemorySeriesModel& m, std::size_t category, std::size_t bar) {
    if (category >= m.series.size() || bar >= m.bar_count()) return {};
    const StackSeries& s = m.series[category];
    const double v = s.values[bar];
    const bool has_cap = m.capacity_gib[bar] > 0;
    return m.bar_labels[bar] + QStringLiteral("\n") + s.name + QStringLiteral(": ") + format_amount(v) +
           QStringLiteral(" GiB (") + percent_text(v, has_cap ? m.capacity_gib[bar] : m.totals[bar]) +
           (has_cap ? QStringLiteral(" of capacity)") : QStringLiteral(" of used)"));
}

}  // namespace comet::ui

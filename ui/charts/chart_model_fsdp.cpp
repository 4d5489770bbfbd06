// The FSDP balance chart's model (chart_model.hpp): two lines over the cluster size, tokens per
// GPU needed to hide the FSDP traffic and the most that HBM allows, and where the first is below
// the second.

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

#include "chart_model.hpp"
#include "common/metrics.hpp"

namespace comet::ui {
namespace {

// Okabe-Ito, as the other charts.
const QColor needed_color{0xD5, 0x5E, 0x00};   // vermillion
const QColor allowed_color{0x00, 0x72, 0xB2};  // blue
const QColor hidden_color{0x00, 0x9E, 0x73};   // bluish green

// Room on both sides of the x range, so that the end points are not cut in half (factor on a log axis).
constexpr double x_padding_factor = 1.25;
// Room above the highest point on a linear axis, and beyond both ends on a log axis (factor).
constexpr double y_headroom = 1.1;
constexpr double log_margin_factor = 1.3;

bool runs(const FsdpPoint& p) { return p.reason == Infeasible::none; }

QString gpus_text(const FsdpPoint& p) { return QStringLiteral("dp %1 · %2 GPUs").arg(p.dp).arg(p.gpus); }

QString point_tooltip(const FsdpPoint& p) {
    QStringList lines{gpus_text(p)};
    if (!runs(p)) {
        lines << QStringLiteral("Cannot run: ") + fsdp_verdict(p);
        return lines.join(QLatin1Char('\n'));
    }
    lines << QStringLiteral("Needed to hide FSDP: %1 tokens per GPU").arg(format_tokens(p.tokens_to_hide));
    if (p.max_tokens_hbm > 0)
        lines << QStringLiteral("HBM allows: %1 tokens per GPU (microbatch %2)").arg(format_tokens(p.max_tokens_hbm)).arg(p.max_microbatch);
    else
        lines << QStringLiteral("HBM allows: not even one sequence");
    lines << QStringLiteral("FSDP traffic per microbatch: ") + format_seconds(p.fsdp_comm_s);
    lines << (p.hidden() ? QStringLiteral("FSDP can be hidden") : QStringLiteral("FSDP traffic stays exposed"));
    return lines.join(QLatin1Char('\n'));
}

QString dp_list(const std::vector<int>& dps) {
    QStringList parts;
    for (int dp : dps) parts << QString::number(dp);
    return QStringLiteral("dp ") + parts.join(QStringLiteral(", "));
}

// Powers of ten around [lo, hi] (both > 0).
std::pair<double, double> decades(double lo, double hi) {
    return {std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi) + 1e-12))};
}

}  // namespace

QString format_tokens(double tokens) {
    const double a = std::abs(tokens);
    if (a >= 1e6) return format_amount(tokens / 1e6) + QStringLiteral(" M");
    if (a >= 1e3) return format_amount(tokens / 1e3) + QStringLiteral(" k");
    return QString::number(std::round(tokens), 'f', 0);
}

QString fsdp_verdict(const FsdpPoint& p) {
    if (!runs(p)) {
        const std::string_view why = describe(p.reason);
        return QString::fromUtf8(why.data(), static_cast<qsizetype>(why.size()));
    }
    if (!(p.max_tokens_hbm > 0)) return QStringLiteral("no sequence fits in HBM");
    return p.hidden() ? QStringLiteral("hidden") : QStringLiteral("exposed");
}

FsdpChartModel build_fsdp_model(const std::vector<FsdpPoint>& points) {
    FsdpChartModel m;
    m.needed_name = QStringLiteral("Tokens per GPU needed to hide FSDP traffic");
    m.allowed_name = QStringLiteral("Most tokens per GPU HBM allows");
    m.hidden_name = QStringLiteral("FSDP hidden");
    m.needed_color = needed_color;
    m.allowed_color = allowed_color;
    m.hidden_color = hidden_color;
    m.default_title = QStringLiteral("FSDP balance: tokens per GPU per microbatch");
    m.x_title = QStringLiteral("GPUs");
    m.y_axis = nice_axis(1, QStringLiteral("Tokens per GPU"));

    const double inf = std::numeric_limits<double>::infinity();
    double lo = inf, hi = 0, x_lo = inf, x_hi = 0;
    std::vector<int> cannot_run, no_sequence;
    for (const FsdpPoint& p : points) {
        if (!runs(p) || !(p.gpus > 0)) {
            cannot_run.push_back(p.dp);
            continue;
        }
        for (double v : {p.tokens_to_hide, p.max_tokens_hbm}) {
            if (!(v > 0)) continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        if (!(p.max_tokens_hbm > 0)) no_sequence.push_back(p.dp);
        x_lo = std::min(x_lo, static_cast<double>(p.gpus));
        x_hi = std::max(x_hi, static_cast<double>(p.gpus));
    }
    if (!(hi > 0)) {
        if (!points.empty() && !cannot_run.empty())
            m.message = QStringLiteral("No size can run: ") + fsdp_verdict(points.front());
        else
            m.message = QStringLiteral("No data");
        return m;
    }
    m.log_y = hi / lo > fsdp_log_span;
    for (const FsdpPoint& p : points) {
        if (!runs(p) || !(p.gpus > 0)) continue;
        const double x = static_cast<double>(p.gpus);
        const QString tip = point_tooltip(p);
        // A log axis cannot place 0: such a point is left out (and listed as not drawn).
        if (!m.log_y || p.tokens_to_hide > 0) m.needed.push_back({QPointF(x, p.tokens_to_hide), tip});
        if (!m.log_y || p.max_tokens_hbm > 0) m.allowed.push_back({QPointF(x, p.max_tokens_hbm), tip});
        if (p.hidden()) m.hidden.emplace_back(x, p.tokens_to_hide);
    }
    QStringList notes;
    if (m.log_y && !no_sequence.empty()) notes << dp_list(no_sequence) + QStringLiteral(" (no sequence fits in HBM)");
    if (!cannot_run.empty()) notes << dp_list(cannot_run) + QStringLiteral(" (cannot run)");
    if (!notes.isEmpty()) m.not_drawn = QStringLiteral("Not drawn: ") + notes.join(QStringLiteral("; "));

    m.x_min = x_lo / x_padding_factor;
    m.x_max = x_hi * x_padding_factor;
    const FsdpPoint& first = *std::find_if(points.begin(), points.end(), [](const FsdpPoint& p) { return runs(p) && p.gpus > 0; });
    const long long per_replica = first.dp > 0 ? first.gpus / first.dp : 0;
    if (per_replica > 1) m.x_title = QStringLiteral("GPUs (dp × %1 per replica)").arg(per_replica);
    m.y_axis = nice_axis(hi * y_headroom, QStringLiteral("Tokens per GPU"));
    // Whole decades, so that both ends carry a label, and room for the markers at either end.
    const auto [dlo, dhi] = decades(lo, hi);
    m.y_log_min = std::min(dlo, lo / log_margin_factor);
    m.y_log_max = std::max(dhi, hi * log_margin_factor);
    return m;
}

}  // namespace comet::ui

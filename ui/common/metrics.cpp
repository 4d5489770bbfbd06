#include "metrics.hpp"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "comet/pipeline.hpp"
#include "comet/report.hpp"
#include "comet/units.hpp"

namespace comet::ui {
namespace {
const std::array<MetricInfo, 9>& table() {
    static const std::array<MetricInfo, 9> t{{
        {Metric::iteration_time, "iteration_time", QStringLiteral("Iteration time"), QStringLiteral("s"), false},
        {Metric::tokens_per_s, "tokens_per_s", QStringLiteral("Throughput"), QStringLiteral("tokens/s"), true},
        {Metric::mfu, "mfu", QStringLiteral("MFU"), QStringLiteral("%"), true},
        {Metric::exposed_comm_share, "exposed_comm_share", QStringLiteral("Exposed communication"), QStringLiteral("%"), false,
         QStringLiteral("Exposed comm.")},
        {Metric::exposed_memory_share, "exposed_memory_share", QStringLiteral("Exposed memory time"), QStringLiteral("%"), false,
         QStringLiteral("Exposed memory")},
        {Metric::hbm_use, "hbm_use", QStringLiteral("HBM use"), QStringLiteral("GiB"), false},
        {Metric::cost_per_million_tokens, "cost_per_million_tokens", QStringLiteral("Cost per M tokens"), QStringLiteral("$"), false,
         QStringLiteral("$ / M tokens")},
        {Metric::time_to_train, "time_to_train", QStringLiteral("Time to train"), QStringLiteral("s"), false},
        {Metric::strategy_family, "strategy_family", QStringLiteral("Strategy family"), QString(), false, QStringLiteral("Family")},
    }};
    return t;
}
}  // namespace

std::span<const MetricInfo> all_metrics() { return table(); }

const MetricInfo& metric_info(Metric m) { return table()[static_cast<std::size_t>(m)]; }

double metric_value(const Result& r, Metric m) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (m == Metric::hbm_use)
        return r.reason == Infeasible::none || r.reason == Infeasible::hbm_capacity || r.reason == Infeasible::expanded_capacity
                   ? units::bytes_to_gib(r.hbm.used_bytes())
                   : nan;
    if (!r.feasible || !(r.iteration_s > 0)) return nan;
    switch (m) {
        case Metric::iteration_time:
            return r.iteration_s;
        case Metric::tokens_per_s:
            return r.tokens_per_s;
        case Metric::mfu:
            return 100.0 * r.mfu;
        case Metric::exposed_comm_share:
            return 100.0 *
                   (r.time.tp_comm_s + r.time.pp_comm_s + r.time.dp_comm_s + r.time.ep_comm_s + r.time.cp_comm_s + r.time.emb_comm_s) /
                   r.iteration_s;
        case Metric::exposed_memory_share:
            return 100.0 * r.time.memory_s / r.iteration_s;
        case Metric::hbm_use:
        case Metric::cost_per_million_tokens:
        case Metric::time_to_train:
        case Metric::strategy_family:
            break;  // cost_metric_value(); a family comes from the strategy (strategy_family())
    }
    return nan;
}

QString metric_label(Metric m, Workload w) {
    if (m == Metric::cost_per_million_tokens && w == Workload::dlrm) return QStringLiteral("Cost per M samples");
    return metric_info(m).label;
}

double cost_metric_value(const CostReport& c, Metric m, QString* why) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto none = [&](const QString& reason) {
        if (why) *why = reason;
        return nan;
    };
    if (!c.valid) return none(QStringLiteral("no cost: the configuration cannot run or the cost inputs are invalid"));
    if (m == Metric::cost_per_million_tokens)
        return c.cost_per_million_tokens_usd > 0
                   ? c.cost_per_million_tokens_usd
                   : none(QStringLiteral("no price: give a GPU price or an energy price on the Cost & Sensitivity page"));
    if (m == Metric::time_to_train)
        return c.time_to_train_s > 0 ? c.time_to_train_s
                                     : none(QStringLiteral("no token budget: set the tokens to train on the Cost & Sensitivity page"));
    return nan;
}

QString display_unit(std::string_view unit) {
    if (unit == "us") return QStringLiteral("µs");
    return QString::fromUtf8(unit.data(), static_cast<qsizetype>(unit.size()));
}

QString format_seconds(double s) { return QString::fromStdString(comet::format_seconds(s)); }

QString format_metric(double v, Metric m, Workload w) {
    if (!std::isfinite(v)) return QStringLiteral("–");
    switch (m) {
        case Metric::iteration_time:
            return format_seconds(v);
        case Metric::tokens_per_s: {
            const QString per_s = w == Workload::dlrm ? QStringLiteral("samples/s") : QStringLiteral("tokens/s");
            if (v >= 1e6) return QString::number(v / 1e6, 'f', 2) + QStringLiteral(" M ") + per_s;
            if (v >= 1e3) return QString::number(v / 1e3, 'f', 1) + QStringLiteral(" k ") + per_s;
            return QString::number(v, 'f', 0) + QLatin1Char(' ') + per_s;
        }
        case Metric::mfu:
        case Metric::exposed_comm_share:
        case Metric::exposed_memory_share:
            return QString::number(v, 'f', 1) + QStringLiteral(" %");
        case Metric::hbm_use:
            return QString::number(v, 'f', 1) + QStringLiteral(" GiB");
        case Metric::cost_per_million_tokens:
            return format_money(v);
        case Metric::time_to_train:
            return format_duration(v);
        case Metric::strategy_family:
            break;  // a category index: the heatmap names it (format_heatmap_value())
    }
    return QString::number(v);
}

QString strategy_family(const Strategy& s, Workload w) {
    if (w == Workload::dlrm) {
        switch (s.emb_placement) {
            case EmbeddingPlacement::hbm:
                return QStringLiteral("Tables in HBM");
            case EmbeddingPlacement::expanded:
                return QStringLiteral("Tables in expanded memory");
            case EmbeddingPlacement::cached:
                return QStringLiteral("Tables cached in HBM");
        }
        return QStringLiteral("Tables");
    }
    QStringList parts;
    if (s.tp > 1) parts << QStringLiteral("TP");
    if (s.pp > 1) parts << QStringLiteral("PP");
    if (s.cp > 1) parts << QStringLiteral("CP");
    if (s.ep > 1) parts << QStringLiteral("EP");
    if (s.zero_stage >= 3 && s.dp > 1)
        parts << QStringLiteral("FSDP");
    else if (s.dp > 1)
        parts << QStringLiteral("DP");
    return parts.isEmpty() ? QStringLiteral("One GPU") : parts.join(QLatin1Char('+'));
}

QString format_duration(double s) { return QString::fromStdString(comet::format_duration(s)); }

QString format_money(double usd) { return QString::fromStdString(comet::format_usd(usd)); }

QString format_energy(double kwh) { return QString::fromStdString(comet::format_kwh(kwh)); }

QString with_minus_sign(QString text) { return text.replace(QLatin1Char('-'), QChar(0x2212)); }

QString signed_percent(double fraction, int decimals) { return with_minus_sign(QString::asprintf("%+.*f %%", decimals, 100 * fraction)); }

QString format_count(double n) {
    if (n >= 1e12) return QString::number(n / 1e12, 'f', 2) + QStringLiteral(" T");
    if (n >= 1e9) return QString::number(n / 1e9, 'f', 1) + QStringLiteral(" B");
    if (n >= 1e6) return QString::number(n / 1e6, 'f', 1) + QStringLiteral(" M");
    return QString::number(std::round(n), 'f', 0);
}

QString format_parameters(double total, double active) {
    // Within rounding of the total, a token touches the whole model: a dense model.
    if (!(active > 0) || active >= total * (1 - 1e-9)) return format_count(total);
    return QObject::tr("%1 total, %2 active").arg(format_count(total), format_count(active));
}

QString format_stage_layout(const ModelSpec& m, const Strategy& s) {
    const int layers = m.layers;
    const StageLayout l = stage_layout(layers, s);
    // Multi-token prediction modules follow the last stage's layers (Megatron-LM's "mtp").
    const QString mtp = m.mtp_layers > 0 ? QObject::tr(", + %1 MTP on the last stage").arg(m.mtp_layers) : QString();
    const QString n = QString::number(std::max(1, s.pp));
    if (!l.ok)
        return QObject::tr("Stages: %1 layers cannot be laid out over %2 stages%3 as set")
            .arg(QString::number(layers), n, s.interleave > 1 ? QObject::tr(" × %1 chunks").arg(s.interleave) : QString());
    const auto run = [](int each, int count) {
        return count == 1 ? QString::number(each) : QStringLiteral("%1 × %2").arg(QString::number(each), QString::number(count));
    };
    if (l.even()) return QObject::tr("Stages: %1 layers").arg(run(l.first, l.p)) + mtp;
    QStringList parts{QString::number(l.first)};
    const int middle = l.p - 2;
    if (middle > 0) {
        const int hi = l.mid_hi_count, lo = middle - l.mid_hi_count;
        if (hi > 0 && lo > 0 && l.mid_hi != l.mid_lo)
            parts << run(l.mid_hi, hi) << run(l.mid_lo, lo);
        else
            parts << run(hi > 0 ? l.mid_hi : l.mid_lo, middle);
    }
    parts << QString::number(l.last);
    return QObject::tr("Stages: %1 layers").arg(parts.join(QStringLiteral(" | "))) + mtp;
}

}  // namespace comet::ui

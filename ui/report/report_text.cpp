#include "report/report_text.hpp"

#include <QLocale>
#include <QStringList>
#include <cmath>
#include <string_view>

#include "charts/chart_model.hpp"
#include "common/metrics.hpp"
#include "common/validation_status.hpp"
#include "comet/dlrm.hpp"
#include "comet/report.hpp"
#include "comet/units.hpp"
#include "comet/workload.hpp"

namespace comet::ui::report {
namespace {

// User and preset text (names, descriptions, sources) goes into HTML: always escaped.
QString esc(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())).toHtmlEscaped(); }
QString esc(const QString& s) { return s.toHtmlEscaped(); }
QString num(double v, int decimals) { return QString::number(v, 'f', decimals); }
QString g(double v) { return QString::number(v, 'g', 4); }
QString pct(double fraction) { return num(100 * fraction, 1) + QStringLiteral(" %"); }
QString gib(double bytes) { return num(units::bytes_to_gib(bytes), 1) + QStringLiteral(" GiB"); }
QString integer(long long n) { return QLocale::c().toString(n); }
QString strategy_text(const Strategy& s, Workload w) { return esc(format_strategy(s, w)); }

struct Row {
    QString label;
    QString value;  // HTML
};

// Label/value pairs: labels in grey, values left-aligned.
QString rows_table(std::initializer_list<Row> rows) {
    QString o = QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"1\">");
    for (const Row& r : rows) {
        if (r.value.isEmpty()) continue;  // optional rows
        o += QStringLiteral("<tr><td width=\"32%\" class=\"k\">") + r.label + QStringLiteral("</td><td>") + r.value +
             QStringLiteral("</td></tr>");
    }
    return o + QStringLiteral("</table>");
}

// A ruled table with a header row; cells are HTML, `right` marks numeric columns.
QString grid_table(const QStringList& header, const std::vector<QStringList>& rows, const std::vector<bool>& right) {
    const auto align = [&](qsizetype c) {
        return c < static_cast<qsizetype>(right.size()) && right[static_cast<std::size_t>(c)] ? QStringLiteral(" align=\"right\"")
                                                                                              : QString();
    };
    QString o = QStringLiteral("<table class=\"grid\" width=\"100%\" cellspacing=\"0\" cellpadding=\"2\" border=\"1\"><tr>");
    for (qsizetype c = 0; c < header.size(); ++c)
        o += QStringLiteral("<th") + align(c) + QStringLiteral(">") + header[c] + QStringLiteral("</th>");
    o += QStringLiteral("</tr>");
    for (const QStringList& row : rows) {
        o += QStringLiteral("<tr>");
        for (qsizetype c = 0; c < row.size(); ++c)
            o += QStringLiteral("<td") + align(c) + QStringLiteral(">") + row[c] + QStringLiteral("</td>");
        o += QStringLiteral("</tr>");
    }
    return o + QStringLiteral("</table>");
}

QString heading(const QString& title) { return QStringLiteral("<h2>") + title + QStringLiteral("</h2>"); }
QString swatch(const QColor& c) { return QStringLiteral("<span style=\"color:%1\">&#9632;</span> ").arg(c.name()); }

// Long provenance texts are kept whole up to a page's worth; beyond that they would only shrink
// the rest of the page.
QString clipped(std::string_view s, qsizetype max_chars = 900) {
    QString t = QString::fromUtf8(s.data(), qsizetype(s.size()));
    if (t.size() > max_chars) t = t.left(max_chars - 1) + QChar(0x2026);
    return t.toHtmlEscaped();
}

QString breakdown_table(const TimeBreakdown& time) {
    // The chart's own model, so that the parts, their order, names and colours match the charts.
    const BreakdownSeriesModel m = build_breakdown_model({{QString(), time}});
    const double total = m.totals.empty() ? 0 : m.totals.front();
    std::vector<QStringList> rows;
    for (const StackSeries& s : m.series) {
        if (s.all_zero) continue;
        const double v = s.values.front();
        rows.push_back({swatch(s.color) + esc(s.name), format_amount(v) + QStringLiteral(" ") + m.unit,
                        total > 0 ? num(100 * v / total, 1) + QStringLiteral(" %") : QString()});
    }
    rows.push_back({QStringLiteral("<b>Iteration</b>"),
                    QStringLiteral("<b>") + format_amount(total) + QStringLiteral(" ") + m.unit + QStringLiteral("</b>"),
                    QStringLiteral("100 %")});
    return grid_table({QStringLiteral("Time per iteration"), QStringLiteral("Time"), QStringLiteral("Share")}, rows, {false, true, true});
}

QString memory_table(const Result& r) {
    const std::vector<MemoryBar> tiers = memory_tiers(r);
    const MemorySeriesModel m = build_memory_model(tiers);
    QStringList header{QStringLiteral("Memory per accelerator (GiB)")};
    for (const MemoryBar& t : tiers) header << t.tier;
    std::vector<QStringList> rows;
    for (const StackSeries& s : m.series) {
        QStringList row{swatch(s.color) + esc(s.name)};
        for (double v : s.values) row << num(v, 1);
        rows.push_back(row);
    }
    QStringList used{QStringLiteral("<b>Used</b>")}, capacity{QStringLiteral("Capacity")};
    for (std::size_t t = 0; t < tiers.size(); ++t) {
        const QString total = num(m.totals[t], 1);
        used << (m.over_capacity[t] ? QStringLiteral("<b style=\"color:#b00020\">") + total + QStringLiteral(" (over)</b>")
                                    : QStringLiteral("<b>") + total + QStringLiteral("</b>"));
        capacity << num(m.capacity_gib[t], 1);
    }
    rows.push_back(used);
    rows.push_back(capacity);
    return grid_table(header, rows, {false, true, true});
}

QString infeasible_text(const Result& r) {
    return QStringLiteral("<p class=\"bad\"><b>Infeasible:</b> ") + esc(explain(r)) + QStringLiteral("</p>");
}

QString precision_text(const TrainingSpec& t) {
    return esc(to_string(t.precision)) + QStringLiteral(", ") + esc(to_string(t.optimizer)) +
           QStringLiteral(" optimizer, gradients reduced in ") + esc(to_string(t.grad_reduce)) + QStringLiteral(", ") +
           esc(to_string(t.attention)) + QStringLiteral(" attention") + (t.dropout ? QStringLiteral(", dropout") : QString()) +
           (t.cuda_graphs ? QStringLiteral(", CUDA graphs") : QString());
}

QString node_compute_text(const NodeSpec& n) {
    QString o = g(n.matrix_fp16_tflops) + QStringLiteral(" TFLOP/s FP16/BF16 matrix");
    if (n.matrix_fp8_tflops > 0) o += QStringLiteral(", ") + g(n.matrix_fp8_tflops) + QStringLiteral(" FP8");
    if (n.matrix_fp4_tflops > 0) o += QStringLiteral(", ") + g(n.matrix_fp4_tflops) + QStringLiteral(" FP4");
    return o + QStringLiteral(", ") + g(n.vector_tflops) + QStringLiteral(" vector");
}

QString expanded_text(const ExpandedMemory& e) {
    if (e.capacity_gib <= 0) return QStringLiteral("none");
    QString o = g(e.capacity_gib) + QStringLiteral(" GiB at ") + g(e.bandwidth_gbps) + QStringLiteral(" GB/s, ") + g(e.latency_us) +
                QStringLiteral(" µs, ") + esc(to_string(e.attach));
    if (e.attach == ExpandedAttach::pooled) o += QStringLiteral(" by ") + QString::number(e.pool_nodes) + QStringLiteral(" nodes");
    return o;
}

QString gpu_price_text(const CostInputs& in) { return QString::fromStdString(format_gpu_price(in)); }

// "8 routed (top-2, MLP 14336), every layer" or "256 routed (top-8, MLP 2048) + 1 shared, after 3
// dense layers, capacity 1.25"; empty (no row) for a dense model.
QString experts_text(const ModelSpec& m) {
    if (!m.is_moe()) return {};
    QString o = QString::number(m.experts) + QStringLiteral(" routed (top-") + QString::number(m.experts_per_token) +
                QStringLiteral(", MLP ") + QString::number(m.expert_ffn_hidden) + QStringLiteral(")");
    if (m.shared_experts > 0) o += QStringLiteral(" + ") + QString::number(m.shared_experts) + QStringLiteral(" shared");
    if (m.dense_layers > 0) o += QStringLiteral(", after ") + QString::number(m.dense_layers) + QStringLiteral(" dense layers");
    if (m.moe_layer_interval > 1) o += QStringLiteral(", every ") + QString::number(m.moe_layer_interval) + QStringLiteral(" layers");
    if (m.capacity_factor != 1.0) o += QStringLiteral(", capacity factor ") + g(m.capacity_factor);
    return o;
}

// A training budget in the workload's items: tokens for a transformer, samples for a DLRM.
QString tokens_text(double tokens, Workload w = Workload::transformer) {
    return tokens > 0 ? format_count(tokens) + (w == Workload::dlrm ? QStringLiteral(" samples") : QStringLiteral(" tokens"))
                      : QStringLiteral("not given");
}

}  // namespace

std::vector<MemoryBar> memory_tiers(const Result& r) {
    std::vector<MemoryBar> tiers{{QStringLiteral("HBM"), r.hbm}};
    if (r.expanded.capacity_bytes > 0 || r.expanded.used_bytes() > 0) tiers.push_back({QStringLiteral("Expanded"), r.expanded});
    return tiers;
}

QString format_count(double n) { return ui::format_count(n); }

QString format_speedup(double speedup) { return speedup > 0 ? num(speedup, 2) + QStringLiteral("x") : QStringLiteral("–"); }

QString style_sheet() {
    return QStringLiteral(
        "body { font-size: 8pt; color: #202020; }"
        "h2 { font-size: 10pt; color: #1f3b5a; margin-top: 7px; margin-bottom: 2px; }"
        "p { margin-top: 0px; margin-bottom: 3px; }"
        "td.k { color: #555555; }"
        "table.grid { border-color: #b8c4d0; border-style: solid; border-collapse: collapse; margin-top: 3px; margin-bottom: 3px; }"
        "th { background-color: #e6edf4; font-weight: bold; }"
        "p.bad { color: #b00020; }"
        "p.note { color: #555555; }");
}

QString scenario_html(const ReportData& d, const QDateTime& when) {
    const Scenario& s = d.scenario;
    const ModelSpec& m = s.config.model;
    const NodeSpec& n = s.config.node;
    const long long gpus = static_cast<long long>(s.config.cluster.nodes) * n.accelerators;
    const double tokens_per_iteration = static_cast<double>(s.config.training.global_batch) * m.seq_len;
    QString o = heading(QStringLiteral("Scenario"));
    o += QStringLiteral("<p><b>") + esc(s.name.empty() ? std::string_view("(unnamed)") : std::string_view(s.name)) +
         QStringLiteral("</b></p>");
    if (!s.description.empty()) o += QStringLiteral("<p>") + clipped(s.description, 600) + QStringLiteral("</p>");
    o += rows_table({{QStringLiteral("Report date"), when.toString(QStringLiteral("yyyy-MM-dd HH:mm"))}});

    o += heading(QStringLiteral("Model"));
    if (s.config.workload == Workload::dlrm) {
        const DlrmSpec& dl = s.config.dlrm;
        QStringList mlp;
        for (int i = 0; i < dl.bottom_layers; ++i) mlp << QString::number(dl.bottom_mlp[static_cast<std::size_t>(i)]);
        QStringList top;
        for (int i = 0; i < dl.top_layers; ++i) top << QString::number(dl.top_mlp[static_cast<std::size_t>(i)]);
        o += rows_table({
            {QStringLiteral("Name"), esc(s.model_info.name)},
            {QStringLiteral("Kind"), QStringLiteral("recommendation model (DLRM)")},
            {QStringLiteral("Size"), esc(format_dlrm_size(dl))},
            {QStringLiteral("Lookups per sample"), g(dlrm_lookups_per_sample(dl))},
            {QStringLiteral("MLPs"), QStringLiteral("bottom ") + QString::number(dl.dense_features) + QStringLiteral("-") + mlp.join(u'-') +
                                         QStringLiteral(", top ") + top.join(u'-')},
            {QStringLiteral("Interaction"), dl.interaction == DlrmInteraction::dot
                                                ? QStringLiteral("pairwise dot products")
                                                : QStringLiteral("DCNv2, ") + QString::number(dl.cross_layers) +
                                                      QStringLiteral(" cross layers of rank ") + QString::number(dl.cross_rank)},
        });
    } else
        o += rows_table({
            {QStringLiteral("Name"), esc(s.model_info.name)},
            {QStringLiteral("Parameters"), format_parameters(total_parameters(m), active_parameters(m))},
            {QStringLiteral("Layers × hidden"), QString::number(m.layers) + QStringLiteral(" × ") + QString::number(m.hidden) +
                                                    QStringLiteral(" (MLP ") + QString::number(m.ffn_hidden) +
                                                    (m.gated_mlp ? QStringLiteral(", gated)") : QStringLiteral(")"))},
            {QStringLiteral("Attention heads"), QString::number(m.heads) + QStringLiteral(" (KV ") + QString::number(m.kv_heads) +
                                                    QStringLiteral(", dim ") + QString::number(m.head_dim) + QStringLiteral(")")},
            {QStringLiteral("Sequence, vocabulary"), QString::number(m.seq_len) + QStringLiteral(" tokens, ") + QString::number(m.vocab)},
            {QStringLiteral("Experts"), experts_text(m)},
        });

    o += heading(QStringLiteral("Node"));
    o += rows_table({
        {QStringLiteral("Name"), esc(s.node_info.name)},
        {QStringLiteral("Accelerators"), QString::number(n.accelerators) + QStringLiteral(" per node; each:")},
        {QStringLiteral("Compute"), node_compute_text(n)},
        {QStringLiteral("HBM"), g(n.hbm_capacity_gib) + QStringLiteral(" GiB at ") + g(n.hbm_bandwidth_gbps) + QStringLiteral(" GB/s")},
        {QStringLiteral("Expanded memory"), expanded_text(n.expanded)},
        {QStringLiteral("Scale-up network"), g(n.scale_up.bandwidth_gbps) + QStringLiteral(" GB/s per direction, domain ") +
                                                 QString::number(n.scale_up.domain_size) + QStringLiteral(", ") + g(n.scale_up.latency_us) +
                                                 QStringLiteral(" µs")},
        {QStringLiteral("Scale-out network"),
         g(n.scale_out.bandwidth_gbps) + QStringLiteral(" GB/s per direction, ") + g(n.scale_out.latency_us) + QStringLiteral(" µs")},
        {QStringLiteral("Power"), n.power_kw > 0 ? g(n.power_kw) + QStringLiteral(" kW per node at load") : QStringLiteral("unknown")},
    });

    o += heading(QStringLiteral("Cluster and training"));
    o += rows_table({
        {QStringLiteral("Cluster"), integer(s.config.cluster.nodes) + QStringLiteral(" nodes × ") + QString::number(n.accelerators) +
                                        QStringLiteral(" = ") + integer(gpus) + QStringLiteral(" accelerators")},
        {QStringLiteral("Global batch"), s.config.workload == Workload::dlrm
                                             ? QString(integer(s.config.training.global_batch) + QStringLiteral(" samples"))
                                             : QString(integer(s.config.training.global_batch) + QStringLiteral(" sequences (") +
                                                       format_count(tokens_per_iteration) + QStringLiteral(" tokens)"))},
        {QStringLiteral("Training"), precision_text(s.config.training)},
        {QStringLiteral("Strategy as given"), strategy_text(s.config.strategy, s.config.workload)},
    });
    if (s.config.workload == Workload::transformer)
        o += rows_table({{QStringLiteral("Pipeline stages"),
                          esc(format_stage_layout(s.config.model, s.config.strategy).remove(QStringLiteral("Stages: ")))}});
    return o;
}

// The MFU flag of issue 40 as a report fragment ("" when the MFU is within published runs).
QString mfu_flag_html(const TrustBand& band, double mfu) {
    const QString flag = mfu_flag_text(band, mfu);
    return flag.isEmpty() ? QString() : QStringLiteral(" <span style=\"color:#b35900\">\u26A0 ") + esc(flag) + QStringLiteral("</span>");
}

QString result_html(const ReportData& d) {
    const Result& r = d.current;
    QString o = heading(QStringLiteral("Result of the strategy as given"));
    if (r.feasible) {
        o += rows_table({
            {QStringLiteral("Iteration time"), QStringLiteral("<b>") + format_seconds(r.iteration_s) + QStringLiteral("</b>")},
            {QStringLiteral("Throughput"), format_metric(r.tokens_per_s, Metric::tokens_per_s, d.scenario.config.workload)},
            {QStringLiteral("Likely range"),
             esc(trust_band_text(d.band, r.iteration_s, d.cost.valid ? d.cost.cost_per_million_tokens_usd : 0,
                                 d.cost.valid ? d.cost.time_to_train_s : 0, d.cost.valid ? d.cost.cost_to_train_usd : 0))},
            {QStringLiteral("MFU"), pct(r.mfu) + QStringLiteral(" (") + num(r.model_tflops_per_gpu, 1) +
                                        QStringLiteral(" model TFLOP/s per GPU, Megatron's count: full attention scores); ") +
                                        pct(r.mfu_causal) + QStringLiteral(" counting the causal half the kernels compute") +
                                        mfu_flag_html(d.band, r.mfu)},
        });
    } else {
        o += infeasible_text(r);
    }
    // Timed but not feasible (e.g. only memory overflows) still shows what it would cost.
    if (r.iteration_s > 0) o += breakdown_table(r.time);
    if (r.hbm.capacity_bytes > 0) o += memory_table(r);

    o += heading(QStringLiteral("Best strategy found"));
    if (!d.best) return o + QStringLiteral("<p class=\"note\">Not computed (cancelled).</p>");
    const Result& b = d.best->result;
    if (!b.feasible) return o + infeasible_text(b);
    const QString faster = r.feasible && b.iteration_s > 0 ? QStringLiteral(" (") + format_speedup(r.iteration_s / b.iteration_s) +
                                                                 QStringLiteral(" faster than the strategy as given)")
                                                           : QString();
    o += rows_table({
        {QStringLiteral("Strategy"), strategy_text(d.best->strategy, d.scenario.config.workload)},
        {QStringLiteral("Iteration time"), QStringLiteral("<b>") + format_seconds(b.iteration_s) + QStringLiteral("</b>") + faster},
        {QStringLiteral("Likely range"),
         esc(trust_band_text(d.band, b.iteration_s, d.best_cost.valid ? d.best_cost.cost_per_million_tokens_usd : 0,
                             d.best_cost.valid ? d.best_cost.time_to_train_s : 0, d.best_cost.valid ? d.best_cost.cost_to_train_usd : 0))},
        {QStringLiteral("MFU (causal), HBM used"), pct(b.mfu) + QStringLiteral(" (") + pct(b.mfu_causal) + QStringLiteral("), ") +
                                                       gib(b.hbm.used_bytes()) + QStringLiteral(" of ") + gib(b.hbm.capacity_bytes) +
                                                       mfu_flag_html(d.band, b.mfu)},
    });
    return o;
}

QString assumptions_html(const ReportData& d) {
    const Scenario& s = d.scenario;
    const NodeSpec& n = s.config.node;
    QString o = heading(QStringLiteral("Assumptions"));
    o += rows_table({
        {QStringLiteral("Validation"),
         d.validation.isEmpty()
             ? QStringLiteral("not computed")
             : esc(d.validation) + QStringLiteral(" (iteration time against presets/validation; docs/model.md, \"Validation\")")},
        {QStringLiteral("Software validation"),
         d.software_validation.isEmpty() ? QStringLiteral("not computed") : esc(d.software_validation)},
        {QStringLiteral("Node source"), s.node_info.source.empty() ? QStringLiteral("not given") : clipped(s.node_info.source)},
        {QStringLiteral("Software"), esc(s.software_info.name.empty() ? std::string("(unnamed)") : s.software_info.name) +
                                         QStringLiteral(": ") + esc(format_software(s.config))},
        {QStringLiteral("Software source"), s.software_info.source.empty() ? QStringLiteral("not given") : clipped(s.software_info.source)},
        {QStringLiteral("Model source"), s.model_info.source.empty() ? QStringLiteral("not given") : clipped(s.model_info.source)},
        {QStringLiteral("GEMM constants"),
         QStringLiteral("at most ") + pct(n.gemm.max_fraction) + QStringLiteral(" of peak; ") + g(n.gemm.tile_overhead_k) +
             QStringLiteral(" K-steps of fill per output tile; ") +
             (n.gemm.sms > 0 ? QStringLiteral("tiles in waves over ") + g(n.gemm.sms) + QStringLiteral(" SMs, split-K up to ") +
                                   g(n.gemm.max_split_k) + QStringLiteral("; ")
                             : QStringLiteral("no SM waves; ")) +
             g(n.gemm.launch_overhead_us) + QStringLiteral(" µs per kernel launch")},
        {QStringLiteral("NCCL efficiency"), pct(n.scale_up.efficiency) + QStringLiteral(" of scale-up, ") + pct(n.scale_out.efficiency) +
                                                QStringLiteral(" of scale-out bandwidth")},
        {QStringLiteral("HBM"), pct(n.hbm_efficiency) + QStringLiteral(" of bandwidth for streaming kernels; the software reserves ") +
                                    g(s.config.software.hbm_reserved_gib) + QStringLiteral(" GiB per accelerator") +
                                    (s.config.software.hbm_allocator_margin > 0
                                         ? QStringLiteral(" and its allocator loses ") + pct(s.config.software.hbm_allocator_margin)
                                         : QString())},
        {QStringLiteral("Cost inputs"), gpu_price_text(s.cost) + QStringLiteral("; electricity ") + format_usd(s.cost.price_per_kwh_usd) +
                                            QStringLiteral(" per kWh at PUE ") + g(s.cost.pue) + QStringLiteral("; training run ") +
                                            tokens_text(s.cost.tokens_to_train, s.config.workload)},
        {QStringLiteral("Method"),
         QStringLiteral("COMET (Kadiyala et al., arXiv 2211.16648); formulas in docs/model.md and docs/economics.md")},
    });
    return o;
}

QString comparison_html(const ReportData& d) {
    const Comparison& c = d.comparison;
    const bool totals = d.scenario.cost.tokens_to_train > 0;
    const QString items = d.scenario.config.workload == Workload::dlrm ? QStringLiteral("samples") : QStringLiteral("tokens");
    const QStringList header{QStringLiteral("#"),
                             QStringLiteral("Design"),
                             QStringLiteral("Nodes"),
                             QStringLiteral("GPUs"),
                             QStringLiteral("Iteration"),
                             QStringLiteral("Speedup"),
                             QStringLiteral("MFU"),
                             QStringLiteral("HBM GiB"),
                             QStringLiteral("Strategy"),
                             QStringLiteral("Cost per M ") + items,
                             totals ? QStringLiteral("Time to train") : QStringLiteral("Time per M ") + items,
                             totals ? QStringLiteral("Cost to train") : QStringLiteral("Energy per M ") + items,
                             QStringLiteral("Likely error")};
    std::vector<QStringList> rows;
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        const DesignOutcome& o = c.designs[i];
        const Result& r = o.result;
        const bool baseline = static_cast<int>(i) == c.baseline;
        QStringList row{QString::number(i + 1) + (baseline ? QStringLiteral("*") : QString()), esc(o.name), integer(o.config.cluster.nodes),
                        integer(static_cast<long long>(o.config.cluster.nodes) * o.config.node.accelerators)};
        const TrustBand band = i < d.design_bands.size() ? d.design_bands[i] : TrustBand{};
        if (!r.feasible) {
            row << QStringLiteral("<span style=\"color:#b00020\">infeasible</span>") << QString() << QString() << QString()
                << esc(explain(r)) << QString() << QString() << QString() << QString();
        } else {
            row << format_seconds(r.iteration_s) << format_speedup(o.speedup)
                << pct(r.mfu) + (band.mfu_above_published(r.mfu) ? QStringLiteral(" \u26A0") : QString())
                << num(units::bytes_to_gib(r.hbm.used_bytes()), 1)
                << (o.best_strategy ? QStringLiteral("best: ") : QString()) + strategy_text(o.config.strategy, o.config.workload)
                << format_usd(o.cost.cost_per_million_tokens_usd)
                << (totals ? format_duration(o.cost.time_to_train_s) : format_duration(o.cost.time_per_million_tokens_s))
                << (totals ? format_usd(o.cost.cost_to_train_usd) : ui::format_energy(o.cost.energy_per_million_tokens_kwh))
                << esc(trust_range_text(band));
        }
        rows.push_back(row);
    }
    QString o = grid_table(header, rows, {false, false, true, true, true, true, true, true, false, true, true, true, true});
    o += QStringLiteral(
        "<p class=\"note\">* baseline. Speedup = baseline iteration time / design iteration time. "
        "\"best:\" = the fastest strategy found on all of the design's accelerators. Costs use the "
        "scenario's cost inputs, each design's node power and, when set, its own GPU-hour price. Likely "
        "error = measured / predicted time over the published runs of the design's node with its software "
        "(else its node, else its software): its time, cost and time to train likely lie in that range; "
        "\u26A0 = MFU above every published run on that node");
    if (totals) o += QStringLiteral("; training run of ") + tokens_text(d.scenario.cost.tokens_to_train, d.scenario.config.workload);
    return o + QStringLiteral(".</p>");
}

QString cost_html(const ReportData& d) {
    const CostInputs& in = d.scenario.cost;
    const bool totals = in.tokens_to_train > 0;
    const auto column = [&](const CostReport& c, const Result& r, const Strategy& s) {
        if (!c.valid)
            return QStringList{strategy_text(s, d.scenario.config.workload),
                               r.feasible ? QStringLiteral("no cost (invalid inputs)") : esc(explain(r))};
        QStringList col{
            strategy_text(s, d.scenario.config.workload),
            format_seconds(r.iteration_s),
            integer(c.gpus) + QStringLiteral(" / ") + integer(c.nodes_powered),
            QString::fromStdString(format_hourly_price(c.gpu_hour_price_usd)) + (c.amortised ? QStringLiteral(" (amortised)") : QString()),
            format_usd(c.cost_per_iteration_usd) + QStringLiteral(", ") + ui::format_energy(c.energy_per_iteration_kwh),
            format_duration(c.time_per_million_tokens_s) + QStringLiteral(", ") + format_usd(c.cost_per_million_tokens_usd) +
                QStringLiteral(", ") + ui::format_energy(c.energy_per_million_tokens_kwh)};
        if (totals)
            col << format_duration(c.time_to_train_s) + QStringLiteral(", ") + format_usd(c.cost_to_train_usd) + QStringLiteral(", ") +
                       ui::format_energy(c.energy_to_train_kwh);
        return col;
    };
    QStringList labels{QStringLiteral("Strategy"),
                       QStringLiteral("Iteration time"),
                       QStringLiteral("GPUs / nodes powered"),
                       QStringLiteral("GPU-hour price"),
                       QStringLiteral("Per iteration: cost, energy"),
                       d.scenario.config.workload == Workload::dlrm ? QStringLiteral("Per M samples: time, cost, energy")
                                                                    : QStringLiteral("Per M tokens: time, cost, energy")};
    if (totals)
        labels << QStringLiteral("To train ") + tokens_text(in.tokens_to_train, d.scenario.config.workload) +
                      QStringLiteral(": time, cost, energy");
    const QStringList given = column(d.cost, d.current, d.scenario.config.strategy);
    const QStringList best = d.best ? column(d.best_cost, d.best->result, d.best->strategy) : QStringList{QStringLiteral("not computed")};
    std::vector<QStringList> rows;
    const auto cell = [](const QStringList& col, qsizetype i) { return i < col.size() ? col[i] : QStringLiteral("–"); };
    for (qsizetype i = 0; i < labels.size(); ++i) rows.push_back({labels[i], cell(given, i), cell(best, i)});
    QString o = heading(QStringLiteral("Cost and energy"));
    o += grid_table({QString(), QStringLiteral("Strategy as given"), QStringLiteral("Best strategy")}, rows, {false, false, false});
    o += QStringLiteral("<p class=\"note\">GPU price: ") + gpu_price_text(in) + QStringLiteral(". Energy: ") +
         (d.scenario.config.node.power_kw > 0 ? g(d.scenario.config.node.power_kw) + QStringLiteral(" kW per node")
                                              : QStringLiteral("node power unknown, counted as 0")) +
         QStringLiteral(" × PUE ") + g(in.pue) + QStringLiteral(" at ") + format_usd(in.price_per_kwh_usd) +
         QStringLiteral(" per kWh, added to the GPU price. Only the GPUs the strategy uses are paid for (docs/economics.md).</p>");
    return o + software_changes_html(d);
}

QString software_changes_html(const ReportData& d) {
    if (d.software.empty()) return {};
    QString o = heading(QStringLiteral("Which software change buys most"));
    std::vector<QStringList> rows;
    for (const SoftwareChange& c : d.software) {
        const QString field = esc(QString::fromStdString(c.field + " " + c.from + " \u2192 " + c.to));
        if (!c.feasible) {
            rows.push_back({esc(QString::fromStdString(c.what)), field, QStringLiteral("cannot run"), QString()});
            continue;
        }
        const QString change =
            c.base_feasible && c.base_time_s > 0 ? signed_percent(c.time_s / c.base_time_s - 1, 1) : QStringLiteral("runs now");
        rows.push_back({esc(QString::fromStdString(c.what)), field, format_seconds(c.time_s), change});
    }
    o += grid_table({QStringLiteral("Change"), QStringLiteral("Field"), QStringLiteral("Best iteration"), QStringLiteral("vs now")}, rows,
                    {false, false, true, true});
    const SoftwareChange& first = d.software.front();
    o += QStringLiteral("<p class=\"note\">Each switch the software does not have yet, with the best strategy searched again; now: ") +
         (first.base_feasible ? format_seconds(first.base_time_s) : QStringLiteral("no strategy runs")) +
         QStringLiteral(" (docs/economics.md).</p>");
    return o;
}

QString strategies_caption_html(const ReportData& d) {
    QString o =
        QStringLiteral("<p class=\"note\"><b>As given:</b> ") + strategy_text(d.scenario.config.strategy, d.scenario.config.workload);
    if (!d.current.feasible) o += QStringLiteral(" (infeasible: ") + esc(explain(d.current)) + QStringLiteral(")");
    if (d.best && d.best->result.feasible)
        o += QStringLiteral("<br><b>Best strategy:</b> ") + strategy_text(d.best->strategy, d.scenario.config.workload) +
             QStringLiteral(" (searched on the same ") +
             integer(static_cast<long long>(d.scenario.config.cluster.nodes) * d.scenario.config.node.accelerators) +
             QStringLiteral(" accelerators)");
    return o + QStringLiteral("</p>");
}

QString pareto_note_html(const ReportData& d) {
    int feasible = 0;
    for (const ParetoPoint& p : d.pareto) feasible += p.feasible ? 1 : 0;
    return heading(QStringLiteral("Time to train vs cost")) +
           QStringLiteral(
               "<p class=\"note\">%1 feasible point%2: a Pareto chart needs at least two. Add designs to the scenario's "
               "comparison, or give node counts (comet-cli report --nodes 96,192,384).</p>")
               .arg(feasible)
               .arg(feasible == 1 ? QString() : QStringLiteral("s"));
}

}  // namespace comet::ui::report

#pragma once
// What a heatmap can colour by: a number derived from one Result, with its unit.

#include <QString>
#include <span>
#include <string_view>

#include "comet/economics.hpp"
#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet::ui {

// The cost metrics (cost per million tokens, time to train) need the scenario's prices and token
// budget besides a result: cost_metric_value().
enum class Metric {
    iteration_time,
    tokens_per_s,
    mfu,
    exposed_comm_share,
    exposed_memory_share,
    hbm_use,
    cost_per_million_tokens,
    time_to_train,
    // Categorical: which family of strategy (the parallel dimensions it uses) each cell's best
    // strategy belongs to (strategy_family()); the heatmap's values are category indices.
    strategy_family
};

struct MetricInfo {
    Metric metric;
    const char* id;  // stable id for settings, e.g. "iteration_time"
    QString label;   // "Iteration time"
    QString unit;    // "s", "tokens/s", "%", "GiB"
    bool higher_is_better;
    QString short_label = {};  // the explorer's colour box where `label` is longer than "Iteration time"; empty = label
};

[[nodiscard]] std::span<const MetricInfo> all_metrics();
[[nodiscard]] const MetricInfo& metric_info(Metric m);

// The metric's value for a result, in the metric's unit; NaN when the configuration is
// infeasible (except HBM use, which is meaningful for configurations that do not fit).
[[nodiscard]] double metric_value(const Result& r, Metric m);

// The metric's label for a workload: "Cost per M samples" for a DLRM, which trains on samples.
[[nodiscard]] QString metric_label(Metric m, Workload w);

// "TP+PP+DP", "FSDP", "TP+EP+DP", "One GPU": the parallel dimensions a transformer strategy
// uses (FSDP for ZeRO-3 data parallelism); a DLRM's: where its tables live.
[[nodiscard]] QString strategy_family(const Strategy& s, Workload w);

[[nodiscard]] constexpr bool is_cost_metric(Metric m) noexcept {
    return m == Metric::cost_per_million_tokens || m == Metric::time_to_train;
}
// A cost metric's value from a cost report (core's cost_report() of the cell's configuration and
// result with the scenario's cost inputs): NaN when the report is not valid, or when it has no
// price (cost) or no token budget (time to train); `why` then says which. Other metrics: NaN.
[[nodiscard]] double cost_metric_value(const CostReport& c, Metric m, QString* why = nullptr);

// "12.3 s", "61.2 k tokens/s", "41.5 %", "57.6 GiB", "$4.12", "18.98 days".
// Throughput counts the workload's items: tokens/s for a transformer, samples/s for a DLRM.
[[nodiscard]] QString format_metric(double value, Metric m, Workload w = Workload::transformer);

// A unit as files spell it ("us") as people read it ("µs").
[[nodiscard]] QString display_unit(std::string_view unit);
// The core's renderings (comet/report.hpp), so the explorer, the PDF report and comet-cli show
// one number one way: "102.529 s", "187.63 ms"; "37.52 days", "5.25 h"; "$4.57 M", "$12,345",
// "$26.1"; "1.23 GWh", "55.90 MWh", "84.2 kWh".
[[nodiscard]] QString format_seconds(double s);
[[nodiscard]] QString format_duration(double s);
[[nodiscard]] QString format_money(double usd);
[[nodiscard]] QString format_energy(double kwh);
// `text` with each hyphen-minus as a true minus (U+2212, as wide as the plus): "−9 %".
[[nodiscard]] QString with_minus_sign(QString text);
// A signed change in percent from a fraction: "+5.1 %", "−12.0 %" (`decimals` after the point).
[[nodiscard]] QString signed_percent(double fraction, int decimals);
// "1.01 T", "70.6 B", "124 M", "4096".
[[nodiscard]] QString format_count(double n);
// Parameters of a model: "175 B" for a dense one; "46.7 B total, 12.9 B active" when a token
// touches fewer than all of them (mixture of experts). `active` <= 0: unknown, total only.
[[nodiscard]] QString format_parameters(double total, double active);
// Layers per pipeline stage (comet::stage_layout): "Stages: 15 | 16 × 6 | 15 layers" (first,
// middle stages, last), "Stages: 8 × 12 layers" when even, or why the layers cannot be laid out.
[[nodiscard]] QString format_stage_layout(const ModelSpec& m, const Strategy& s);

}  // namespace comet::ui

#pragma once
// Human-readable and JSON renderings of a result. Not on the evaluation path.

#include <optional>
#include <string>
#include <vector>

#include "comet/result.hpp"
#include "comet/scenario.hpp"
#include "comet/validation.hpp"

namespace comet {

struct CostReport;      // comet/economics.hpp
struct FsdpPoint;       // comet/fsdp.hpp
struct SensitivityBar;  // comet/economics.hpp
struct ParetoPoint;     // comet/economics.hpp
struct SoftwarePreset;  // comet/presets.hpp
struct SoftwareChange;  // comet/economics.hpp
struct SearchOptions;   // comet/search.hpp
struct SearchResult;    // comet/search.hpp
struct SweepFile;       // comet/sweep_io.hpp
struct SweepResult;     // comet/sweep.hpp
struct ValidationRun;   // comet/validation.hpp
struct NodePreset;      // comet/presets.hpp

// The reason with its numbers, e.g. "does not fit in HBM: needs 93.2 GiB per accelerator, has 80 GiB".
[[nodiscard]] std::string explain(const Result& r);
// Multi-line breakdown for terminals.
[[nodiscard]] std::string format_result_text(const Scenario& s, const Result& r);
// The same content as JSON with stable keys (docs/cli.md); with a band, how far to trust the result
// ("trust": validated, runs, basis, the band and the iteration-time range it gives, the node's
// highest published MFU and the flag), as each design of format_comparison_json has it.
[[nodiscard]] std::string format_result_json(const Scenario& s, const Result& r, const std::optional<TrustBand>& band = std::nullopt);
// printf of one double, e.g. format_printf("%.1f", 3.14159) == "3.1" (for tables).
[[nodiscard]] std::string format_printf(const char* format, double value);

// The one rendering of each quantity, shared by comet-cli, the explorer and the PDF report.
// Not finite: "–". Seconds: "102.529 s", "187.63 ms", "950.1 µs", "0 s" (negative values keep
// their sign). Durations: seconds up to 2 h, then "5.25 h", from 2 days "37.52 days". Money:
// "$0.0123", "$12.3", "$12,345", "$4.57 M". Energy: "512.3 kWh", "12.35 MWh", "1.23 GWh".
[[nodiscard]] std::string format_seconds(double s);
[[nodiscard]] std::string format_duration(double s);
[[nodiscard]] std::string format_usd(double usd);
// A price per GPU-hour as every page, export and report prints it: cents ("$18.00", "$2.49"),
// three significant digits below ten cents ("$0.0412").
[[nodiscard]] std::string format_hourly_price(double usd);
[[nodiscard]] std::string format_kwh(double kwh);
// A training run's tokens (a token budget): "450 B tokens", "15.6 T tokens", "2.5 M tokens".
[[nodiscard]] std::string format_token_budget(double tokens);
// What a chart or slide of this scenario assumes, in one line for its footer: "Llama 3 70B ·
// global batch 1,024 × 8,192 tokens · BF16 · Megatron-Core TE eager · 64 × DGX H100 (512 GPUs)";
// a DLRM's batch is in samples. Names are cut at " (" as in content_name(); a scenario without a
// model, node or software name says "custom model", "custom node", "software: custom".
[[nodiscard]] std::string assumptions_line(const Scenario& s);
// The GPU price cost inputs give, in words: "$2.99 per GPU-hour", "$15,625 per GPU, amortised
// over 4 years at 100 % use", or "none given (GPU cost counted as 0)".
[[nodiscard]] std::string format_gpu_price(const CostInputs& in);

// Why `better` beats `worse` (two results of one search), e.g. "0.42 s (3.1 %) faster:
// pipeline bubble -0.30 s, exposed DP -0.15 s"; "ties" when the times are equal.
[[nodiscard]] std::string explain_lead(const Result& better, const Result& worse);

// Every field of a cost report as a JSON object (the one cost JSON: compare, analyze).
[[nodiscard]] std::string format_cost_json(const CostReport& c);

// The FSDP balance of fsdp_balance() (comet-cli fsdp): a table for terminals, the same as JSON
// with stable keys, and one CSV row per data-parallel degree (SI units).
[[nodiscard]] std::string format_fsdp_text(const Scenario& s, const std::vector<FsdpPoint>& points);
[[nodiscard]] std::string format_fsdp_json(const Scenario& s, const std::vector<FsdpPoint>& points);
[[nodiscard]] std::string format_fsdp_csv(const std::vector<FsdpPoint>& points);

// comet-cli analyze: the cost and energy of `r` (the scenario's strategy, priced as `cost` with
// the scenario's cost inputs), the sensitivity tornado of `bars` at +-`fraction`, which software
// change buys most (`software`, software_changes()) and the Pareto points, as text for terminals
// or as JSON with stable keys.
[[nodiscard]] std::string format_analysis_text(const Scenario& s, const Result& r, const CostReport& cost,
                                               const std::vector<SensitivityBar>& bars, double fraction,
                                               const std::vector<ParetoPoint>& points, const std::vector<SoftwareChange>& software);
[[nodiscard]] std::string format_analysis_json(const Scenario& s, const Result& r, const CostReport& cost,
                                               const std::vector<SensitivityBar>& bars, double fraction,
                                               const std::vector<ParetoPoint>& points, const std::vector<SoftwareChange>& software);

// comet-cli search: the top list, the best strategy's breakdown and the statistics (how many
// configurations were evaluated, pruned and infeasible, by reason), as text or as JSON with
// stable keys whose "settings" paste into a scenario's "strategy" (docs/cli.md).
[[nodiscard]] std::string format_search_text(const Scenario& s, const SearchOptions& options, const SearchResult& r);
[[nodiscard]] std::string format_search_json(const Scenario& s, const SearchOptions& options, const SearchResult& r);

// comet-cli sweep without an output file: the header, a row per value of one axis or a matrix
// of iteration times for two, the infeasible cells by reason and the best cell.
[[nodiscard]] std::string format_sweep_text(const SweepFile& f, const SweepResult& r);

// comet-cli validate: per table every case (measured, predicted, error, the knobs searched),
// the error statistics per table, per hardware and overall, and the node presets no run
// checks; cases whose id contains `detail` (when not empty) with their full breakdown.
[[nodiscard]] std::string format_validation_text(const ValidationRun& run, const std::vector<NodePreset>& nodes,
                                                 const std::vector<SoftwarePreset>& software, const std::string& detail);

// One-line strategy summary, e.g. "tp8 pp64 dp6 mb1 v2 full-recompute zero0"; a DLRM's names
// its data-parallel ranks and where its tables are: "dp64 table-wise rows=hbm",
// "dp8 row-wise rows=cached(10 % of rows, 90 % hits) state=hbm".
// What the software does in words: "20.4 us of host time per op, one GEMM launch per expert,
// dispatch synced with the host" (the MoE parts only for an MoE model).
[[nodiscard]] std::string format_software(const Config& c);
[[nodiscard]] std::string format_strategy(const Strategy& s);
[[nodiscard]] std::string format_strategy(const Strategy& s, Workload w);
// A DLRM's size: "26 tables, 204.2 M rows, 97.3 GiB of rows; MLPs 12.5 M parameters".
[[nodiscard]] std::string format_dlrm_size(const DlrmSpec& d);

}  // namespace comet

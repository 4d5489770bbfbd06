#pragma once
// A scenario: one Config plus the names and provenance a person needs, read from and written
// to versioned `*.comet.json` files (docs/scenario-format.md). Loading never throws: every
// problem comes back as a message naming the file, the key path, the value and what is allowed.

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "comet/spec.hpp"

namespace comet {

// Version 2 added the workload kind and the DLRM section; version 3 the software (a preset name
// or an inline object), which took the node's host_op_us. Files of versions 1 and 2 load with the
// stack they were priced with (legacy_software()). Version 4 moved the HBM the runtime reserves
// and the allocator's margin from the node to the software; files of versions 1 to 3 load with
// their node's values in the software (with_legacy_memory()). Older files are written back as
// the current version.
inline constexpr int scenario_format_version = 4;
inline constexpr std::string_view scenario_format_name = "comet-scenario";

struct Provenance {
    std::string name;    // e.g. "DGX A100 80GB"
    std::string source;  // where the numbers come from (datasheet, paper)
};

// One design of a comparison: a node, a cluster size and a strategy (or "the best strategy"),
// training the scenario's model with its batch and training settings.
struct Design {
    std::string name;
    Provenance node_info;
    NodeSpec node;
    int nodes = 1;
    bool best_strategy = true;  // search for the fastest strategy; else use `strategy`
    Strategy strategy;
    // The design's own software; false = the scenario's.
    bool own_software = false;
    Provenance software_info;
    SoftwareSpec software;
    // The design's own GPU price, as in the cost section: an hourly price, or a purchase price
    // per GPU amortised over the scenario's lifetime_years (the hourly one wins when both are
    // set). Both 0 = the scenario's price.
    double price_per_gpu_hour_usd = 0;
    double purchase_price_per_gpu_usd = 0;
};

// The scenario's cost inputs with a design's own GPU price (hourly or purchase), if it has one.
[[nodiscard]] CostInputs design_cost(const CostInputs& scenario_cost, const Design& d);

inline constexpr int max_designs = 4;

// What the explorer showed when the file was saved (its "view" section), so that opening or
// restoring the file brings back the heatmap and the page. The model never reads it.
struct ExplorerView {
    std::string x = "hbm_gbps";             // knob id of the heatmap's horizontal axis
    std::string y = "scale_out_gbps";       // and of its vertical one
    std::string metric = "iteration_time";  // what colours the cells: one of view_metric_ids()
    bool search = true;                     // the best strategy per cell (false: the form's strategy)
    int steps = 33;                         // cells per axis, odd, view_min_steps..view_max_steps
    bool relative = false;                  // colour by the change against the current configuration's cell
    // The user's ranges of the axes, [from, to] in the knob's unit (absent: around the current value).
    std::optional<std::array<double, 2>> x_range, y_range;
    std::vector<std::array<double, 2>> pins;  // pinned cells as their (x, y) knob values, at most view_max_pins
    std::string page = "explore";             // the page on top: one of view_page_ids()
    bool operator==(const ExplorerView&) const = default;
};
inline constexpr int view_min_steps = 3, view_max_steps = 129, view_max_pins = 4;
[[nodiscard]] std::span<const std::string_view> view_metric_ids() noexcept;
[[nodiscard]] std::span<const std::string_view> view_page_ids() noexcept;

struct Scenario {
    std::string name;
    std::string description;
    Provenance model_info;  // the transformer's or the DLRM's name and source
    Provenance node_info;
    Provenance software_info;  // the software preset's name and sources
    Config config;
    CostInputs cost;                   // prices for cost, energy and Pareto (docs/economics.md)
    std::vector<Design> designs;       // at most max_designs, compared side by side
    int baseline_design = 0;           // index into designs that speedups are relative to
    std::optional<ExplorerView> view;  // none: the file keeps no view (the explorer's last applies)
};

// A preset's name as a title uses it: up to any " (" ("GB300 NVL72 (one 4-GPU compute tray ...)"
// -> "GB300 NVL72"); `fallback` when that leaves nothing.
[[nodiscard]] std::string short_name(const std::string& name, std::string_view fallback);

// The name a scenario's content gives it: "Llama 3 70B on 64 × DGX H100" (the model's and the
// node's names up to any parenthesis, and the node count); "custom model" / "custom node" where
// the scenario names none.
[[nodiscard]] std::string content_name(const Scenario& s);
// The scenario's name follows its content (issue 40): after an edit from `before` to `after` that
// changes the model, the workload, the node or the node count, `after` is named content_name(after)
// and a description of the earlier study is kept behind "Started from “<before's name>”: ". A
// description that already says where it started stays. Returns whether anything changed. Whether a
// document's name follows at all is the caller's (the explorer: until the user names the scenario).
bool follow_content(const Scenario& before, Scenario& after);

// One node, one price (docs/economics.md): a design on the scenario's node (the same NodeSpec)
// has no price of its own after set_node_price() or loading; it pays the scenario's.
[[nodiscard]] bool on_scenario_node(const Scenario& s, const Design& d);
// Sets the GPU price of `node` (hourly, or purchase when hourly is 0; both 0 = none) in one place:
// the scenario's cost section when it is the scenario's node (every design on it then follows),
// else every design on that node. Returns how many designs changed.
// The first design of the comparison with a price of its own on `node`; nullptr when none.
[[nodiscard]] const Design* design_pricing(const Scenario& s, const NodeSpec& node);
int set_node_price(Scenario& s, const NodeSpec& node, double price_per_gpu_hour_usd, double purchase_price_per_gpu_usd);
// A file may still give a design on the scenario's node its own price. When it equals the
// scenario's, or the scenario has no GPU price and every such design names the same one, the
// price moves to the scenario (nothing any page shows changes, and the Cost page gains the price).
// Different prices for the one node stay as written, each shown with its source.
void unify_node_prices(Scenario& s);

// The software a scenario file of format 1 or 2 was priced with: Megatron-Core with Transformer
// Engine, eager, as the model then knew it (one GEMM launch per local expert, the MoE dispatch
// synced with the host) and the host time per kernel its node gave (`host_op_us`, 0 when absent).
[[nodiscard]] SoftwareSpec legacy_software(double host_op_us) noexcept;
[[nodiscard]] Provenance legacy_software_info(double host_op_us);

// The software's memory as a node object of scenario formats 1 to 3 gave it (node.hbm_reserved_gib,
// node.hbm_allocator_margin; absent = 0), or a node preset file written before format 4.
struct LegacyNodeMemory {
    std::optional<double> hbm_reserved_gib;
    std::optional<double> hbm_allocator_margin;
    bool operator==(const LegacyNodeMemory&) const = default;
};
// What every shipped node preset held until format 4, so that a file of formats 1 to 3 naming one
// loads with the memory it was priced with.
[[nodiscard]] LegacyNodeMemory format3_node_preset_memory() noexcept;
// `sw` with the node's legacy memory (absent values are 0); when that changes it, `info`'s source
// says so, and its name too where the software is the file's own (format 3): the stack of a
// format-1/2 file is already named as that file's (legacy_software_info()).
void with_legacy_memory(SoftwareSpec& sw, Provenance& info, const LegacyNodeMemory& node_memory, bool files_own_software);

// The configuration a design trains: the scenario's model and training with the design's node,
// cluster size, software and strategy (for best_strategy designs the strategy is a placeholder that uses
// every accelerator: tp 1, pp 1, dp = all accelerators).
[[nodiscard]] Config design_config(const Config& base, const Design& d);
// A design capturing the current state of a scenario (its node, cluster and strategy).
[[nodiscard]] Design design_from_scenario(const Scenario& s, std::string name, bool best_strategy);

template <class T>
struct Loaded {
    std::optional<T> value;
    std::vector<std::string> errors;  // each: "<file>: <key path>: <problem>"
    [[nodiscard]] bool ok() const noexcept { return value.has_value() && errors.empty(); }
    [[nodiscard]] std::string error_text() const;  // errors joined by newlines
};

template <class T>
std::string Loaded<T>::error_text() const {
    std::string out;
    for (std::size_t i = 0; i < errors.size(); ++i) {
        if (i > 0) out += '\n';
        out += errors[i];
    }
    return out;
}

// Parse scenario JSON text; `label` names the source in messages (usually the file path).
[[nodiscard]] Loaded<Scenario> parse_scenario(std::string_view json_text, std::string_view label);
[[nodiscard]] Loaded<Scenario> load_scenario_file(const std::filesystem::path& file);

// Serialise with every key written (stable order), so that a saved file loads back equal.
[[nodiscard]] std::string scenario_to_json(const Scenario& s);
// The "strategy" object of a scenario file as scenario_to_json() writes it (one JSON object,
// indented by 2): pasted over a scenario's "strategy" it reads back to the same Strategy.
// The one strategy-to-JSON writer (comet-cli search --json uses it for its "settings").
[[nodiscard]] std::string strategy_to_json(const Strategy& s, Workload w = Workload::transformer);
// Atomic save: write a temporary file beside the target, flush, then rename over it.
// Returns an empty string on success, otherwise the reason.
[[nodiscard]] std::string save_text_atomically(const std::filesystem::path& file, std::string_view text);
[[nodiscard]] std::string save_scenario_file(const std::filesystem::path& file, const Scenario& s);

// Names of enum values as they appear in files ("fp16", "selective", "per_node", ...).
[[nodiscard]] std::string_view to_string(Precision v) noexcept;
[[nodiscard]] std::string_view to_string(Recompute v) noexcept;
[[nodiscard]] std::string_view to_string(AttentionKernel v) noexcept;
[[nodiscard]] std::string_view to_string(Optimizer v) noexcept;
[[nodiscard]] std::string_view to_string(GradDtype v) noexcept;
[[nodiscard]] std::string_view to_string(ExpandedAttach v) noexcept;
[[nodiscard]] std::string_view to_string(Workload v) noexcept;
[[nodiscard]] std::string_view to_string(EmbeddingSharding v) noexcept;
[[nodiscard]] std::string_view to_string(EmbeddingPlacement v) noexcept;
[[nodiscard]] std::string_view to_string(EmbeddingStateTier v) noexcept;

}  // namespace comet

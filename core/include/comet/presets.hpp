#pragma once
// The preset library shipped in presets/: node and model files, found at run time.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "comet/scenario.hpp"

namespace comet {

// A node preset's reference price (its "price" section), with where the figure comes from:
// either an hourly price (cloud on-demand) or a list purchase price per accelerator (amortised
// over the scenario's cost.lifetime_years), never both. A design on this node pays it unless
// it sets its own.
struct PricePreset {
    double price_per_gpu_hour_usd = 0;      // 0 when the price is a purchase price
    double purchase_price_per_gpu_usd = 0;  // 0 when the price is hourly
    std::string source;
};

struct NodePreset {
    std::string id;  // file stem, e.g. "dgx-a100-80gb"
    Provenance info;
    std::vector<std::string> aliases;  // names under which sources refer to this hardware
    NodeSpec node;
    std::optional<PricePreset> price;  // none = no published price; the scenario's applies
    // hbm_reserved_gib and hbm_allocator_margin of a file written before they became the
    // software's (scenario format 4): not part of the node; kept to load older scenarios with them.
    LegacyNodeMemory legacy_memory;
};

// A training software stack (presets/software/*.json, format "comet-software"): what the framework
// decides, each value with its source (docs/presets.md, "Software presets").
struct SoftwarePreset {
    std::string id;  // file stem, e.g. "megatron-core-te-eager"
    Provenance info;
    std::vector<std::string> aliases;  // names under which sources refer to this software
    SoftwareSpec software;
    // Per software field key ("host_op_us", ...): where its value comes from (code at a tag,
    // documentation, a measurement). Every field the file gives has one.
    std::vector<std::pair<std::string, std::string>> sources;
};

// How a model was trained (a model preset's "training" section), applied with the model so
// that picking Llama 3 does not keep another model's fp16, unfused attention and dropout.
struct TrainingPreset {
    int seq_len = 0;  // sequence length of (pre-)training; 0 = the model section's
    Precision precision = Precision::bf16;
    AttentionKernel attention = AttentionKernel::fused;
    bool dropout = false;
    long long batch_tokens = 0;   // global batch in tokens; 0 = keep the scenario's batch
    long long batch_samples = 0;  // a DLRM's global batch in samples; 0 = keep the scenario's batch
    double tokens_to_train = 0;   // the published pre-training tokens, the scenario's cost.tokens_to_train; 0 = not published
    std::string source;
};

// A model: a transformer (`model`) or, with workload dlrm, a recommendation model (`dlrm`).
struct ModelPreset {
    std::string id;
    Provenance info;
    Workload workload = Workload::transformer;
    ModelSpec model;
    DlrmSpec dlrm;
    std::optional<TrainingPreset> training;
};

// Applies a preset to a scenario: the node (with its power) and its price as the scenario's GPU
// price: the price a design of the comparison already has for that node, else the preset's own; the model and, when the preset has them, its training
// settings (the batch in tokens becomes sequences at the preset's sequence length; the published
// pre-training tokens become the token budget). Returns what
// changed, one entry per field, e.g. "precision fp16 -> bf16"; empty when nothing did.
[[nodiscard]] std::vector<std::string> apply_node_preset(Scenario& s, const NodePreset& p);
// A model preset's parameters as its source counts them (a DLRM's: its rows' elements and the MLPs').
[[nodiscard]] double preset_parameters(const ModelPreset& p) noexcept;

// A preset of the other workload switches the scenario's workload; the strategy then becomes one
// that workload can run (a DLRM: every accelerator data-parallel; a transformer: tp 1, pp 1 over
// every accelerator, microbatch 1), and the returned list says so.
[[nodiscard]] std::vector<std::string> apply_model_preset(Scenario& s, const ModelPreset& p);

// The presets folder: $COMET_PRESETS_DIR if set, else <prefix>/share/comet-explorer/presets
// next to the running executable, else the source tree's presets/ (builds and tests).
[[nodiscard]] std::filesystem::path presets_dir();

[[nodiscard]] Loaded<NodePreset> load_node_preset(const std::filesystem::path& file);
[[nodiscard]] Loaded<ModelPreset> load_model_preset(const std::filesystem::path& file);
[[nodiscard]] Loaded<SoftwarePreset> load_software_preset(const std::filesystem::path& file);

// Every *.json file of presets_dir()/nodes (or /models), sorted by id; files that fail to
// load are skipped and their errors appended to `errors`.
[[nodiscard]] std::vector<NodePreset> load_node_presets(std::vector<std::string>& errors);
[[nodiscard]] std::vector<ModelPreset> load_model_presets(std::vector<std::string>& errors);
[[nodiscard]] std::vector<SoftwarePreset> load_software_presets(std::vector<std::string>& errors);

// The user's own presets: $XDG_DATA_HOME/comet-explorer/presets (default
// ~/.local/share/comet-explorer/presets), with nodes/ and models/ like the shipped folder.
// Empty when no home can be determined. User presets with the same id override shipped ones.
[[nodiscard]] std::filesystem::path user_presets_dir();

// A preset by id (file stem), name or alias, from the user's folder first, then the shipped one.
[[nodiscard]] std::optional<NodePreset> find_node_preset(std::string_view name);
[[nodiscard]] std::optional<ModelPreset> find_model_preset(std::string_view name);
[[nodiscard]] std::optional<SoftwarePreset> find_software_preset(std::string_view name);
// "known: a, b, c" for messages; `kind` is "nodes", "models" or "software".
[[nodiscard]] std::string known_preset_names(std::string_view kind);

// Writes a preset file into the user's folder (atomically); returns the error or empty.
[[nodiscard]] std::string save_user_node_preset(const std::string& id, const Provenance& info, const NodeSpec& node);
[[nodiscard]] std::string save_user_model_preset(const std::string& id, const Provenance& info, const ModelSpec& model);

// The preset a configuration's node or software is, by value (a node edited after choosing a preset
// is none): the first equal one, or among equal software presets the one named `prefer_name` (two
// presets may describe the same values, e.g. a version alias). nullptr when none is equal.
[[nodiscard]] const NodePreset* node_preset_of(const std::vector<NodePreset>& presets, const NodeSpec& node);
[[nodiscard]] const SoftwarePreset* software_preset_of(const std::vector<SoftwarePreset>& presets, const SoftwareSpec& software,
                                                       std::string_view prefer_name = {});

// The node preset whose id, name or one of whose aliases occurs in `text` (case-insensitive);
// the longest match wins. nullptr when none does.
[[nodiscard]] const NodePreset* match_node_preset(const std::vector<NodePreset>& presets, std::string_view text);
// Likewise for software presets ("Megatron-Bridge 26.08" finds the Megatron-Core preset by its alias).
[[nodiscard]] const SoftwarePreset* match_software_preset(const std::vector<SoftwarePreset>& presets, std::string_view text);

}  // namespace comet

#pragma once
// Interoperability with other tools' files (docs/interop.md):
//  - Calculon (github.com/calculon-ai/calculon): import an application + system + execution
//    trio of JSON files as a Scenario, and export a Scenario as such a trio;
//  - Hugging Face transformers: import a model's config.json as the model of a Scenario.
// Importers never throw: every problem comes back as "<file>: <key path>: <problem>", and
// everything that is approximated or dropped comes back as a warning naming file and key.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "comet/scenario.hpp"

namespace comet {

struct ImportResult {
    Scenario scenario;
    std::vector<std::string> mapped;    // "execution.tensor_par -> strategy.tp = 4", in file order
    std::vector<std::string> warnings;  // "<file>: <key>: <what was approximated or dropped>"
};

// Vocabulary size used for Calculon imports (Calculon's application has no vocabulary).
inline constexpr int calculon_default_vocab = 51200;
// Longest max_position_embeddings taken as seq_len from a Hugging Face config; longer
// context windows keep the base scenario's seq_len (with a warning).
inline constexpr int hf_max_imported_seq_len = 32768;

// ---- Calculon ------------------------------------------------------------------------------

[[nodiscard]] Loaded<ImportResult> import_calculon(const std::filesystem::path& application, const std::filesystem::path& system,
                                                   const std::filesystem::path& execution);
// Same, from texts; the labels name the sources in messages (usually the file paths).
[[nodiscard]] Loaded<ImportResult> import_calculon_text(std::string_view application_json, std::string_view application_label,
                                                        std::string_view system_json, std::string_view system_label,
                                                        std::string_view execution_json, std::string_view execution_label);

// Calculon-schema JSON texts of one scenario. Each appends to `warnings` (when given) what
// the Calculon schema cannot express ("model.kv_heads = 8: Calculon models multi-head attention only").
[[nodiscard]] std::string export_calculon_application(const Scenario& s, std::vector<std::string>* warnings = nullptr);
[[nodiscard]] std::string export_calculon_system(const Scenario& s, std::vector<std::string>* warnings = nullptr);
[[nodiscard]] std::string export_calculon_execution(const Scenario& s, std::vector<std::string>* warnings = nullptr);

// ---- Hugging Face ----------------------------------------------------------------------------

// Replaces base's model with the one described by a transformers config.json (Llama, Mistral,
// Qwen2, Mixtral and DeepSeek-V2/V3 architectures); node, cluster, training and strategy are
// kept from `base`.
[[nodiscard]] Loaded<ImportResult> import_hf_config(const std::filesystem::path& config_json, const Scenario& base);
[[nodiscard]] Loaded<ImportResult> import_hf_config_text(std::string_view config_json, std::string_view label, const Scenario& base);

}  // namespace comet

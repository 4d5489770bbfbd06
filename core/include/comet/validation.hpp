#pragma once
// Published measurements and the model's predictions for them (`comet-cli validate`).
//
// Three kinds of row are read (docs/model.md, "Validation"):
// - DLRM rows (`"workload": "dlrm"`): a DLRM model preset by `model_name`, gpus (all
//   data-parallel), global_batch in samples, precision, cuda_graphs, and the tables' sharding,
//   placement and state tier where published (else searched);
// - flat rows (Narayanan et al. 2021): tp, pp, dp, recompute, precision at the case's top level;
//   read as Megatron-LM of 2021: unfused attention with dropout, no sequence parallelism, ZeRO 0.
// - rows with a `strategy` object (tp, pp, cp, ep, vp, microbatch, fsdp, dp), as NVIDIA
//   publishes Megatron-Core throughput: fused attention, no dropout, sequence parallelism
//   with tp > 1, the distributed optimizer (ZeRO-1) or FSDP (ZeRO-3) when fsdp > 0.
// Any of those settings can be given per case. The model comes from the model preset named by
// `model_name` when there is one (attention kind, biases, embeddings), overridden field by
// field by the case's own `model` object.
//
// Knobs the source does not publish are searched by one rule, the same for every case: each
// takes the value the model finds fastest among the feasible ones (what a recipe's authors
// tuned for). Which knobs that was is reported per case.

#include <filesystem>
#include <string>
#include <vector>

#include "comet/presets.hpp"
#include "comet/result.hpp"
#include "comet/scenario.hpp"

namespace comet {

struct MeasuredCase {
    std::string id;
    std::string hardware;  // node preset id or free text, matched against node preset aliases
    std::string software;  // software preset id, name or alias (the row's, else the table's "software")
    // The row and its table name no software: `software` is the stack the row's form is read
    // as (a flat row: Megatron-LM of 2021; a strategy row: Megatron-Core; a DLRM: TorchRec).
    bool software_assumed = false;
    Config config;  // node left default: the caller supplies it
    bool microbatch_published = false;
    bool interleave_published = false;
    bool recompute_published = false;
    bool tp_overlap_published = false;
    // A DLRM row's table layout, where its source publishes it (else searched).
    bool emb_sharding_published = false;
    bool emb_placement_published = false;
    bool emb_state_published = false;
    double measured_iteration_s = 0;
    double measured_tflops_per_gpu = 0;
    // Why the model cannot express this row at all (empty when it can); such a row is
    // listed with the reason, never dropped.
    std::string inexpressible;
    // Where the row corrects its source (its `erratum`: a field the table printed differently
    // from what ran, with the evidence): "ep 8 -> 64, microbatch 4 -> 1", and the reason.
    // Empty when the row is as published. Printed with the table, never applied silently.
    std::string corrected;
    std::string correction_reason;
    // What the row's run set differently from its software preset (its `software_settings`, each
    // a software field as the run's own configuration gives it): field path ("software.weight_bytes")
    // and value (switches 0/1, choices their index). Printed with the table, applied by
    // row_software().
    std::vector<std::pair<std::string, double>> software_settings;
    std::string software_settings_text;  // "weight_bytes 2, master_weights false"
};

// The software a row ran: its preset's with the row's own settings.
[[nodiscard]] SoftwareSpec row_software(const MeasuredCase& mc, const SoftwareSpec& preset);

struct MeasurementSet {
    std::string source;
    std::string file;
    std::vector<MeasuredCase> cases;
};

// `models` supplies the presets that `model_name` refers to (may be empty).
[[nodiscard]] Loaded<MeasurementSet> load_measurements(const std::filesystem::path& file, const std::vector<ModelPreset>& models = {});

struct Prediction {
    MeasuredCase measured;
    Strategy strategy;  // the strategy predicted, unpublished knobs at their best
    Result result;
    int searched = 0;                              // configurations tried over the unpublished knobs
    std::vector<std::string> searched_knobs;       // the unpublished knobs that were searched
    [[nodiscard]] double error() const noexcept {  // signed relative error of iteration time
        return result.iteration_s / measured.measured_iteration_s - 1.0;
    }
};

// Predict one case on `node`: the published strategy, with every unpublished knob
// (microbatch, interleaving, recomputation, TP overlap) at the value the model finds fastest
// among feasible ones.
[[nodiscard]] Prediction predict_case(const MeasuredCase& mc, const NodeSpec& node, const SoftwareSpec& software);

// Signed and absolute errors of a group of predictions.
struct ErrorStats {
    int cases = 0;          // predicted (feasible) cases
    int inexpressible = 0;  // rows the model cannot express or finds infeasible
    double mean_abs = 0;
    double worst_abs = 0;
    double mean_signed = 0;  // > 0: the model is slow on average
    int too_slow = 0;        // predictions above the measurement
    int too_fast = 0;
    double min_signed = 0;  // the smallest signed error (the model's fastest miss); 0 without cases
    double max_signed = 0;  // the largest
    // The highest MFU a run of the group measured (the model's MFU of the row x predicted /
    // measured time, so in the model's own MFU convention); 0 without a transformer row.
    double max_measured_mfu = 0;
    void add(double error, double measured_mfu = 0) noexcept;
    void finish() noexcept;  // turns the sums into means
};

// A group of rows: one node preset (or, in the `software` lists, one software preset).
struct HardwareStats {
    std::string node_id;    // the preset's id
    std::string node_name;  // its name
    ErrorStats stats;
};

// The rows of one node preset run on one software preset.
struct PairStats {
    std::string node_id;
    std::string software_id;
    ErrorStats stats;
};

struct TableValidation {
    std::string file;  // file name
    std::string source;
    std::vector<Prediction> predictions;  // every row, expressible or not
    ErrorStats stats;
    std::vector<HardwareStats> hardware;  // per node preset, in order of appearance
    std::vector<HardwareStats> software;  // per software preset, in order of appearance
    std::vector<std::string> errors;      // (kept for callers; rows without presets are inexpressible predictions)
};

struct ValidationRun {
    std::vector<TableValidation> tables;
    std::vector<HardwareStats> hardware;  // over every table
    std::vector<HardwareStats> software;  // over every table
    std::vector<PairStats> pairs;         // per node and software preset, over every table
    ErrorStats all;
    std::vector<std::string> errors;  // files that failed to load, unmatched hardware
};

// Every *.json file of `dir` (sorted), or the given files, against the node and model presets.
[[nodiscard]] ValidationRun run_validation(const std::vector<std::filesystem::path>& files, const std::vector<NodePreset>& nodes,
                                           const std::vector<ModelPreset>& models, const std::vector<SoftwarePreset>& software);
[[nodiscard]] std::vector<std::filesystem::path> validation_files(const std::filesystem::path& dir);

// "DGX H100: 6 published runs, mean error 7 %, signed -5 % (worst 12 %; 2 slower, 4 faster)" or
// "not validated against published runs" for a node preset id; computed from a ValidationRun.
[[nodiscard]] std::string validation_summary(const ValidationRun& run, const std::string& node_id, const std::string& node_name);
// The same for a software preset over every hardware, then on one node preset (empty node_id:
// an edited node): "Megatron-Core + TE (eager): 72 published runs, mean error 18 %, signed -10 %
// (...). On DGX H100: 12 runs, mean error 20 %, signed -16 %" or "On DGX H100: no published run".
[[nodiscard]] std::string software_validation_summary(const ValidationRun& run, const std::string& software_id,
                                                      const std::string& software_name, const std::string& node_id,
                                                      const std::string& node_name);

// How far to trust an answer on one node preset with one software preset (issue 40), from the
// published runs: the basis is the runs of that node with that software when there are at least
// `trust_min_runs`, else the node's runs on any software, else the software's on any node, else
// the one of those with the most runs (fewer than `trust_min_runs`), else none: not validated.
// The answer's time, and with it its cost and time to train, is read as likely within
// [low, high] x the prediction: measured / predicted over the basis's runs, from its largest
// signed error to its smallest (1 / (1 + max_signed), 1 / (1 + min_signed)).
inline constexpr int trust_min_runs = 3;
struct TrustBand {
    std::string basis;  // "DGX H100 with Megatron-Bridge, TE graphs", "DGX H100, any software", ...
    int runs = 0;       // 0: not validated
    double mean_abs = 0;
    double mean_signed = 0;
    double low = 1;   // measured / predicted time, lowest over the basis's runs
    double high = 1;  // highest
    // The highest MFU a published run on this node reached (any software); 0: none published.
    double max_measured_mfu = 0;
    [[nodiscard]] bool validated() const noexcept { return runs > 0; }
    // True when `mfu` is above every published run on the node (0 when none was published: no flag).
    [[nodiscard]] bool mfu_above_published(double mfu) const noexcept { return max_measured_mfu > 0 && mfu > max_measured_mfu; }
};
// Empty ids: an edited node or software (no preset matches it).
[[nodiscard]] TrustBand trust_band(const ValidationRun& run, const std::string& node_id, const std::string& node_name,
                                   const std::string& software_id, const std::string& software_name);
// The band of a node and software given by value: the first node preset equal to `node`, the
// software preset equal to `software` (the one named `software_name` first); one that matches
// no preset is edited and leaves the basis.
[[nodiscard]] TrustBand trust_band_for(const ValidationRun& run, const NodeSpec& node, const std::vector<NodePreset>& node_presets,
                                       const SoftwareSpec& software, const std::string& software_name,
                                       const std::vector<SoftwarePreset>& software_presets);
// The shipped tables predicted on the shipped node, model and software presets (presets_dir();
// reads and predicts them, some tens of milliseconds), with the presets the bands are matched on.
struct ShippedValidation {
    std::vector<NodePreset> nodes;
    std::vector<SoftwarePreset> software;
    ValidationRun run;
    [[nodiscard]] TrustBand band(const Config& config, const std::string& software_name) const {
        return trust_band_for(run, config.node, nodes, config.software, software_name, software);
    }
};
[[nodiscard]] ShippedValidation load_shipped_validation();
// The band of `config` against them (loads them: for one answer).
[[nodiscard]] TrustBand shipped_trust_band(const Config& config, const std::string& software_name);

// "-6 % to +59 %" (the measured time relative to the prediction) or "not validated".
[[nodiscard]] std::string format_trust_range(const TrustBand& band);
// "likely -6 % to +59 % (27 published runs of DGX H100 with ...: mean error 20 %, signed -24 %)".
[[nodiscard]] std::string format_trust_band(const TrustBand& band);

}  // namespace comet

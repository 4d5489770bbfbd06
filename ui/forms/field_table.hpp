#pragma once
// Every editable field of a Config as the forms show it: its key path (the core's field registry,
// comet/fields.hpp, which gives its accessors and range), where it appears in the forms, how it is
// labelled and explained, and its widget. Ranges are not restated here: they come from field_rules().

#include <QString>
#include <QStringList>
#include <span>

#include "comet/check.hpp"
#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet::ui {

enum class FieldGroup {
    node_compute,
    attention_kernel,
    expanded_memory,
    scale_up,
    scale_out,
    cluster,
    model,
    mla,
    moe,
    dlrm,
    training,
    software,
    strategy,
    embeddings
};
enum class FieldKind { integer, real, boolean, choice };

struct FieldSpec {
    const char* path;  // "node.hbm_bandwidth_gbps"
    FieldGroup group;
    QString label;    // plain text, no mnemonic: "HBM bandwidth"
    QString unit;     // spin-box suffix with its leading space (" GB/s"), or empty
    QString tooltip;  // what the knob means and what changing it does
    FieldKind kind;
    int decimals;                           // reals: digits after the point the editor keeps
    double step;                            // single step of the spin box; 0 = adaptive (a tenth of the value's magnitude)
    QStringList choices;                    // choice: item labels, index i <-> value i (enum order)
    double (*get)(const Config&) noexcept;  // booleans 0/1, choices their index
    void (*set)(Config&, double) noexcept;  // rounds for integers, booleans and choices
    QString zero_text = {};                 // shown instead of 0 when 0 means "absent" ("none")
};

// In form order: grouped, groups in all_groups() order.
[[nodiscard]] std::span<const FieldSpec> all_fields();
[[nodiscard]] std::span<const FieldGroup> all_groups();
[[nodiscard]] QString group_title(FieldGroup g);  // "Node compute & HBM"
// Whether a field means anything for this configuration: the mixture-of-experts fields other
// than the expert count are ignored by a dense model (experts == 0), the latent-attention fields
// other than the KV latent rank without it (kv_lora_rank == 0), the full-attention interval
// without a sliding window.
[[nodiscard]] bool field_applies(const FieldSpec& f, const Config& c);
// Whether a field belongs to the configuration's workload at all: the transformer's shape and
// model-parallel knobs are hidden for a DLRM, the DLRM's shape and tables for a transformer.
[[nodiscard]] bool field_for_workload(const FieldSpec& f, Workload w);
[[nodiscard]] bool group_for_workload(FieldGroup g, Workload w);

[[nodiscard]] const FieldSpec* find_field(const QString& path);
// The range rule of a field, nullptr for booleans and enumerations.
[[nodiscard]] const FieldRule* rule_for(const QString& path);

// Fields to hint when a configuration is infeasible for a structural reason (a strategy that
// does not divide the model, the batch or the cluster, ...). Empty for other reasons, such as
// memory overflow, which belong to the results view.
[[nodiscard]] QStringList fields_behind(Infeasible reason, const Config& c);

}  // namespace comet::ui

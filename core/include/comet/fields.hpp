#pragma once
// The field registry: every configuration field of a Config described once. Its key path (as in
// scenario and preset files), how to read and write it, its kind, unit and allowed range, whether
// a file must give it, when a file writes it, and which workloads it means anything for. The range
// checks (check.cpp), the scenario and preset reader and writer (scenario_sections.cpp), the sweep
// knobs (knobs.cpp) and the round-trip tests are driven by it; the forms add labels and widgets by
// path (ui/forms/field_table.cpp). docs/architecture.md, "The field registry", says how to add one.

#include <cstdint>
#include <span>
#include <string_view>

#include "comet/spec.hpp"

namespace comet {

enum class FieldType : std::uint8_t {
    integer,  // a whole number (int, or long long where `wide`)
    real,
    boolean,
    choice,  // an enumeration, written as one of `choices` (index = the enumeration's value)
    list,    // a list the section reader and writer handle themselves (a DLRM's tables, MLP widths)
};

// Whether a file must give the key.
enum class Presence : std::uint8_t {
    optional,
    required,
    required_for_transformer,  // required in a transformer's strategy, optional in a DLRM's
};

// When a file writes the key (files keep their bytes when a field they never had is added).
enum class WriteWhen : std::uint8_t {
    always,
    not_default,  // only when it differs from a default Config's value
    when,         // only when FieldDesc::written(config) is true
};

// Which workloads a field means anything for (a bit set).
enum WorkloadMask : std::uint8_t { for_transformer = 1, for_dlrm = 2, for_both = 3 };

struct FieldDesc {
    std::string_view path;  // "node.scale_out.bandwidth_gbps"
    FieldType type;
    std::string_view unit;  // "GB/s", "us", "GiB"; empty for counts, fractions and switches
    // The range rule (integer and real fields with `ranged`): min (exclusive where
    // min_exclusive) to max, and how a message says it.
    bool ranged;
    double min;
    double max;
    bool min_exclusive;
    std::string_view allowed;                   // "> 0 and at most 1e7 GB/s"
    double (*get)(const Config&) noexcept;      // booleans 0/1, choices their index
    void (*set)(Config&, double) noexcept;      // rounds integers, booleans and choices
    std::span<const std::string_view> choices;  // choice: the names files use
    Presence presence = Presence::optional;
    WriteWhen write = WriteWhen::always;
    bool (*written)(const Config&) noexcept = nullptr;  // WriteWhen::when
    std::uint8_t workloads = for_both;
    // A DLRM's strategy writes it always (its few keys), whatever `write` says for a transformer.
    bool dlrm_always = false;
    bool wide = false;  // a long long integer (training.global_batch)

    [[nodiscard]] bool for_workload(Workload w) const noexcept {
        return (workloads & (w == Workload::transformer ? for_transformer : for_dlrm)) != 0;
    }
};

// Every field, in file order: by section (workload, model, dlrm, node, cluster, training,
// strategy), within a section in the order its keys are written.
[[nodiscard]] std::span<const FieldDesc> all_fields() noexcept;
[[nodiscard]] const FieldDesc* find_field(std::string_view path) noexcept;
// The fields of one section ("model", "node", ...), in file order.
[[nodiscard]] std::span<const FieldDesc> section_fields(std::string_view section) noexcept;

}  // namespace comet

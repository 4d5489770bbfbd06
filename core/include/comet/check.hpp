#pragma once
// Range rules for every numeric input, from the field registry (comet/fields.hpp): the JSON
// loader, the GUI and evaluate() all use them, so a bad value is reported the same way everywhere.

#include <cstddef>
#include <string>
#include <vector>

#include "comet/spec.hpp"

namespace comet {

struct FieldRule {
    const char* path;  // key path as in scenario files, e.g. "node.hbm_bandwidth_gbps"
    double (*get)(const Config&) noexcept;
    double min;
    double max;
    bool min_exclusive;   // value must be > min rather than >= min
    const char* allowed;  // human description of the range
};

struct FieldError {
    std::string path;
    double value = 0;
    std::string allowed;
    [[nodiscard]] std::string message() const;  // "node.hbm_bandwidth_gbps = -5: must be > 0 GB/s"
};

[[nodiscard]] const std::vector<FieldRule>& field_rules();
// Index into field_rules() of the first violated rule, or -1. Allocation-free.
[[nodiscard]] int first_invalid_field(const Config& c) noexcept;
// Every violated rule, plus cross-field rules (kv_heads divides heads, reserved < capacity).
[[nodiscard]] std::vector<FieldError> check_config(const Config& c);

}  // namespace comet

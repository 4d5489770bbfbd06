#pragma once
// Sweep files (`*.sweep.json`, docs/sweep-format.md): a scenario plus one or two axes over
// any knob and an optional strategy search per cell; and the CSV and JSON renderings of a
// sweep's results (docs/sweep-format.md#results). Loading never throws: every problem comes
// back as "<file>: <key path>: <problem>", like scenario files.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "comet/scenario.hpp"
#include "comet/sweep.hpp"

namespace comet {

inline constexpr int sweep_format_version = 1;
inline constexpr std::string_view sweep_format_name = "comet-sweep";
inline constexpr int sweep_result_format_version = 1;
inline constexpr std::string_view sweep_result_format_name = "comet-sweep-result";

inline constexpr int max_sweep_steps = 4096;  // values per axis
inline constexpr int max_sweep_top_k = 1000;  // search.top_k

struct SweepFile {
    std::string name;
    std::string description;
    Scenario scenario;
    std::filesystem::path scenario_file;  // the resolved path when the file names one; empty when embedded
    SweepSpec spec;
};

// `label` names the source in messages (usually the file path); a scenario path in the text is
// resolved against `base_dir` (the sweep file's directory) unless it is absolute.
[[nodiscard]] Loaded<SweepFile> parse_sweep(std::string_view text, std::string_view label, const std::filesystem::path& base_dir);
[[nodiscard]] Loaded<SweepFile> load_sweep_file(const std::filesystem::path& file);

// One cell of a sweep's results, as written to CSV and JSON (same names, same order).
struct SweepRow {
    std::string x_knob;
    std::string y_knob;  // empty for a one-axis sweep
    double x = 0;
    double y = 0;  // 0 for a one-axis sweep
    bool feasible = false;
    std::string reason;       // to_string(Infeasible): "none", "hbm_capacity", ...
    std::string reason_text;  // explain(); empty when feasible
    double iteration_s = 0;
    TimeBreakdown time;       // one column per part of the breakdown (comet/breakdown.hpp)
    double tokens_per_s = 0;  // DLRM: samples per second
    double mfu = 0;
    double model_tflops_per_gpu = 0;
    double hbm_used_gib = 0;
    double hbm_capacity_gib = 0;
    double expanded_used_gib = 0;
    Strategy strategy;                 // every field but pp_scatter_gather (not written; keeps its default)
    std::string runner_up;             // format_strategy() of the second best; empty when none
    double runner_up_iteration_s = 0;  // 0 when there is no runner-up
    std::uint64_t evaluated = 0;
    std::uint64_t infeasible = 0;
};

// The rows in cell order (x fastest, then y), as the writers write them.
[[nodiscard]] std::vector<SweepRow> sweep_rows(const SweepFile& sweep, const SweepResult& result);
// Column names in order; without y_knob and y for a one-axis sweep.
[[nodiscard]] std::vector<std::string_view> sweep_columns(bool two_axes);

// RFC 4180 CSV: a header line, then one line per cell; CRLF line ends; numbers in their
// shortest exact form; booleans as true/false; recompute by name.
[[nodiscard]] std::string sweep_to_csv(const SweepFile& sweep, const SweepResult& result);
// {"format": "comet-sweep-result", "version": 1, ..., "cells": [{...}, ...]}.
[[nodiscard]] std::string sweep_to_json(const SweepFile& sweep, const SweepResult& result);
// Reads sweep_to_json() output back, strictly (unknown keys and wrong types are errors).
[[nodiscard]] Loaded<std::vector<SweepRow>> read_sweep_json(std::string_view text, std::string_view label);

}  // namespace comet

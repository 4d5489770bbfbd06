#pragma once
// Published measurements and the model's predictions for them (`comet-cli validate`).

#include <filesystem>
#include <string>
#include <vector>

#include "comet/result.hpp"
#include "comet/scenario.hpp"

namespace comet {

struct MeasuredCase {
    std::string id;
    std::string hardware;  // free text from the source, matched against node preset aliases
    Config config;         // node left default: the caller supplies it
    bool microbatch_published = false;
    bool interleave_published = false;
    double measured_iteration_s = 0;
    double measured_tflops_per_gpu = 0;
};

struct MeasurementSet {
    std::string source;
    std::string file;
    std::vector<MeasuredCase> cases;
};

[[nodiscard]] Loaded<MeasurementSet> load_measurements(const std::filesystem::path& file);

struct Prediction {
    MeasuredCase measured;
    Strategy strategy;  // the strategy predicted, unpublished knobs at their best
    Result result;
    int searched = 0;  // configurations tried over the unpublished knobs
    [[nodiscard]] double error() const noexcept {  // signed relative error of iteration time
        return result.iteration_s / measured.measured_iteration_s - 1.0;
    }
};

// Predict one case on `node`: the published strategy, with microbatch and interleaving
// (when not published) set to the values the model finds fastest among feasible ones.
[[nodiscard]] Prediction predict_case(const MeasuredCase& mc, const NodeSpec& node);

}  // namespace comet

// libFuzzer target: validation tables (load_measurements, presets/validation/*.json). The loader
// reads a path, so each input goes through a temporary file (in /dev/shm when there is one). A
// table that loads must name its rows' models and hardware consistently, and each of its first
// rows that is small enough for one fuzz iteration is predicted on the node preset its hardware
// names with the software preset it names, as `comet-cli validate` does: the result passes the
// checks of every evaluation (fuzz_common.hpp), keeps the row's published strategy, and has a
// finite error.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "comet/presets.hpp"
#include "comet/validation.hpp"
#include "fuzz_common.hpp"

namespace {

namespace fs = std::filesystem;

fs::path work_dir;
std::vector<comet::NodePreset> nodes;
std::vector<comet::ModelPreset> models;
std::vector<comet::SoftwarePreset> software;

// A fuzz iteration has 10 s under ASan; predict_case() tries every divisor of the per-replica
// batch as microbatch and every even interleaving, so rows beyond these sizes are loaded and
// checked but not predicted.
constexpr int max_rows_predicted = 4;
constexpr long long max_batch = 4096;
constexpr int max_layers = 256;
constexpr long long max_accelerators = 1 << 16;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    comet::fuzz::use_source_presets();
    work_dir = comet::fuzz::make_work_dir("comet-fuzz-validation-");
    std::vector<std::string> errors;
    nodes = comet::load_node_presets(errors);
    models = comet::load_model_presets(errors);
    software = comet::load_software_presets(errors);
    if (!errors.empty()) comet::fuzz::fail("the shipped presets do not load", errors.front());
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace comet;
    const fs::path input = work_dir / "fuzz-validation.json";
    fuzz::write_file(input, fuzz::as_text(data, size));

    const Loaded<MeasurementSet> set = load_measurements(input, models);
    fuzz::check_no_swallowed_exception(set.errors, input.string());
    if (!set.ok()) {
        if (set.errors.empty()) fuzz::fail("no validation table and no error message");
        return 0;
    }
    int predicted = 0;
    for (const MeasuredCase& mc : set.value->cases) {
        if (!(mc.measured_iteration_s > 0) || !std::isfinite(mc.measured_iteration_s))
            fuzz::fail("a loaded row without a positive measured time", mc.id);
        const Strategy& s = mc.config.strategy;
        if (predicted == max_rows_predicted || mc.config.training.global_batch > max_batch || mc.config.model.layers > max_layers ||
            accelerators_used(s) > max_accelerators)
            continue;
        const NodePreset* np = match_node_preset(nodes, mc.hardware);
        if (!np) continue;  // `validate` reports the row's hardware as unknown
        const SoftwarePreset* sp = match_software_preset(software, mc.software);
        if (!sp) continue;  // ... and its software as unknown
        ++predicted;
        const Prediction p = predict_case(mc, np->node, sp->software);
        Config c = mc.config;
        c.node = np->node;
        c.software = sp->software;
        c.strategy = p.strategy;
        fuzz::check_result(p.result, c, "row " + mc.id);
        if (p.strategy.tp != s.tp || p.strategy.pp != s.pp || p.strategy.dp != s.dp || p.strategy.cp != s.cp || p.strategy.ep != s.ep ||
            p.strategy.offload_activations != s.offload_activations)
            fuzz::fail("a prediction changed the row's published strategy", mc.id);
        if (p.result.feasible && !std::isfinite(p.error())) fuzz::fail("a feasible prediction with a non-finite error", mc.id);
    }
    return 0;
}

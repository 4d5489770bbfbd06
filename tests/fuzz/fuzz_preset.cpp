// libFuzzer target: node and model preset files (load_node_preset, load_model_preset). The
// loaders read a path, so each input goes through a temporary file (in /dev/shm when there is
// one) and is read by both loaders. A preset that loads must round-trip twice:
//   - through the preset writer (save_user_node_preset / save_user_model_preset into a
//     temporary user folder) and load_*_preset, giving back the same spec;
//   - embedded in a scenario (presets/scenarios/default.comet.json with this node or model),
//     which must load back and evaluate like any scenario (fuzz_common.hpp).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "comet/presets.hpp"
#include "comet/scenario.hpp"
#include "fuzz_common.hpp"

namespace {

namespace fs = std::filesystem;

fs::path work_dir;
comet::Scenario base_scenario;

bool same_model(const comet::ModelSpec& a, const comet::ModelSpec& b) {
    return a.layers == b.layers && a.hidden == b.hidden && a.heads == b.heads && a.kv_heads == b.kv_heads && a.head_dim == b.head_dim &&
           a.ffn_hidden == b.ffn_hidden && a.gated_mlp == b.gated_mlp && a.seq_len == b.seq_len && a.vocab == b.vocab &&
           a.tied_embeddings == b.tied_embeddings && a.bias == b.bias && a.learned_position_embeddings == b.learned_position_embeddings;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    comet::fuzz::use_source_presets();
    work_dir = comet::fuzz::make_work_dir("comet-fuzz-preset-");
    std::error_code ec;
    fs::create_directories(work_dir / "user", ec);
    if (ec) comet::fuzz::fail("cannot create the work folder", (work_dir / "user").string());
    // Writes go to this folder; reads by name stay on the source tree (use_source_presets).
    ::setenv("COMET_USER_PRESETS_DIR", (work_dir / "user").c_str(), 1);
    auto loaded = comet::load_scenario_file(COMET_SOURCE_DIR "/presets/scenarios/default.comet.json");
    if (!loaded.ok()) comet::fuzz::fail("cannot load the base scenario", loaded.error_text());
    base_scenario = *loaded.value;
    base_scenario.designs.clear();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace comet;
    const fs::path input = work_dir / "fuzz-preset.json";
    fuzz::write_file(input, fuzz::as_text(data, size));

    const Loaded<NodePreset> node = load_node_preset(input);
    fuzz::check_no_swallowed_exception(node.errors, input.string());
    if (!node.ok() && node.errors.empty()) fuzz::fail("no node preset and no error message");
    if (node.ok()) {
        const NodePreset& p = *node.value;
        if (const std::string e = save_user_node_preset("fuzz-node", p.info, p.node); !e.empty())
            fuzz::fail("cannot save a loaded node preset", e);
        const Loaded<NodePreset> back = load_node_preset(work_dir / "user" / "nodes" / "fuzz-node.json");
        if (!back.ok()) fuzz::fail("a saved node preset does not load back", back.error_text());
        if (!(back.value->node == p.node) || back.value->info.name != p.info.name || back.value->info.source != p.info.source)
            fuzz::fail("a saved node preset loads back different");
        Scenario s = base_scenario;
        s.config.node = p.node;
        s.node_info = p.info;
        fuzz::check_scenario(s);
    }

    const Loaded<ModelPreset> model = load_model_preset(input);
    fuzz::check_no_swallowed_exception(model.errors, input.string());
    if (!model.ok() && model.errors.empty()) fuzz::fail("no model preset and no error message");
    if (model.ok()) {
        const ModelPreset& p = *model.value;
        if (const std::string e = save_user_model_preset("fuzz-model", p.info, p.model); !e.empty())
            fuzz::fail("cannot save a loaded model preset", e);
        const Loaded<ModelPreset> back = load_model_preset(work_dir / "user" / "models" / "fuzz-model.json");
        if (!back.ok()) fuzz::fail("a saved model preset does not load back", back.error_text());
        if (!same_model(back.value->model, p.model) || back.value->info.name != p.info.name || back.value->info.source != p.info.source)
            fuzz::fail("a saved model preset loads back different");
        Scenario s = base_scenario;
        s.config.model = p.model;
        s.model_info = p.info;
        fuzz::check_scenario(s);
    }

    const Loaded<SoftwarePreset> software = load_software_preset(input);
    fuzz::check_no_swallowed_exception(software.errors, input.string());
    if (!software.ok() && software.errors.empty()) fuzz::fail("no software preset and no error message");
    if (software.ok()) {
        const SoftwarePreset& p = *software.value;
        if (p.sources.empty()) fuzz::fail("a software preset loaded without a source for its values");
        Scenario s = base_scenario;
        s.config.software = p.software;
        s.software_info = p.info;
        fuzz::check_scenario(s);
    }
    return 0;
}

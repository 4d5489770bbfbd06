// libFuzzer target: Hugging Face config.json import (import_hf_config_text) onto the default
// scenario. An import that succeeds gives a scenario that is checked like fuzz_scenario's.

#include <cstddef>
#include <cstdint>

#include "comet/interop.hpp"
#include "comet/scenario.hpp"
#include "fuzz_common.hpp"

namespace {
comet::Scenario base_scenario;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    comet::fuzz::use_source_presets();
    auto loaded = comet::load_scenario_file(COMET_SOURCE_DIR "/presets/scenarios/default.comet.json");
    if (!loaded.ok()) comet::fuzz::fail("cannot load the base scenario", loaded.error_text());
    base_scenario = *loaded.value;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace comet;
    const Loaded<ImportResult> imported = import_hf_config_text(fuzz::as_text(data, size), "config.json", base_scenario);
    fuzz::check_no_swallowed_exception(imported.errors, "config.json");
    if (!imported.ok()) {
        if (imported.errors.empty()) fuzz::fail("no import and no error message");
        return 0;
    }
    fuzz::check_scenario(imported.value->scenario);
    return 0;
}

// libFuzzer target: scenario files (parse_scenario). A scenario that loads is evaluated,
// rendered, and must survive a save/load round trip (fuzz_common.hpp).

#include <cstddef>
#include <cstdint>

#include "comet/scenario.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    comet::fuzz::use_source_presets();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace comet;
    const Loaded<Scenario> loaded = parse_scenario(fuzz::as_text(data, size), "fuzz.comet.json");
    fuzz::check_no_swallowed_exception(loaded.errors, "fuzz.comet.json");
    if (!loaded.ok() && loaded.errors.empty()) fuzz::fail("no scenario and no error message");
    if (loaded.ok()) fuzz::check_scenario(*loaded.value);
    return 0;
}

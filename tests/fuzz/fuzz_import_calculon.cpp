// libFuzzer target: Calculon application + system + execution import (import_calculon_text).
// An input holds up to three JSON texts separated by form feeds (0x0C): application, system,
// execution. A missing part is taken from Calculon's example trio (tests/data/calculon:
// megatron-1T, a100_80g, 3072_t4_p64_d12_mbs4_full), so that an input of one plain JSON
// object fuzzes the application against a valid system and execution, "\f" + JSON the system,
// and "\f\f" + JSON the execution. An import that succeeds is checked like fuzz_scenario's,
// and exporting it back to Calculon's three files must give files that import again.

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "comet/interop.hpp"
#include "comet/scenario.hpp"
#include "fuzz_common.hpp"

namespace {

std::string default_part[3];

std::string read_text(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) comet::fuzz::fail("cannot read a default Calculon file", path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    comet::fuzz::use_source_presets();
    default_part[0] = read_text(COMET_SOURCE_DIR "/tests/data/calculon/megatron-1T.json");
    default_part[1] = read_text(COMET_SOURCE_DIR "/tests/data/calculon/a100_80g.json");
    default_part[2] = read_text(COMET_SOURCE_DIR "/tests/data/calculon/3072_t4_p64_d12_mbs4_full.json");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace comet;
    std::string_view rest = fuzz::as_text(data, size);
    std::string_view part[3] = {default_part[0], default_part[1], default_part[2]};
    for (int i = 0; i < 3; ++i) {
        const std::size_t cut = i < 2 ? rest.find('\f') : std::string_view::npos;
        const std::string_view piece = rest.substr(0, cut);
        if (!piece.empty()) part[i] = piece;
        if (cut == std::string_view::npos) break;
        rest.remove_prefix(cut + 1);
    }
    const Loaded<ImportResult> imported =
        import_calculon_text(part[0], "application.json", part[1], "system.json", part[2], "execution.json");
    for (std::string_view label : {"application.json", "system.json", "execution.json"})
        fuzz::check_no_swallowed_exception(imported.errors, label);
    if (!imported.ok()) {
        if (imported.errors.empty()) fuzz::fail("no import and no error message");
        return 0;
    }
    const Scenario& s = imported.value->scenario;
    fuzz::check_scenario(s);
    std::vector<std::string> warnings;
    const std::string app = export_calculon_application(s, &warnings);
    const std::string sys = export_calculon_system(s, &warnings);
    const std::string exe = export_calculon_execution(s, &warnings);
    const Loaded<ImportResult> again =
        import_calculon_text(app, "exported-application.json", sys, "exported-system.json", exe, "exported-execution.json");
    if (!again.ok())
        fuzz::fail("an imported scenario exported to Calculon does not import again",
                   again.error_text() + "\n---- application:\n" + app + "\n---- system:\n" + sys + "\n---- execution:\n" + exe);
    return 0;
}

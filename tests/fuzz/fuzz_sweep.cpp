// libFuzzer target: sweep files (parse_sweep). A sweep that loads has its scenario checked like
// fuzz_scenario's; a small one (at most 16 cells) is also run without its strategy search, and
// its JSON results must read back (read_sweep_json) with the same cells.

#include <cstddef>
#include <cstdint>
#include <string>

#include "comet/knobs.hpp"
#include "comet/sweep.hpp"
#include "comet/sweep_io.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    comet::fuzz::use_source_presets();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace comet;
    const std::string_view text = fuzz::as_text(data, size);
    // A sweep may name its scenario by path. Device and kernel files are host I/O, not parsing
    // (/dev/zero streams 16 MiB, /proc/kmsg blocks), so inputs that could name one are skipped.
    for (std::string_view dir : {"/dev", "/proc", "/sys"})
        if (text.find(dir) != std::string_view::npos) return 0;
    // Relative scenario paths resolve as they do for the shipped sweeps (presets/sweeps/*.sweep.json).
    const Loaded<SweepFile> loaded = parse_sweep(text, "fuzz.sweep.json", COMET_SOURCE_DIR "/presets/sweeps");
    fuzz::check_no_swallowed_exception(loaded.errors, "fuzz.sweep.json");
    if (!loaded.ok()) {
        if (loaded.errors.empty()) fuzz::fail("no sweep and no error message");
        return 0;
    }
    SweepFile sweep = *loaded.value;
    fuzz::check_scenario(sweep.scenario);

    const std::size_t cells = sweep.spec.x.values.size() * (sweep.spec.y ? sweep.spec.y->values.size() : 1);
    if (cells == 0) fuzz::fail("a sweep without cells loaded");
    if (cells > 16) return 0;
    sweep.spec.search = false;  // a search per cell is too slow for a fuzz iteration
    const SweepResult result = run_sweep(sweep.scenario.config, sweep.spec);
    if (result.cells.size() != cells) fuzz::fail("run_sweep gave the wrong number of cells");
    for (const SweepCell& cell : result.cells) {
        Config c = sweep.scenario.config;
        set_knob(c, sweep.spec.x.knob, cell.x);
        if (sweep.spec.y) set_knob(c, sweep.spec.y->knob, cell.y);
        fuzz::check_result(cell.result, c, "sweep cell");
    }
    (void)sweep_to_csv(sweep, result);
    const std::string json = sweep_to_json(sweep, result);
    const Loaded<std::vector<SweepRow>> rows = read_sweep_json(json, "fuzz-result.json");
    if (!rows.ok()) fuzz::fail("sweep results do not read back", rows.error_text() + "\n---- results:\n" + json);
    const std::vector<SweepRow> written = sweep_rows(sweep, result);
    if (rows.value->size() != written.size()) fuzz::fail("sweep results read back with a different number of cells");
    for (std::size_t i = 0; i < written.size(); ++i) {
        const SweepRow& a = written[i];
        const SweepRow& b = (*rows.value)[i];
        if (a.x != b.x || a.y != b.y || a.feasible != b.feasible || a.reason != b.reason || a.iteration_s != b.iteration_s ||
            a.x_knob != b.x_knob || a.y_knob != b.y_knob)
            fuzz::fail("a sweep cell reads back different", json);
    }
    return 0;
}

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "comet/knobs.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/sweep.hpp"
#include "comet/sweep_io.hpp"
#include "comet/units.hpp"
#include "cli_options.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "run_control.hpp"

namespace comet::cli {
namespace {

void usage() {
    std::printf(
        "Usage: comet-cli sweep SWEEP.json [--csv FILE] [--json FILE] [--quiet]\n\n"
        "Runs the sweep (docs/sweep-format.md): one or two axes over any knob, each cell evaluated\n"
        "as the scenario gives it or with the best strategy searched for it.\n\n"
        "Without an output file it prints a table: for one axis a row per value; for two axes a\n"
        "matrix of iteration times ('x' marks cells where nothing fits) with a legend.\n\n"
        "  --csv FILE    write every cell's results as CSV (header + one line per cell)\n"
        "  --json FILE   write them as JSON; both may be given. Files are replaced atomically\n"
        "                and not written at all when the sweep is cancelled.\n"
        "  --quiet       no progress bar (it is shown only when stderr is a terminal)\n\n"
        "Ctrl-C stops the sweep (exit status 130).\n");
}

int bad(const std::string& message) {
    std::fprintf(stderr, "comet-cli sweep: %s\n", message.c_str());
    return exit_bad_input;
}

std::size_t feasible_cells(const SweepResult& r) {
    return static_cast<std::size_t>(std::count_if(r.cells.begin(), r.cells.end(), [](const SweepCell& c) { return c.result.feasible; }));
}

}  // namespace

int cmd_sweep(Args args) {
    std::string file, csv_file, json_file;
    bool quiet = false;
    CommandLine cl("comet-cli sweep", usage);
    cl.flag("-q,--quiet", [&] { quiet = true; });
    for (const char* option : {"--csv", "--json"}) {
        std::string& target = std::string_view(option) == "--csv" ? csv_file : json_file;
        const std::string name = option;
        cl.option(option, name + " needs a FILE to write", [&target, name](const std::string& v) {
            if (!target.empty()) return name + " given twice";
            if (v.empty()) return name + " needs a FILE to write";
            target = v;
            return std::string();
        });
    }
    if (const auto done = cl.parse(args)) return *done;
    if (const auto done = cl.single_file(file, "one sweep file")) return *done;
    if (file.empty()) return bad("missing SWEEP file (usage: comet-cli sweep SWEEP.json [--csv FILE | --json FILE])");
    if (!csv_file.empty() && csv_file == json_file) return bad("--csv and --json name the same file " + csv_file);
    for (const auto& [option, path] : {std::pair{"--csv", csv_file}, std::pair{"--json", json_file}})
        if (!path.empty())
            if (std::string problem = output_problem(option, path); !problem.empty()) return bad(problem);

    const Loaded<SweepFile> loaded = load_sweep_file(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    const SweepFile& sweep = *loaded.value;

    SweepResult result;
    {
        InterruptGuard interrupt;
        ProgressBar bar(!quiet && ProgressBar::stderr_is_terminal(), "sweeping");
        SearchControl control;
        control.cancel = interrupt.flag();
        control.progress = [&bar](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
        result = run_sweep(sweep.scenario.config, sweep.spec, control);
        bar.finish();
        if (result.cancelled || interrupt.interrupted()) {
            std::fprintf(stderr, "comet-cli sweep: cancelled; no file written\n");
            return exit_cancelled;
        }
    }

    if (csv_file.empty() && json_file.empty()) {
        const std::string out = format_sweep_text(sweep, result);
        std::fwrite(out.data(), 1, out.size(), stdout);
        return exit_ok;
    }
    const std::size_t feasible = feasible_cells(result);
    for (const auto& [path, is_csv] : {std::pair{csv_file, true}, std::pair{json_file, false}}) {
        if (path.empty()) continue;
        const std::string text = is_csv ? sweep_to_csv(sweep, result) : sweep_to_json(sweep, result);
        if (std::string problem = save_text_atomically(path, text); !problem.empty()) {
            std::fprintf(stderr, "comet-cli sweep: %s\n", problem.c_str());
            return exit_failure;
        }
        std::printf("Wrote %zu cells (%zu feasible) to %s\n", result.cells.size(), feasible, path.c_str());
    }
    return exit_ok;
}

}  // namespace comet::cli

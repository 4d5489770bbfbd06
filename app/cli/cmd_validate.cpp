#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "comet/evaluate.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/validation.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace comet::cli {
namespace {

void usage() {
    std::printf("Usage: comet-cli validate [FILE.json ...] [--max-mean PCT] [--max-worst PCT] [--detail ID]\n\n"
                "Predicts every published measurement in the given files (default: the files in the\n"
                "presets' validation/ folder) and prints measured vs predicted iteration time, the\n"
                "error, and the mean, worst and signed error per table, per hardware and overall.\n"
                "Each case runs on the node preset whose id, name or alias its 'hardware' text names.\n"
                "Knobs the source does not publish (microbatch, interleaving, recomputation, TP\n"
                "overlap) take the value the model finds fastest, the same rule for every case; the\n"
                "last column lists them. Rows the model cannot express are listed with the reason.\n"
                "--max-mean/--max-worst make the exit status 1 when the error exceeds the bound.\n"
                "--detail ID prints the full breakdown of every case whose id contains ID.\n");
}

bool parse_pct(std::string_view text, double& out) {
    const std::string s(text);
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out) && out > 0;
}

}  // namespace

int cmd_validate(Args args) {
    std::vector<std::filesystem::path> files;
    double max_mean = 0, max_worst = 0;
    std::string detail;  // cases whose id contains this get their full breakdown
    CommandLine cl("comet-cli validate", usage);
    for (const char* option : {"--max-mean", "--max-worst"}) {
        double& target = std::string_view(option) == "--max-mean" ? max_mean : max_worst;
        const std::string message = std::string(option) + " needs a positive percentage";
        cl.option(option, message, [&target, message](const std::string& v) { return parse_pct(v, target) ? std::string() : message; });
    }
    cl.option("--detail", "--detail needs part of a case id", [&](const std::string& v) {
        detail = v;
        return v.empty() ? std::string("--detail needs part of a case id") : std::string();
    });
    if (const auto done = cl.parse(args)) return *done;
    for (const std::string& f : cl.positionals()) files.emplace_back(f);
    if (files.empty()) {
        const auto dir = presets_dir() / "validation";
        files = validation_files(dir);
        if (files.empty()) {
            std::fprintf(stderr, "comet-cli validate: no measurement files in %s\n", dir.string().c_str());
            return exit_bad_input;
        }
    }
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    const auto models = load_model_presets(errors);
    for (const auto& e : errors) std::fprintf(stderr, "warning: %s\n", e.c_str());

    const ValidationRun run = run_validation(files, nodes, models);
    for (const auto& e : run.errors) std::fprintf(stderr, "%s\n", e.c_str());
    if (!run.errors.empty()) return exit_bad_input;
    std::fputs(format_validation_text(run, nodes, detail).c_str(), stdout);
    const double worst = run.all.inexpressible > 0 ? 1.0 : run.all.worst_abs;
    const double mean = run.all.mean_abs;
    if ((max_mean > 0 && 100 * mean > max_mean) || (max_worst > 0 && 100 * worst > max_worst)) {
        std::fprintf(stderr, "comet-cli validate: error above the bound (mean %.1f %% / %.1f %%, worst %.1f %% / %.1f %%)\n",
                     100 * mean, max_mean, 100 * worst, max_worst);
        return exit_failure;
    }
    return exit_ok;
}

}  // namespace comet::cli

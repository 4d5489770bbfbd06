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
    auto stats_line = [](const ErrorStats& s) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "%d cases: mean absolute error %.1f %%, worst %.1f %%, mean signed %+.1f %% (%d slower, %d faster)",
                      s.cases, 100 * s.mean_abs, 100 * s.worst_abs, 100 * s.mean_signed, s.too_slow, s.too_fast);
        std::string out = buf;
        if (s.inexpressible > 0) out += "; " + std::to_string(s.inexpressible) + " cannot be expressed";
        return out;
    };
    for (const auto& t : run.tables) {
        std::printf("%s\n  %s\n\n", t.file.c_str(), t.source.c_str());
        std::printf("  %-46s %6s  %-50s %10s %10s %8s  %s\n", "case", "GPUs", "predicted with", "measured", "predicted",
                    "error", "searched (not published)");
        for (const auto& p : t.predictions) {
            const MeasuredCase& mc = p.measured;
            const long long gpus = accelerators_used(mc.config.strategy);
            std::string knobs;
            for (const auto& k : p.searched_knobs) knobs += (knobs.empty() ? "" : ", ") + k;
            if (knobs.empty()) knobs = "-";
            if (!mc.inexpressible.empty()) {
                std::printf("  %-46s %6lld  cannot be expressed: %s\n", mc.id.c_str(), gpus, mc.inexpressible.c_str());
            } else if (!p.result.feasible) {
                std::printf("  %-46s %6lld  %-50s %9.3fs  infeasible: %s\n", mc.id.c_str(), gpus,
                            format_strategy(p.strategy).c_str(), mc.measured_iteration_s, explain(p.result).c_str());
            } else {
                std::printf("  %-46s %6lld  %-50s %9.3fs %9.3fs %+7.1f%%  %s\n", mc.id.c_str(), gpus,
                            format_strategy(p.strategy).c_str(), mc.measured_iteration_s, p.result.iteration_s,
                            100 * p.error(), knobs.c_str());
            }
            if (!detail.empty() && mc.id.find(detail) != std::string::npos) {
                Scenario sc;
                sc.name = mc.id;
                sc.config = mc.config;
                sc.config.strategy = p.strategy;
                if (const NodePreset* node = match_node_preset(nodes, mc.hardware)) {
                    sc.config.node = node->node;
                    sc.node_info = node->info;
                }
                sc.config.cluster.nodes = static_cast<int>((gpus + sc.config.node.accelerators - 1) / sc.config.node.accelerators);
                std::printf("\n%s\n", format_result_text(sc, p.result).c_str());
            }
        }
        std::printf("\n  %s\n", stats_line(t.stats).c_str());
        for (const auto& h : t.hardware) std::printf("    %-22s %s\n", h.node_name.c_str(), stats_line(h.stats).c_str());
        std::printf("\n");
    }
    std::printf("Per hardware, every table:\n");
    for (const auto& h : run.hardware) std::printf("  %-22s %s\n", h.node_name.c_str(), stats_line(h.stats).c_str());
    // Every node preset is calibrated or not: say which have no published run in these tables.
    std::string unvalidated;
    for (const auto& n : nodes) {
        const bool validated = std::any_of(run.hardware.begin(), run.hardware.end(),
                                           [&](const HardwareStats& h) { return h.node_id == n.id && h.stats.cases > 0; });
        if (!validated) unvalidated += (unvalidated.empty() ? "" : ", ") + n.info.name;
    }
    if (!unvalidated.empty())
        std::printf("  Not validated (no published run in these tables; calibrated on other hardware or not at all, see each preset's source): %s\n",
                    unvalidated.c_str());
    std::printf("\nAll tables: %s\n", stats_line(run.all).c_str());
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

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/validation.hpp"
#include "commands.hpp"

namespace comet::cli {
namespace {

void usage() {
    std::printf("Usage: comet-cli validate [FILE.json ...] [--max-mean PCT] [--max-worst PCT]\n\n"
                "Predicts every published measurement in the given files (default: the files in the\n"
                "presets' validation/ folder) and prints measured vs predicted iteration time, the\n"
                "error, and the mean and worst absolute error. Each case runs on the node preset whose\n"
                "name or alias its 'hardware' text names. Microbatch and interleaving, when the\n"
                "source does not publish them, take the value the model finds fastest.\n"
                "--max-mean/--max-worst make the exit status 1 when the error exceeds the bound.\n");
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
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto a = args[i];
        if (a == "--help" || a == "-h") { usage(); return exit_ok; }
        if (a == "--max-mean" || a == "--max-worst") {
            double& target = a == "--max-mean" ? max_mean : max_worst;
            if (i + 1 >= args.size() || !parse_pct(args[i + 1], target)) {
                std::fprintf(stderr, "comet-cli validate: %s needs a positive percentage\n", std::string(a).c_str());
                return exit_bad_input;
            }
            ++i;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "comet-cli validate: unknown option '%s'\n", std::string(a).c_str());
            return exit_bad_input;
        } else {
            files.emplace_back(std::string(a));
        }
    }
    if (files.empty()) {
        const auto dir = presets_dir() / "validation";
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(dir, ec))
            if (e.path().extension() == ".json") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        if (files.empty()) {
            std::fprintf(stderr, "comet-cli validate: no measurement files in %s\n", dir.string().c_str());
            return exit_bad_input;
        }
    }
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    for (const auto& e : errors) std::fprintf(stderr, "warning: %s\n", e.c_str());

    double sum = 0, worst = 0;
    int n = 0;
    for (const auto& f : files) {
        const auto set = load_measurements(f);
        if (!set.ok()) {
            std::fprintf(stderr, "%s\n", set.error_text().c_str());
            return exit_bad_input;
        }
        std::printf("%s\n  %s\n\n", f.filename().string().c_str(), set.value->source.c_str());
        std::printf("  %-28s %6s  %-44s %10s %10s %8s\n", "case", "GPUs", "predicted with", "measured", "predicted", "error");
        for (const auto& mc : set.value->cases) {
            const NodePreset* node = match_node_preset(nodes, mc.hardware);
            if (!node) {
                std::fprintf(stderr, "%s: %s: no node preset matches hardware \"%s\"\n", f.string().c_str(),
                             mc.id.c_str(), mc.hardware.c_str());
                return exit_bad_input;
            }
            const Prediction p = predict_case(mc, node->node);
            const long long gpus = static_cast<long long>(mc.config.strategy.tp) * mc.config.strategy.pp * mc.config.strategy.dp;
            if (!p.result.feasible) {
                std::printf("  %-28s %6lld  %-44s %9.3fs  infeasible: %s\n", mc.id.c_str(), gpus,
                            format_strategy(p.strategy).c_str(), mc.measured_iteration_s, explain(p.result).c_str());
                sum += 1.0;
                worst = std::max(worst, 1.0);
            } else {
                const double err = p.error();
                std::printf("  %-28s %6lld  %-44s %9.3fs %9.3fs %+7.1f%%\n", mc.id.c_str(), gpus,
                            format_strategy(p.strategy).c_str(), mc.measured_iteration_s, p.result.iteration_s, 100 * err);
                sum += std::fabs(err);
                worst = std::max(worst, std::fabs(err));
            }
            ++n;
        }
        std::printf("\n");
    }
    const double mean = n ? sum / n : 0;
    std::printf("%d cases: mean absolute error %.1f %%, worst %.1f %%\n", n, 100 * mean, 100 * worst);
    if ((max_mean > 0 && 100 * mean > max_mean) || (max_worst > 0 && 100 * worst > max_worst)) {
        std::fprintf(stderr, "comet-cli validate: error above the bound (mean %.1f %% / %.1f %%, worst %.1f %% / %.1f %%)\n",
                     100 * mean, max_mean, 100 * worst, max_worst);
        return exit_failure;
    }
    return exit_ok;
}

}  // namespace comet::cli

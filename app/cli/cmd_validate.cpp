#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "comet/evaluate.hpp"
#include "comet/op_table.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/validation.hpp"
#include "cli_options.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace comet::cli {
namespace {

void usage() {
    std::printf(
        "Usage: comet-cli validate [FILE.json ...] [--max-mean PCT] [--max-worst PCT] [--max-inexpressible N]\n"
        "                          [--detail ID]\n"
        "       comet-cli validate --ops FILE [--node PRESET] [--json]\n\n"
        "Predicts every published measurement in the given files (default: the files in the\n"
        "presets' validation/ folder) and prints measured vs predicted iteration time, the\n"
        "error, and the mean, worst and signed error per table, per hardware and overall.\n"
        "Each case runs on the node preset whose id, name or alias its 'hardware' text names, with the\n"
        "software preset its 'software' (or its table's) names; a row without either is listed as not expressible.\n"
        "Knobs the source does not publish (microbatch, interleaving, recomputation, TP\n"
        "overlap) take the value the model finds fastest, the same rule for every case; the\n"
        "last column lists them. Rows the model cannot express are listed with the reason.\n"
        "--max-mean/--max-worst make the exit status 1 when the error exceeds the bound; a row\n"
        "the model cannot express counts as a 100 %% error under --max-worst, unless\n"
        "--max-inexpressible N allows up to N such rows (then more than N is the failure).\n"
        "--detail ID prints the full breakdown of every case whose id contains ID.\n\n"
        "--ops FILE fits the per-op rate model (GEMM, attention per kernel family, grouped GEMM,\n"
        "HBM copy) on a measured per-op table (presets/measurements/) and prints model vs measured\n"
        "per op family: rows within 5/10/15/25 %%, mean and signed mean error, the worst shape, and\n"
        "the fitted parameters; --json prints the same numbers as JSON. --node PRESET (a node\n"
        "preset's id or name) adds that node's GEMMs as a training step prices them (its gemm\n"
        "constants) against the same rows, at the clock each row was measured at.\n");
}

bool parse_pct(std::string_view text, double& out) {
    const std::string s(text);
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out) && out > 0;
}

// `validate --ops FILE`: the per-op rate model fitted on FILE, model vs measured per family.
int validate_ops(const std::string& file, const std::string& node_id, bool json) {
    const Loaded<ops::OpTable> table = ops::load_op_table(file);
    if (!table.ok()) {
        for (const auto& e : table.errors) std::fprintf(stderr, "%s\n", e.c_str());
        return exit_bad_input;
    }
    const Loaded<ops::GpuDatasheet> gpu = ops::datasheet_for(table.value->device);
    if (!gpu.ok()) {
        for (const auto& e : gpu.errors) std::fprintf(stderr, "%s: %s\n", file.c_str(), e.c_str());
        return exit_bad_input;
    }
    std::optional<NodePreset> node;
    if (!node_id.empty()) {
        node = find_node_preset(node_id);
        if (!node) {
            std::fprintf(stderr, "comet-cli validate: --node \"%s\": no node preset has this id, name or alias (%s)\n", node_id.c_str(),
                         known_preset_names("nodes").c_str());
            return exit_bad_input;
        }
    }
    const ops::OpValidation v = node ? ops::validate_op_table(*table.value, *gpu.value, node->node, node->info.name + " (" + node->id + ")")
                                     : ops::validate_op_table(*table.value, *gpu.value);
    const std::string out = json ? ops::format_op_validation_json(v) : ops::format_op_validation_text(v);
    std::fputs(out.c_str(), stdout);
    return exit_ok;
}

}  // namespace

int cmd_validate(Args args) {
    std::vector<std::filesystem::path> files;
    double max_mean = 0, max_worst = 0;
    int max_inexpressible = 0;  // rows that may be inexpressible without failing --max-worst
    std::string detail;         // cases whose id contains this get their full breakdown
    CommandLine cl("comet-cli validate", usage);
    for (const char* option : {"--max-mean", "--max-worst"}) {
        double& target = std::string_view(option) == "--max-mean" ? max_mean : max_worst;
        const std::string message = std::string(option) + " needs a positive percentage";
        cl.option(option, message, [&target, message](const std::string& v) { return parse_pct(v, target) ? std::string() : message; });
    }
    cl.option("--max-inexpressible", "--max-inexpressible needs a whole number of rows from 0 to 1000000", [&](const std::string& v) {
        return parse_int(v, max_inexpressible) && max_inexpressible >= 0 && max_inexpressible <= 1'000'000
                   ? std::string()
                   : "--max-inexpressible = \"" + v + "\": needs a whole number of rows from 0 to 1000000";
    });
    cl.option("--detail", "--detail needs part of a case id", [&](const std::string& v) {
        detail = v;
        return v.empty() ? std::string("--detail needs part of a case id") : std::string();
    });
    std::string ops_file;
    bool json = false;
    cl.option("--ops", "--ops needs a per-op measurement file (presets/measurements/*.json)", [&](const std::string& v) {
        ops_file = v;
        return std::string();
    });
    std::string ops_node;
    cl.option("--node", "--node needs a node preset's id or name", [&](const std::string& v) {
        ops_node = v;
        return v.empty() ? std::string("--node needs a node preset's id or name") : std::string();
    });
    cl.flag("--json", [&] { json = true; });
    if (const auto done = cl.parse(args)) return *done;
    if (!ops_file.empty()) {
        if (!cl.positionals().empty() || max_mean > 0 || max_worst > 0 || !detail.empty())
            return cl.bad("--ops takes no training tables, --max-mean, --max-worst or --detail");
        return validate_ops(ops_file, ops_node, json);
    }
    if (!ops_node.empty()) return cl.bad("--node goes with --ops FILE");
    if (json) return cl.bad("--json goes with --ops FILE");
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
    const auto software = load_software_presets(errors);
    for (const auto& e : errors) std::fprintf(stderr, "warning: %s\n", e.c_str());

    const ValidationRun run = run_validation(files, nodes, models, software);
    for (const auto& e : run.errors) std::fprintf(stderr, "%s\n", e.c_str());
    if (!run.errors.empty()) return exit_bad_input;
    std::fputs(format_validation_text(run, nodes, software, detail).c_str(), stdout);
    if (run.all.inexpressible > max_inexpressible && max_inexpressible > 0) {
        std::fprintf(stderr, "comet-cli validate: %d rows cannot be expressed, more than the %d allowed by --max-inexpressible\n",
                     run.all.inexpressible, max_inexpressible);
        return exit_failure;
    }
    const double worst = run.all.inexpressible > max_inexpressible ? 1.0 : run.all.worst_abs;
    const double mean = run.all.mean_abs;
    if ((max_mean > 0 && 100 * mean > max_mean) || (max_worst > 0 && 100 * worst > max_worst)) {
        std::fprintf(stderr, "comet-cli validate: error above the bound (mean %.1f %% / %.1f %%, worst %.1f %% / %.1f %%)\n", 100 * mean,
                     max_mean, 100 * worst, max_worst);
        return exit_failure;
    }
    return exit_ok;
}

}  // namespace comet::cli

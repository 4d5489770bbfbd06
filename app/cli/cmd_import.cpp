#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "comet/interop.hpp"
#include "comet/presets.hpp"
#include "comet/scenario.hpp"
#include "commands.hpp"

namespace comet::cli {

namespace {

constexpr const char* import_usage =
    "Usage: comet-cli import calculon APPLICATION.json SYSTEM.json EXECUTION.json -o OUT.comet.json\n"
    "       comet-cli import hf CONFIG.json [--base SCENARIO.comet.json] -o OUT.comet.json\n";

void print_help() {
    std::printf("%s\n"
                "Imports other tools' files as a scenario (docs/interop.md):\n"
                "  calculon  a Calculon application (model), system (hardware) and execution\n"
                "            (parallelisation) file;\n"
                "  hf        a Hugging Face transformers config.json (Llama, Llama 4, Mistral, Qwen2,\n"
                "            Qwen3, Mixtral, Qwen2-MoE, Qwen3-MoE, GPT-OSS, DeepSeek-V2/V3, Kimi K2;\n"
                "            experts become the model's MoE fields, multi-head latent attention,\n"
                "            sliding windows and multi-token prediction their own): replaces the\n"
                "            model of the base scenario (default:\n"
                "            presets/scenarios/default.comet.json).\n"
                "Prints every mapped field and every warning (what was approximated or dropped), then\n"
                "writes OUT atomically. Bad input exits 2 with a message naming the file and key.\n",
                import_usage);
}

int bad(const std::string& message) {
    std::fprintf(stderr, "comet-cli import: %s\n", message.c_str());
    return exit_bad_input;
}

}  // namespace

int cmd_import(Args args) {
    std::vector<std::string> files;
    std::string output, base_file, kind;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto a = args[i];
        if (a == "--help" || a == "-h") {
            print_help();
            return exit_ok;
        } else if (a == "-o" || a == "--output" || a == "--base") {
            if (i + 1 >= args.size()) return bad(std::string(a) + " needs a FILE");
            (a == "--base" ? base_file : output) = std::string(args[++i]);
        } else if (!a.empty() && a[0] == '-') {
            return bad("unknown option '" + std::string(a) + "'");
        } else if (kind.empty()) {
            kind = a;
        } else {
            files.emplace_back(a);
        }
    }
    if (kind.empty()) return bad(std::string("missing FORMAT ('calculon' or 'hf')\n") + import_usage);
    if (kind != "calculon" && kind != "hf") return bad("unknown format '" + kind + "' (expected 'calculon' or 'hf')");
    const std::size_t want = kind == "calculon" ? 3 : 1;
    if (files.size() != want)
        return bad(kind == "calculon" ? "calculon needs APPLICATION.json SYSTEM.json EXECUTION.json, got " +
                                            std::to_string(files.size()) + " file(s)"
                                      : "hf needs one CONFIG.json, got " + std::to_string(files.size()) + " file(s)");
    if (kind == "calculon" && !base_file.empty()) return bad("--base applies to 'import hf' only");
    if (output.empty()) return bad("missing -o OUT.comet.json");

    Loaded<ImportResult> r;
    if (kind == "calculon") {
        r = import_calculon(files[0], files[1], files[2]);
    } else {
        const std::filesystem::path base_path =
            base_file.empty() ? presets_dir() / "scenarios" / "default.comet.json" : std::filesystem::path(base_file);
        const Loaded<Scenario> base = load_scenario_file(base_path);
        if (!base.ok()) {
            std::fprintf(stderr, "%s\n", base.error_text().c_str());
            return exit_bad_input;
        }
        r = import_hf_config(files[0], *base.value);
    }
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", r.error_text().c_str());
        return exit_bad_input;
    }
    const ImportResult& res = *r.value;
    std::printf("Mapped (%zu):\n", res.mapped.size());
    for (const auto& m : res.mapped) std::printf("  %s\n", m.c_str());
    std::printf("Warnings (%zu):\n", res.warnings.size());
    for (const auto& w : res.warnings) std::printf("  warning: %s\n", w.c_str());
    if (const std::string problem = save_scenario_file(output, res.scenario); !problem.empty())
        return bad(output + ": " + problem);
    std::printf("Wrote %s (%s)\n", output.c_str(), res.scenario.name.c_str());
    return exit_ok;
}

}  // namespace comet::cli

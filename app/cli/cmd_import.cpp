#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "comet/interop.hpp"
#include "comet/presets.hpp"
#include "comet/scenario.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace comet::cli {

namespace {

constexpr const char* import_usage =
    "Usage: comet-cli import calculon APPLICATION.json SYSTEM.json EXECUTION.json -o OUT.comet.json\n"
    "       comet-cli import hf CONFIG.json [--base SCENARIO.comet.json] -o OUT.comet.json\n";

void print_help() {
    std::printf(
        "%s\n"
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
    CommandLine cl("comet-cli import", print_help);
    const auto to = [](std::string& target) {
        return [&target](const std::string& v) {
            target = v;
            return std::string();
        };
    };
    cl.option("-o", "-o needs a FILE", to(output));
    cl.option("--output", "--output needs a FILE", to(output));
    cl.option("--base", "--base needs a FILE", to(base_file));
    if (const auto done = cl.parse(args)) return *done;
    for (const std::string& a : cl.positionals()) {
        if (kind.empty())
            kind = a;
        else
            files.push_back(a);
    }
    if (kind.empty()) return bad(std::string("missing FORMAT ('calculon' or 'hf')\n") + import_usage);
    if (kind != "calculon" && kind != "hf") return bad("unknown format '" + kind + "' (expected 'calculon' or 'hf')");
    const std::size_t want = kind == "calculon" ? 3 : 1;
    if (files.size() != want)
        return bad(kind == "calculon"
                       ? "calculon needs APPLICATION.json SYSTEM.json EXECUTION.json, got " + std::to_string(files.size()) + " file(s)"
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
    if (const std::string problem = save_scenario_file(output, res.scenario); !problem.empty()) return bad(output + ": " + problem);
    std::printf("Wrote %s (%s)\n", output.c_str(), res.scenario.name.c_str());
    return exit_ok;
}

}  // namespace comet::cli

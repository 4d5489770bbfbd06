#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "comet/interop.hpp"
#include "comet/scenario.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace comet::cli {

namespace {

constexpr const char* export_usage = "Usage: comet-cli export calculon SCENARIO.comet.json -o DIR\n";

int bad(const std::string& message) {
    std::fprintf(stderr, "comet-cli export: %s\n", message.c_str());
    return exit_bad_input;
}

void usage() {
    std::printf(
        "%s\n"
        "Writes the scenario as Calculon's three inputs, DIR/application.json,\n"
        "DIR/system.json and DIR/execution.json (docs/interop.md), and prints what the\n"
        "Calculon schema cannot express. DIR is created if its parent exists.\n",
        export_usage);
}

}  // namespace

int cmd_export(Args args) {
    std::string kind, file, dir;
    CommandLine cl("comet-cli export", usage);
    const auto output = [&](const std::string& v) {
        dir = v;
        return std::string();
    };
    cl.option("-o", "-o needs a DIR", output);
    cl.option("--output", "--output needs a DIR", output);
    if (const auto done = cl.parse(args)) return *done;
    const std::vector<std::string>& pos = cl.positionals();
    if (pos.size() > 2) return bad("one scenario file expected, got '" + pos[2] + "' too");
    if (!pos.empty()) kind = pos[0];
    if (pos.size() > 1) file = pos[1];
    if (kind.empty()) return bad(std::string("missing FORMAT ('calculon')\n") + export_usage);
    if (kind != "calculon") return bad("unknown format '" + kind + "' (expected 'calculon')");
    if (file.empty()) return bad(std::string("missing SCENARIO file\n") + export_usage);
    if (dir.empty()) return bad("missing -o DIR");

    const Loaded<Scenario> loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    if (loaded.value->config.workload == Workload::dlrm)
        return bad(file + " trains a DLRM: Calculon's application files describe transformers only");
    const std::filesystem::path out(dir);
    std::error_code ec;
    if (!std::filesystem::is_directory(out, ec) && !std::filesystem::create_directory(out, ec))
        return bad("-o " + dir + ": cannot create the directory: " + ec.message());
    std::vector<std::string> warnings;
    const Scenario& s = *loaded.value;
    const struct {
        const char* name;
        std::string text;
    } files[] = {{"application.json", export_calculon_application(s, &warnings)},
                 {"system.json", export_calculon_system(s, &warnings)},
                 {"execution.json", export_calculon_execution(s, &warnings)}};
    std::printf("Not expressible in Calculon (%zu):\n", warnings.size());
    for (const auto& w : warnings) std::printf("  warning: %s\n", w.c_str());
    for (const auto& f : files) {
        const std::filesystem::path p = out / f.name;
        if (const std::string problem = save_text_atomically(p, f.text); !problem.empty()) return bad(p.string() + ": " + problem);
        std::printf("Wrote %s\n", p.string().c_str());
    }
    return exit_ok;
}

}  // namespace comet::cli

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "comet/interop.hpp"
#include "comet/scenario.hpp"
#include "commands.hpp"

namespace comet::cli {

namespace {

constexpr const char* export_usage = "Usage: comet-cli export calculon SCENARIO.comet.json -o DIR\n";

int bad(const std::string& message) {
    std::fprintf(stderr, "comet-cli export: %s\n", message.c_str());
    return exit_bad_input;
}

}  // namespace

int cmd_export(Args args) {
    std::string kind, file, dir;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto a = args[i];
        if (a == "--help" || a == "-h") {
            std::printf("%s\n"
                        "Writes the scenario as Calculon's three inputs, DIR/application.json,\n"
                        "DIR/system.json and DIR/execution.json (docs/interop.md), and prints what the\n"
                        "Calculon schema cannot express. DIR is created if its parent exists.\n",
                        export_usage);
            return exit_ok;
        } else if (a == "-o" || a == "--output") {
            if (i + 1 >= args.size()) return bad(std::string(a) + " needs a DIR");
            dir = args[++i];
        } else if (!a.empty() && a[0] == '-') {
            return bad("unknown option '" + std::string(a) + "'");
        } else if (kind.empty()) {
            kind = a;
        } else if (file.empty()) {
            file = a;
        } else {
            return bad("one scenario file expected, got '" + std::string(a) + "' too");
        }
    }
    if (kind.empty()) return bad(std::string("missing FORMAT ('calculon')\n") + export_usage);
    if (kind != "calculon") return bad("unknown format '" + kind + "' (expected 'calculon')");
    if (file.empty()) return bad(std::string("missing SCENARIO file\n") + export_usage);
    if (dir.empty()) return bad("missing -o DIR");

    const Loaded<Scenario> loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
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
        if (const std::string problem = save_text_atomically(p, f.text); !problem.empty())
            return bad(p.string() + ": " + problem);
        std::printf("Wrote %s\n", p.string().c_str());
    }
    return exit_ok;
}

}  // namespace comet::cli

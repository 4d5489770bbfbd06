// comet-explorer --report: the explorer's one-click PDF report, written without a window. The
// report paints Qt widgets, so it lives in the GUI program; `comet-cli report` (Qt-free) runs this
// with the same arguments (docs/cli.md).

#include "report_command.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <QApplication>
#include <QString>
#include <QtGlobal>

#include "cli_options.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "comet/knobs.hpp"
#include "comet/scenario.hpp"
#include "report/report.hpp"
#include "run_control.hpp"

namespace comet::cli {

namespace {

// How the user called it: `comet-cli report` sets COMET_REPORT_INVOKED_AS when it hands over.
std::string invoked_as() {
    const char* v = std::getenv("COMET_REPORT_INVOKED_AS");
    return v != nullptr && *v != '\0' ? std::string(v) : std::string("comet-explorer --report");
}

void usage() {
    std::printf(
        "Usage: comet-explorer --report SCENARIO.comet.json --pdf FILE [--x KNOB] [--y KNOB] [--metric ID]\n"
        "                               [--steps N] [--no-search] [--fraction F] [--nodes N,N,...]\n"
        "   or: comet-cli report SCENARIO.comet.json --pdf FILE [the same options]\n\n"
        "Writes the explorer's report as an A4 landscape PDF: the scenario and its assumptions, the\n"
        "result of its strategy and the best strategy found, a heatmap of two knobs with the iteration\n"
        "time breakdown and memory, the comparison of its designs (when it has any), the sensitivity\n"
        "tornado, the cost and the time/cost Pareto chart. Runs without a display.\n\n"
        "  --pdf FILE     the PDF to write (required); replaced atomically, not written when cancelled\n"
        "  --x KNOB       heatmap x axis (default hbm_gbps); any knob id, e.g. matrix_tflops, tp, nodes\n"
        "  --y KNOB       heatmap y axis (default scale_out_gbps); the same knob as --x gives one axis\n"
        "  --metric ID    heatmap colour: iteration_time (default), tokens_per_s, mfu,\n"
        "                 exposed_comm_share, exposed_memory_share, hbm_use\n"
        "  --steps N      cells per axis for continuous knobs, 2 to 128 (default 17)\n"
        "  --no-search    evaluate the scenario's strategy in every cell instead of searching the best\n"
        "  --fraction F   resource change for the tornado, > 0 and at most 0.95 (default 0.1)\n"
        "  --nodes LIST   node counts for the Pareto chart (default: each design as it is)\n\n"
        "Prints 'wrote FILE (N pages)'. Ctrl-C stops it (exit status 130) and writes nothing.\n");
}

int bad(const std::string& message) {
    std::fprintf(stderr, "%s: %s\n", invoked_as().c_str(), message.c_str());
    return exit_bad_input;
}

std::string knob_ids() {
    std::string out;
    for (const KnobInfo& k : all_knobs()) out += (out.empty() ? "" : ", ") + std::string(k.id);
    return out;
}

std::string metric_ids() {
    std::string out;
    for (const ui::MetricInfo& m : ui::all_metrics()) out += (out.empty() ? "" : ", ") + std::string(m.id);
    return out;
}

// Reads the arguments into `scenario`, `pdf` and `options` (CommandLine: the message of a bad
// value names the option, the value and what is allowed). Returns the exit status to return at
// once, or nothing to go on.
std::optional<int> parse(Args args, std::string& scenario, std::string& pdf, ui::ReportOptions& options) {
    CommandLine cl(invoked_as(), usage);
    const auto needs_value = [](const char* option) { return std::string(option) + " needs a value (see '" + invoked_as() + " --help')"; };
    cl.flag("--no-search", [&] { options.search_cells = false; });
    cl.option("--pdf", needs_value("--pdf"), [&](const std::string& v) {
        pdf = v;
        return std::string();
    });
    for (const char* axis : {"--x", "--y"}) {
        Knob& target = std::string_view(axis) == "--x" ? options.x : options.y;
        cl.option(axis, needs_value(axis), [&target, axis](const std::string& v) {
            const std::optional<Knob> k = knob_from_id(v);
            if (!k) return std::string(axis) + " '" + v + "': unknown knob; allowed: " + knob_ids();
            target = *k;
            return std::string();
        });
    }
    cl.option("--metric", needs_value("--metric"), [&](const std::string& v) {
        const auto metrics = ui::all_metrics();
        const auto m = std::find_if(metrics.begin(), metrics.end(), [&](const ui::MetricInfo& info) { return v == info.id; });
        if (m == metrics.end()) return "--metric '" + v + "': unknown metric; allowed: " + metric_ids();
        options.metric = m->metric;
        return std::string();
    });
    cl.option("--steps", needs_value("--steps"), [&](const std::string& v) {
        if (!parse_int(v, options.steps) || options.steps < ui::report_min_steps || options.steps > ui::report_max_steps)
            return "--steps needs an integer from " + std::to_string(ui::report_min_steps) + " to " + std::to_string(ui::report_max_steps) +
                   ", got '" + v + "'";
        return std::string();
    });
    cl.option("--fraction", needs_value("--fraction"), [&](const std::string& v) {
        double f = 0;
        if (!parse_double(v, f) || !(f > 0 && f <= ui::report_max_fraction))
            return "--fraction needs a number > 0 and at most 0.95, got '" + v + "'";
        options.fraction = f;
        return std::string();
    });
    cl.option("--nodes", needs_value("--nodes"), [&](const std::string& v) { return parse_nodes(v, options.pareto_nodes); });
    if (const auto done = cl.parse(args)) return done;
    if (const auto done = cl.single_file(scenario)) return done;
    if (scenario.empty()) return cl.bad("missing SCENARIO file (usage: " + invoked_as() + " SCENARIO --pdf FILE)");
    if (pdf.empty()) return cl.bad("missing --pdf FILE (usage: " + invoked_as() + " SCENARIO --pdf FILE)");
    return std::nullopt;
}

// The report paints widgets, which need a QApplication; a terminal or CI machine has no display,
// so fall back to the offscreen platform unless the user chose one.
int write_headless(const ui::ReportData& data, const std::string& pdf) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "comet-explorer";
    char* argv[] = {name, nullptr};
    const QApplication app(argc, argv);
    const QString path = QString::fromStdString(pdf);
    if (const QString why = ui::write_report_pdf(data, path); !why.isEmpty()) {
        std::fprintf(stderr, "%s: %s\n", invoked_as().c_str(), why.toStdString().c_str());
        return exit_failure;
    }
    std::printf("wrote %s (%d pages)\n", pdf.c_str(), ui::report_page_count(data));
    return exit_ok;
}

}  // namespace

int run_report(int argc, char** argv) {
    const std::vector<std::string_view> all(argv, argv + argc);
    const Args args(all);
    std::string scenario, pdf;
    ui::ReportOptions options;
    if (const auto done = parse(args, scenario, pdf, options)) return *done;
    const Loaded<Scenario> loaded = load_scenario_file(scenario);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    if (const std::string problem = output_problem("--pdf", pdf); !problem.empty()) return bad(problem);
    const InterruptGuard interrupt;
    const ui::ReportData data = ui::compute_report_data(*loaded.value, options, interrupt.flag());
    if (data.cancelled) {
        std::fprintf(stderr, "%s: cancelled\n", invoked_as().c_str());
        return exit_cancelled;
    }
    return write_headless(data, pdf);
}

}  // namespace comet::cli

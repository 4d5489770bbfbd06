// comet-explorer --report: the explorer's one-click PDF report, written without a window. The
// report paints Qt widgets, so it lives in the GUI program; `comet-cli report` (Qt-free) runs this
// with the same arguments (docs/cli.md).

#include "report_command.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <QApplication>
#include <QString>
#include <QtGlobal>

#include "cli_options.hpp"
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

struct Request {
    std::string scenario;
    std::string pdf;
    ui::ReportOptions options;
    bool help = false;
};

// Fills `r` from the arguments; returns a message naming the option, its value and what is
// allowed, or an empty string.
std::string parse(Args args, Request& r) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view a = args[i];
        const bool has_value = i + 1 < args.size();
        const std::string v = has_value ? std::string(args[i + 1]) : std::string();
        const auto got = [&] { return ", got '" + v + "'"; };
        if (a == "--help" || a == "-h") {
            r.help = true;
            return {};
        }
        if (a == "--no-search") {
            r.options.search_cells = false;
            continue;
        }
        if (a == "--pdf" || a == "--x" || a == "--y" || a == "--metric" || a == "--steps" || a == "--fraction" || a == "--nodes") {
            if (!has_value) return std::string(a) + " needs a value (see '" + invoked_as() + " --help')";
            ++i;
        }
        if (a == "--pdf") {
            r.pdf = v;
        } else if (a == "--x" || a == "--y") {
            const std::optional<Knob> k = knob_from_id(v);
            if (!k) return std::string(a) + " '" + v + "': unknown knob; allowed: " + knob_ids();
            (a == "--x" ? r.options.x : r.options.y) = *k;
        } else if (a == "--metric") {
            const auto metrics = ui::all_metrics();
            const auto m = std::find_if(metrics.begin(), metrics.end(), [&](const ui::MetricInfo& info) { return v == info.id; });
            if (m == metrics.end()) return "--metric '" + v + "': unknown metric; allowed: " + metric_ids();
            r.options.metric = m->metric;
        } else if (a == "--steps") {
            if (!parse_int(v, r.options.steps) || r.options.steps < ui::report_min_steps || r.options.steps > ui::report_max_steps)
                return "--steps needs an integer from " + std::to_string(ui::report_min_steps) + " to " +
                       std::to_string(ui::report_max_steps) + got();
        } else if (a == "--fraction") {
            double f = 0;
            if (!parse_double(v, f) || !(f > 0 && f <= ui::report_max_fraction)) return "--fraction needs a number > 0 and at most 0.95" + got();
            r.options.fraction = f;
        } else if (a == "--nodes") {
            if (std::string problem = parse_nodes(v, r.options.pareto_nodes); !problem.empty()) return problem;
        } else if (!a.empty() && a[0] == '-') {
            return "unknown option '" + std::string(a) + "' (see '" + invoked_as() + " --help')";
        } else if (r.scenario.empty()) {
            r.scenario = a;
        } else {
            return "one scenario file expected, got '" + std::string(a) + "' too";
        }
    }
    if (r.scenario.empty()) return "missing SCENARIO file (usage: " + invoked_as() + " SCENARIO --pdf FILE)";
    if (r.pdf.empty()) return "missing --pdf FILE (usage: " + invoked_as() + " SCENARIO --pdf FILE)";
    return {};
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
    Request r;
    if (const std::string problem = parse(args, r); !problem.empty()) return bad(problem);
    if (r.help) {
        usage();
        return exit_ok;
    }
    const Loaded<Scenario> loaded = load_scenario_file(r.scenario);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    if (const std::string problem = output_problem("--pdf", r.pdf); !problem.empty()) return bad(problem);
    const InterruptGuard interrupt;
    const ui::ReportData data = ui::compute_report_data(*loaded.value, r.options, interrupt.flag());
    if (data.cancelled) {
        std::fprintf(stderr, "%s: cancelled\n", invoked_as().c_str());
        return exit_cancelled;
    }
    return write_headless(data, r.pdf);
}

}  // namespace comet::cli

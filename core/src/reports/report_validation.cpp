// comet-cli validate's tables (format_validation_text, comet/report.hpp).
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "comet/evaluate.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/validation.hpp"

namespace comet {
namespace {

// printf into a string (the tables' fixed-width columns).
[[gnu::format(printf, 1, 2)]] std::string strf(const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    std::string out(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
    if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, args);
    va_end(args);
    return out;
}

// A measured or predicted iteration time in the table's 10 columns: seconds with three
// decimals, or, below 0.1 s (a DLRM's steps), milliseconds with three.
std::string step_time(double s) { return s < 0.1 ? strf("%8.3fms", 1e3 * s) : strf("%9.3fs", s); }

}  // namespace

std::string format_validation_text(const ValidationRun& run, const std::vector<NodePreset>& nodes,
                                   const std::vector<SoftwarePreset>& software, const std::string& detail) {
    std::string out;
    auto stats_line = [](const ErrorStats& s) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "%d cases: mean absolute error %.1f %%, worst %.1f %%, mean signed %+.1f %% (%d slower, %d faster)",
                      s.cases, 100 * s.mean_abs, 100 * s.worst_abs, 100 * s.mean_signed, s.too_slow, s.too_fast);
        std::string line = buf;
        if (s.inexpressible > 0) line += "; " + std::to_string(s.inexpressible) + " cannot be expressed";
        return line;
    };
    for (const auto& t : run.tables) {
        out += strf("%s\n  %s\n\n", t.file.c_str(), t.source.c_str());
        out += strf("  %-46s %6s  %-50s %10s %10s %8s  %s\n", "case", "GPUs", "predicted with", "measured", "predicted", "error",
                    "searched (not published)");
        for (const auto& p : t.predictions) {
            const MeasuredCase& mc = p.measured;
            const long long gpus = accelerators_used(mc.config.strategy);
            std::string knobs;
            for (const auto& k : p.searched_knobs) knobs += (knobs.empty() ? "" : ", ") + k;
            if (knobs.empty()) knobs = "-";
            if (!mc.inexpressible.empty()) {
                out += strf("  %-46s %6lld  cannot be expressed: %s\n", mc.id.c_str(), gpus, mc.inexpressible.c_str());
            } else if (!p.result.feasible) {
                out += strf("  %-46s %6lld  %-50s %s  infeasible: %s\n", mc.id.c_str(), gpus,
                            format_strategy(p.strategy, mc.config.workload).c_str(), step_time(mc.measured_iteration_s).c_str(),
                            explain(p.result).c_str());
            } else {
                out += strf("  %-46s %6lld  %-50s %s %s %+7.1f%%  %s\n", mc.id.c_str(), gpus,
                            format_strategy(p.strategy, mc.config.workload).c_str(), step_time(mc.measured_iteration_s).c_str(),
                            step_time(p.result.iteration_s).c_str(), 100 * p.error(), knobs.c_str());
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
                // The stack the row was priced with (predict_case), named as the scenario would name it.
                if (const SoftwarePreset* sw = match_software_preset(software, mc.software)) {
                    sc.config.software = row_software(mc, sw->software);
                    sc.software_info = sw->info;
                }
                sc.config.cluster.nodes = static_cast<int>((gpus + sc.config.node.accelerators - 1) / sc.config.node.accelerators);
                out += strf("\n%s\n", format_result_text(sc, p.result).c_str());
            }
        }
        // Rows that correct their source say so with the table, never silently.
        bool heading = false;
        for (const auto& p : t.predictions) {
            if (p.measured.corrected.empty()) continue;
            if (!heading) out += "\n  Corrected from the source (the row holds what ran; see each row's erratum):\n";
            heading = true;
            out += strf("    %s: %s. %s\n", p.measured.id.c_str(), p.measured.corrected.c_str(), p.measured.correction_reason.c_str());
        }
        // Rows whose run set its software otherwise than the preset say so with the table.
        heading = false;
        for (const auto& p : t.predictions) {
            if (p.measured.software_settings_text.empty()) continue;
            if (!heading) out += "\n  Software set by the row's own run (its recipe; on top of the software preset):\n";
            heading = true;
            out += strf("    %s: %s\n", p.measured.id.c_str(), p.measured.software_settings_text.c_str());
        }
        out += strf("\n  %s\n", stats_line(t.stats).c_str());
        for (const auto& h : t.hardware) out += strf("    %-22s %s\n", h.node_name.c_str(), stats_line(h.stats).c_str());
        for (const auto& h : t.software) out += strf("    software %-13s %s\n", h.node_id.c_str(), stats_line(h.stats).c_str());
        out += "\n";
    }
    out += "Per hardware, every table:\n";
    for (const auto& h : run.hardware) out += strf("  %-22s %s\n", h.node_name.c_str(), stats_line(h.stats).c_str());
    // Every node preset is calibrated or not: say which have no published run in these tables.
    std::string unvalidated;
    for (const auto& n : nodes) {
        const bool validated = std::any_of(run.hardware.begin(), run.hardware.end(),
                                           [&](const HardwareStats& h) { return h.node_id == n.id && h.stats.cases > 0; });
        if (!validated) unvalidated += (unvalidated.empty() ? "" : ", ") + n.info.name;
    }
    if (!unvalidated.empty())
        out += strf(
            "  Not validated (no published run in these tables; calibrated on other hardware or not at all, see each preset's source): "
            "%s\n",
            unvalidated.c_str());
    out += "\nPer software, every table:\n";
    for (const auto& h : run.software) out += strf("  %-28s %s\n", h.node_id.c_str(), stats_line(h.stats).c_str());
    out += strf("\nAll tables: %s\n", stats_line(run.all).c_str());
    return out;
}

}  // namespace comet

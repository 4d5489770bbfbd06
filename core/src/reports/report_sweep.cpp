// comet-cli sweep's table (format_sweep_text, comet/report.hpp).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "comet/knobs.hpp"
#include "comet/report.hpp"
#include "comet/search.hpp"
#include "comet/sweep.hpp"
#include "comet/sweep_io.hpp"
#include "comet/units.hpp"

namespace comet {
namespace {

std::string value_text(double v) { return format_printf("%.6g", v); }

std::string axis_text(const Axis& a) {
    const KnobInfo& k = knob_info(a.knob);
    std::string out(k.id);
    std::string about = k.label == k.id ? std::string() : std::string(k.label);
    if (!k.unit.empty()) about += (about.empty() ? "" : ", ") + std::string(k.unit);
    if (!about.empty()) out += " (" + about + ")";
    out += ", " + std::to_string(a.values.size()) + (a.values.size() == 1 ? " value" : " values");
    return out;
}

std::string pad_left(const std::string& s, std::size_t width) { return s.size() >= width ? s : std::string(width - s.size(), ' ') + s; }

std::string pad_right(const std::string& s, std::size_t width) { return s.size() >= width ? s : s + std::string(width - s.size(), ' '); }

std::string header_text(const SweepFile& f) {
    std::string o;
    o += "Sweep       " + (f.name.empty() ? std::string("(unnamed)") : f.name) + "\n";
    o += "Scenario    " + (f.scenario.name.empty() ? std::string("(unnamed)") : f.scenario.name);
    if (!f.scenario_file.empty()) o += " (" + f.scenario_file.string() + ")";
    o += "\n";
    o += "x           " + axis_text(f.spec.x) + "\n";
    if (f.spec.y) o += "y           " + axis_text(*f.spec.y) + "\n";
    if (f.spec.search)
        o += std::string("Strategy    best found in every cell (objective ") +
             (f.spec.search_options.objective == Objective::time ? "time" : "mfu") + ")\n";
    else
        o += "Strategy    as the scenario gives it: " + format_strategy(f.scenario.config.strategy, f.scenario.config.workload) + "\n";
    return o + "\n";
}

// Counts of infeasible cells by reason, as legend lines.
std::string reasons_text(const SweepResult& r) {
    std::array<std::size_t, static_cast<std::size_t>(Infeasible::count_)> counts{};
    for (const SweepCell& c : r.cells)
        if (!c.result.feasible) ++counts[static_cast<std::size_t>(c.result.reason)];
    std::string o;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (counts[i] == 0) continue;
        const auto reason = static_cast<Infeasible>(i);
        o += "  " + std::to_string(counts[i]) + (counts[i] == 1 ? " cell:  " : " cells: ") + std::string(describe(reason)) + " (" +
             std::string(to_string(reason)) + ")\n";
    }
    return o;
}

const SweepCell* best_cell(const SweepResult& r, Objective objective) {
    const SweepCell* best = nullptr;
    for (const SweepCell& c : r.cells)
        if (c.result.feasible && (!best || objective_score(c.result, objective) < objective_score(best->result, objective))) best = &c;
    return best;
}

std::string one_axis_table(const SweepFile& f, const SweepResult& r) {
    const KnobInfo& xk = knob_info(f.spec.x.knob);
    std::vector<std::vector<std::string>> rows;
    rows.push_back({std::string(xk.id), "Iteration", f.scenario.config.workload == Workload::dlrm ? "Samples/s" : "Tokens/s", "MFU",
                    "HBM used", f.spec.search ? "Strategy" : ""});
    for (const SweepCell& c : r.cells) {
        const Result& res = c.result;
        if (res.feasible)
            rows.push_back({value_text(c.x), format_seconds(res.iteration_s), format_printf("%.0f", res.tokens_per_s),
                            format_printf("%.1f %%", 100 * res.mfu), format_printf("%.1f GiB", units::bytes_to_gib(res.hbm.used_bytes())),
                            f.spec.search ? format_strategy(c.strategy, f.scenario.config.workload) : ""});
        else
            rows.push_back({value_text(c.x), "x", "", "", "", "infeasible: " + explain(res)});
    }
    std::vector<std::size_t> width(6, 0);
    for (const auto& row : rows)
        for (std::size_t i = 0; i < 5; ++i) width[i] = std::max(width[i], row[i].size());
    std::string o;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < 5; ++i) line += (i ? "  " : "") + pad_left(row[i], width[i]);
        if (!row[5].empty()) line += "  " + row[5];
        while (!line.empty() && line.back() == ' ') line.pop_back();
        o += line + "\n";
    }
    return o;
}

std::string matrix_table(const SweepFile& f, const SweepResult& r) {
    const KnobInfo& xk = knob_info(f.spec.x.knob);
    const KnobInfo& yk = knob_info(f.spec.y->knob);
    double longest = 0;
    for (const SweepCell& c : r.cells)
        if (c.result.feasible) longest = std::max(longest, c.result.iteration_s);
    const double scale = longest >= 1.0 ? 1.0 : longest >= 1e-3 ? 1e3 : 1e6;
    const char* unit = longest >= 1.0 ? "s" : longest >= 1e-3 ? "ms" : "us";

    const std::string corner = std::string(yk.id) + " \\ " + std::string(xk.id);
    std::size_t first = corner.size();
    for (int iy = 0; iy < r.ny; ++iy) first = std::max(first, value_text(r.at(0, iy).y).size());
    std::vector<std::string> heads;
    std::size_t width = 1;
    for (int ix = 0; ix < r.nx; ++ix) {
        heads.push_back(value_text(r.at(ix, 0).x));
        width = std::max(width, heads.back().size());
    }
    std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(r.ny));
    for (int iy = 0; iy < r.ny; ++iy)
        for (int ix = 0; ix < r.nx; ++ix) {
            const Result& res = r.at(ix, iy).result;
            cells[static_cast<std::size_t>(iy)].push_back(res.feasible ? format_printf("%.4g", res.iteration_s * scale) : "x");
            width = std::max(width, cells[static_cast<std::size_t>(iy)].back().size());
        }

    std::string o =
        std::string("Iteration time (") + unit + ") by " + std::string(yk.id) + " (rows) and " + std::string(xk.id) + " (columns)\n\n";
    std::string line = pad_right(corner, first);
    for (const auto& h : heads) line += "  " + pad_left(h, width);
    o += line + "\n";
    for (int iy = 0; iy < r.ny; ++iy) {
        line = pad_left(value_text(r.at(0, iy).y), first);
        for (const auto& c : cells[static_cast<std::size_t>(iy)]) line += "  " + pad_left(c, width);
        o += line + "\n";
    }
    o += "\nLegend: numbers are iteration times in " + std::string(unit) + "; x = infeasible";
    o += f.spec.search ? " (no strategy fits)" : "";
    o += ".\n";
    if (f.spec.search) o += "Per-cell strategies: write the results with --csv or --json.\n";
    return o;
}

}  // namespace

std::string format_sweep_text(const SweepFile& f, const SweepResult& r) {
    std::string o = header_text(f);
    o += f.spec.y ? matrix_table(f, r) : one_axis_table(f, r);
    const std::string reasons = reasons_text(r);
    if (!reasons.empty()) o += "\nInfeasible cells\n" + reasons;
    if (const SweepCell* best = best_cell(r, f.spec.search_options.objective)) {
        o += "\nBest cell   " + std::string(knob_info(f.spec.x.knob).id) + " = " + value_text(best->x);
        if (f.spec.y) o += ", " + std::string(knob_info(f.spec.y->knob).id) + " = " + value_text(best->y);
        o += ": " + format_seconds(best->result.iteration_s) + ", MFU " + format_printf("%.1f %%", 100 * best->result.mfu) + ", " +
             format_strategy(best->strategy, f.scenario.config.workload) + "\n";
    } else {
        o += "\nNo cell has a feasible configuration.\n";
    }
    return o;
}

}  // namespace comet

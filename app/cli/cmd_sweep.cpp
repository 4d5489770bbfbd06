#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "comet/knobs.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/sweep.hpp"
#include "comet/sweep_io.hpp"
#include "comet/units.hpp"
#include "cli_options.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "run_control.hpp"

namespace comet::cli {
namespace {

void usage() {
    std::printf(
        "Usage: comet-cli sweep SWEEP.json [--csv FILE] [--json FILE] [--quiet]\n\n"
        "Runs the sweep (docs/sweep-format.md): one or two axes over any knob, each cell evaluated\n"
        "as the scenario gives it or with the best strategy searched for it.\n\n"
        "Without an output file it prints a table: for one axis a row per value; for two axes a\n"
        "matrix of iteration times ('x' marks cells where nothing fits) with a legend.\n\n"
        "  --csv FILE    write every cell's results as CSV (header + one line per cell)\n"
        "  --json FILE   write them as JSON; both may be given. Files are replaced atomically\n"
        "                and not written at all when the sweep is cancelled.\n"
        "  --quiet       no progress bar (it is shown only when stderr is a terminal)\n\n"
        "Ctrl-C stops the sweep (exit status 130).\n");
}

int bad(const std::string& message) {
    std::fprintf(stderr, "comet-cli sweep: %s\n", message.c_str());
    return exit_bad_input;
}


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

std::string pad_left(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

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
        o += "Strategy    as the scenario gives it: " + format_strategy(f.scenario.config.strategy) + "\n";
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
        o += "  " + std::to_string(counts[i]) + (counts[i] == 1 ? " cell:  " : " cells: ") +
             std::string(describe(reason)) + " (" + std::string(to_string(reason)) + ")\n";
    }
    return o;
}

const SweepCell* best_cell(const SweepResult& r, Objective objective) {
    const SweepCell* best = nullptr;
    for (const SweepCell& c : r.cells)
        if (c.result.feasible && (!best || objective_score(c.result, objective) < objective_score(best->result, objective)))
            best = &c;
    return best;
}

std::string one_axis_table(const SweepFile& f, const SweepResult& r) {
    const KnobInfo& xk = knob_info(f.spec.x.knob);
    std::vector<std::vector<std::string>> rows;
    rows.push_back({std::string(xk.id), "Iteration", "Tokens/s", "MFU", "HBM used", f.spec.search ? "Strategy" : ""});
    for (const SweepCell& c : r.cells) {
        const Result& res = c.result;
        if (res.feasible)
            rows.push_back({value_text(c.x), format_seconds(res.iteration_s), format_printf("%.0f", res.tokens_per_s),
                            format_printf("%.1f %%", 100 * res.mfu), format_printf("%.1f GiB", units::bytes_to_gib(res.hbm.used_bytes())),
                            f.spec.search ? format_strategy(c.strategy) : ""});
        else
            rows.push_back({value_text(c.x), "x", "", "", "",
                            "infeasible: " + explain(res)});
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

    std::string o = std::string("Iteration time (") + unit + ") by " + std::string(yk.id) + " (rows) and " +
                    std::string(xk.id) + " (columns)\n\n";
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

std::string table_text(const SweepFile& f, const SweepResult& r) {
    std::string o = header_text(f);
    o += f.spec.y ? matrix_table(f, r) : one_axis_table(f, r);
    const std::string reasons = reasons_text(r);
    if (!reasons.empty()) o += "\nInfeasible cells\n" + reasons;
    if (const SweepCell* best = best_cell(r, f.spec.search_options.objective)) {
        o += "\nBest cell   " + std::string(knob_info(f.spec.x.knob).id) + " = " + value_text(best->x);
        if (f.spec.y) o += ", " + std::string(knob_info(f.spec.y->knob).id) + " = " + value_text(best->y);
        o += ": " + format_seconds(best->result.iteration_s) + ", MFU " + format_printf("%.1f %%", 100 * best->result.mfu) + ", " +
             format_strategy(best->strategy) + "\n";
    } else {
        o += "\nNo cell has a feasible configuration.\n";
    }
    return o;
}

std::size_t feasible_cells(const SweepResult& r) {
    return static_cast<std::size_t>(
        std::count_if(r.cells.begin(), r.cells.end(), [](const SweepCell& c) { return c.result.feasible; }));
}

}  // namespace

int cmd_sweep(Args args) {
    std::string file, csv_file, json_file;
    bool quiet = false;
    CommandLine cl("comet-cli sweep", usage);
    cl.flag("-q,--quiet", [&] { quiet = true; });
    for (const char* option : {"--csv", "--json"}) {
        std::string& target = std::string_view(option) == "--csv" ? csv_file : json_file;
        const std::string name = option;
        cl.option(option, name + " needs a FILE to write", [&target, name](const std::string& v) {
            if (!target.empty()) return name + " given twice";
            if (v.empty()) return name + " needs a FILE to write";
            target = v;
            return std::string();
        });
    }
    if (const auto done = cl.parse(args)) return *done;
    if (const auto done = cl.single_file(file, "one sweep file")) return *done;
    if (file.empty()) return bad("missing SWEEP file (usage: comet-cli sweep SWEEP.json [--csv FILE | --json FILE])");
    if (!csv_file.empty() && csv_file == json_file) return bad("--csv and --json name the same file " + csv_file);
    for (const auto& [option, path] : {std::pair{"--csv", csv_file}, std::pair{"--json", json_file}})
        if (!path.empty())
            if (std::string problem = output_problem(option, path); !problem.empty()) return bad(problem);

    const Loaded<SweepFile> loaded = load_sweep_file(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.error_text().c_str());
        return exit_bad_input;
    }
    const SweepFile& sweep = *loaded.value;

    SweepResult result;
    {
        InterruptGuard interrupt;
        ProgressBar bar(!quiet && ProgressBar::stderr_is_terminal(), "sweeping");
        SearchControl control;
        control.cancel = interrupt.flag();
        control.progress = [&bar](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
        result = run_sweep(sweep.scenario.config, sweep.spec, control);
        bar.finish();
        if (result.cancelled || interrupt.interrupted()) {
            std::fprintf(stderr, "comet-cli sweep: cancelled; no file written\n");
            return exit_cancelled;
        }
    }

    if (csv_file.empty() && json_file.empty()) {
        const std::string out = table_text(sweep, result);
        std::fwrite(out.data(), 1, out.size(), stdout);
        return exit_ok;
    }
    const std::size_t feasible = feasible_cells(result);
    for (const auto& [path, is_csv] : {std::pair{csv_file, true}, std::pair{json_file, false}}) {
        if (path.empty()) continue;
        const std::string text = is_csv ? sweep_to_csv(sweep, result) : sweep_to_json(sweep, result);
        if (std::string problem = save_text_atomically(path, text); !problem.empty()) {
            std::fprintf(stderr, "comet-cli sweep: %s\n", problem.c_str());
            return exit_failure;
        }
        std::printf("Wrote %zu cells (%zu feasible) to %s\n", result.cells.size(), feasible, path.c_str());
    }
    return exit_ok;
}

}  // namespace comet::cli
